import { describe, expect, it } from 'vitest';
import { adminOperationId, singular } from './openapi-admin-ids.ts';
import { canonicalJson, hoistTitledSchemas, nameRoots, rawBodies } from './openapi-components.ts';

const size = { title: 'ArticleSize', type: 'object', properties: { SIZEX: { type: 'string' } } };
const article = () => ({
  title: 'Article',
  type: 'object',
  properties: { ARTICLE: { type: 'string' }, SIZES: { type: 'array', items: structuredClone(size) } },
});
const answer = (schema: object) => ({
  responses: { 200: { description: 'OK', content: { 'application/json': { schema } } } },
});

describe('hoistTitledSchemas', () => {
  it('moves every titled schema into components, innermost first, and refers to it', () => {
    const doc = {
      paths: {
        '/a': { get: answer({ type: 'object', properties: { A: article() } }) },
        '/b': { get: answer({ type: 'array', items: article() }) },
      },
      components: { schemas: { Problem: { type: 'object', properties: { title: { type: 'string' } } } } },
    };
    expect(hoistTitledSchemas(doc)).toEqual(['ArticleSize', 'Article']);
    const schemas = doc.components.schemas as Record<string, unknown>;
    expect(schemas.Article).toEqual({
      ...article(),
      properties: {
        ARTICLE: { type: 'string' },
        SIZES: { type: 'array', items: { $ref: '#/components/schemas/ArticleSize' } },
      },
    });
    expect(schemas.ArticleSize).toEqual(size);
    const ok = (path: string) =>
      // biome-ignore lint/suspicious/noExplicitAny: walked by key
      (doc.paths as any)[path].get.responses['200'].content['application/json'].schema;
    expect(ok('/a').properties.A).toEqual({ $ref: '#/components/schemas/Article' });
    expect(ok('/b').items).toEqual({ $ref: '#/components/schemas/Article' });
    // a property named "title" is no title
    expect(schemas.Problem).toEqual({ type: 'object', properties: { title: { type: 'string' } } });
  });

  it('refuses two different schemas of one title', () => {
    const other = { ...article(), description: 'another' };
    const doc = { paths: { '/a': { get: answer(article()) }, '/b': { get: answer(other) } } };
    expect(() => hoistTitledSchemas(doc)).toThrow('two different schemas are titled "Article"');
  });

  it('leaves examples and enums as they are', () => {
    const example = { title: 'Not a schema', type: 'object' };
    const doc = { paths: { '/a': { get: answer({ type: 'object', examples: [example] }) } } };
    expect(hoistTitledSchemas(doc)).toEqual([]);
  });

  it('compares schemas whatever the order of their keys', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe(canonicalJson({ a: [{ c: 3, d: 2 }], b: 1 }));
  });
});

describe('nameRoots and rawBodies', () => {
  it('names untitled answer roots and bodies after their operation', () => {
    const body = { type: 'object', properties: { X: { type: 'string' } } };
    const doc = {
      paths: {
        '/TV2/Execute/APIPACK.APIPing': {
          get: { operationId: 'APIPing', ...answer({ type: 'object', properties: { APIPING: {} } }) },
        },
        '/TV2/Admin/articles/{article}': {
          put: {
            operationId: 'putArticle',
            requestBody: { content: { 'application/json': { schema: body } } },
            ...answer({ type: 'object', properties: { SAVED: {} } }),
          },
        },
        '/TV2/Admin/articles/{article}/images/{imageno}': {
          put: { operationId: 'uploadArticleImage', 'x-tv2-raw-body': ['image/png', 'image/jpeg'] },
        },
      },
    };
    nameRoots(doc);
    rawBodies(doc);
    // biome-ignore lint/suspicious/noExplicitAny: walked by key
    const paths = doc.paths as any;
    expect(
      paths['/TV2/Execute/APIPACK.APIPing'].get.responses['200'].content['application/json'].schema.title,
    ).toBe('APIPING');
    const put = paths['/TV2/Admin/articles/{article}'].put;
    expect(put.responses['200'].content['application/json'].schema.title).toBe('PutArticleAnswer');
    expect(put.requestBody.content['application/json'].schema.title).toBe('PutArticleBody');
    const upload = paths['/TV2/Admin/articles/{article}/images/{imageno}'].put;
    expect(upload['x-tv2-raw-body']).toBeUndefined();
    expect(upload.requestBody.content).toEqual({
      'image/png': { schema: { type: 'string', format: 'binary' } },
      'image/jpeg': { schema: { type: 'string', format: 'binary' } },
    });
  });
});

describe('adminOperationId', () => {
  it('makes a verb and a noun of the method and the path', () => {
    expect(adminOperationId('PUT', '/TV2/Admin/articles/:article')).toBe('putArticle');
    expect(adminOperationId('PUT', '/TV2/Admin/articles/:article/images/:imageno', true)).toBe(
      'uploadArticleImage',
    );
    expect(adminOperationId('DELETE', '/TV2/Admin/customers/:customer/addresses/:address')).toBe(
      'deleteCustomerAddress',
    );
    expect(adminOperationId('POST', '/TV2/Admin/stock/movements')).toBe('createStockMovement');
    expect(adminOperationId('POST', '/TV2/Admin/orders/:order/start-picking')).toBe('startPickingOrder');
    expect(adminOperationId('POST', '/TV2/Admin/prices/delete')).toBe('deletePrices');
    expect(adminOperationId('PUT', '/TV2/Admin/regexes/:name/:country')).toBe('putRegexForCountry');
    expect(adminOperationId('GET', '/TV2/Admin/billing/documents/:number/pdf')).toBe('getBillingDocumentPdf');
    expect(adminOperationId('PUT', '/TV2/Admin/sizetables/:sizetable')).toBe('putSizeTable');
  });

  it('makes English singulars of the path words', () => {
    expect(['deliveries', 'addresses', 'regexes', 'articles', 'stock'].map(singular)).toEqual([
      'delivery',
      'address',
      'regex',
      'article',
      'stock',
    ]);
  });
});
