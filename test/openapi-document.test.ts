import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ROUTES, AREAS, OPERATIONS } from '../src/areas.ts';
import { errorCodesOf } from '../src/http/errors.ts';
import { THROTTLED } from '../src/http/openapi-responses.ts';
import { buildApp } from '../src/http/server.ts';
import type { Area } from '../src/kernel/area.ts';
import { planned } from '../src/kernel/operation.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * The served OpenAPI document is complete for a client developer (issue 14): named component
 * schemas instead of inline ones, every status an operation can answer with its problem codes and
 * headers, binary bodies, readable back-office operationIds, the conventions in info.description.
 * The expectations are made from the operations and admin routes themselves (src/areas.ts), not
 * from the document, so a transform that forgets a status is caught.
 */

// biome-ignore lint/suspicious/noExplicitAny: a JSON document walked by key
type Doc = any;

let t: TestApp;
let doc: Doc;

beforeAll(async () => {
  t = await startTestApp();
  doc = (await t.app.inject({ method: 'GET', url: '/TV2/openapi.json' })).json();
});
afterAll(() => t.close());

const PACKAGE = 'APIPACK';
const operationAt = (name: string, method: string) =>
  doc.paths[`/TV2/Execute/${PACKAGE}.${name}`][method.toLowerCase()];
const adminAt = (url: string, method: string) =>
  doc.paths[url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')][method.toLowerCase()];

function statuses(op: Doc): string[] {
  return Object.keys(op.responses);
}

/** Every operation of the document with its path and method. */
function allOperations(): Array<{ path: string; method: string; op: Doc }> {
  return Object.entries<Doc>(doc.paths).flatMap(([path, item]) =>
    Object.entries<Doc>(item).map(([method, op]) => ({ path, method, op })),
  );
}

/** The component a `$ref` names, and the ref's kind. */
function deref(node: Doc): Doc {
  const ref: string | undefined = node?.$ref;
  if (!ref) return node;
  const [, , kind, name] = ref.split('/');
  return doc.components[kind as string][name as string];
}

/** Every node under `node` (not inside examples), with its JSON pointer. */
function* nodes(node: Doc, pointer = ''): Generator<{ node: Doc; pointer: string }> {
  if (node === null || typeof node !== 'object') return;
  yield { node, pointer };
  for (const [key, value] of Object.entries<Doc>(node)) {
    if (key === 'example' || key === 'examples') continue;
    yield* nodes(value, `${pointer}/${key}`);
  }
}

describe('named component schemas', () => {
  it('has the entities of every area and the answer roots as components', () => {
    const names = Object.keys(doc.components.schemas);
    for (const name of [
      'Problem',
      'Article',
      'ArticleSize',
      'SizeTable',
      'LanguageText',
      'StockLevel',
      'RetailStockLevel',
      'Customer',
      'Representative',
      'Client',
      'Price',
      'PriceAgreement',
      'Shop',
      'ShopAssistant',
      'Order',
      'ClientOrder',
      'PlacedOrder',
      'Voucher',
      'BillingDocument',
      'B2BGETORDER',
      'B2BGETPRICE',
      'APIPING',
      'GETTOKEN',
      'PutArticleBody',
      'PutArticleAnswer',
    ]) {
      expect(names, name).toContain(name);
    }
    expect(names.length).toBeGreaterThan(150);
  });

  it('refers to a component for every JSON answer and body, and holds no inline object schema', () => {
    for (const { path, method, op } of allOperations()) {
      for (const [status, response] of Object.entries<Doc>(op.responses)) {
        const json = deref(response).content?.['application/json'];
        if (json)
          expect(json.schema.$ref, `${method} ${path} ${status}`).toMatch(/^#\/components\/schemas\//);
      }
      const body = op.requestBody?.content?.['application/json'];
      if (body) expect(body.schema.$ref, `${method} ${path} body`).toMatch(/^#\/components\/schemas\//);
    }
    const inline = [...nodes(doc.paths)]
      .filter(({ node }) => node.type === 'object' || node.properties !== undefined)
      .map(({ pointer }) => pointer);
    expect(inline).toEqual([]);
  });

  it('names each component by its title, and every reference resolves', () => {
    for (const [name, schema] of Object.entries<Doc>(doc.components.schemas)) {
      if (schema.title !== undefined) expect(schema.title, name).toBe(name);
    }
    for (const { node, pointer } of nodes(doc)) {
      if (typeof node.$ref !== 'string') continue;
      expect(deref(node), `${pointer} -> ${node.$ref}`).toBeDefined();
    }
  });
});

describe('statuses and headers', () => {
  const codes = errorCodesOf(AREAS);

  it('declares for every operation what the server can answer', () => {
    for (const op of OPERATIONS) {
      const documented = operationAt(op.name, op.method);
      const has = statuses(documented);
      const expected = ['400', '405', '500', '503'];
      if (op.audience !== 'PUBLIC') expected.push('401', '403');
      if (op.handler && op.body) expected.push('413', '415');
      if (THROTTLED.has(op.name)) expected.push('429');
      if (!op.handler) expected.push('501');
      if (op.binaryTypes?.some((type) => type.startsWith('image/'))) expected.push('304');
      expect(has, op.name).toEqual(expect.arrayContaining(expected));
      if (op.handler) expect(has, op.name).toContain('200');
    }
  });

  it('declares 429 where a throttle answers, and only there', () => {
    expect([...THROTTLED].sort()).toEqual(
      allOperations()
        .filter(({ op }) => statuses(op).includes('429'))
        .map(({ op }) => op.operationId)
        .sort(),
    );
    expect(statuses(doc.paths['/TV2/GetToken'].get)).toEqual(
      expect.arrayContaining(['200', '401', '429', '503']),
    );
  });

  it('declares for every back-office route its statuses, and 413 and 415 where it takes a body', () => {
    for (const route of ADMIN_ROUTES) {
      const documented = adminAt(route.url, route.method);
      const has = statuses(documented);
      const expected = ['400', '401', '403', '404', '405', '409', '500', '503'];
      if (route.body || route.rawBodyTypes) expected.push('413', '415');
      if (route.url.includes(':')) expected.push('414');
      expect(has, `${route.method} ${route.url}`).toEqual(expect.arrayContaining(expected));
      expect(has.some((s) => s.startsWith('2'))).toBe(true);
      if (!route.body && !route.rawBodyTypes) expect(has).not.toContain('415');
    }
  });

  it('refers every error to a component response that lists its codes and headers', () => {
    for (const { path, method, op } of allOperations()) {
      for (const [status, response] of Object.entries<Doc>(op.responses)) {
        if (Number(status) < 300) continue;
        expect(response.$ref, `${method} ${path} ${status}`).toMatch(/^#\/components\/responses\//);
      }
    }
    const byName = doc.components.responses;
    const enumOf = (name: string) =>
      byName[name].content['application/problem+json'].schema.allOf[1].properties.code.enum;
    expect(enumOf('BadRequest')).toEqual(expect.arrayContaining(['VALIDATION_FAILED', 'MALFORMED_JSON']));
    expect(enumOf('NotFound')).toEqual(expect.arrayContaining(['ARTICLE_NOT_FOUND', 'CUSTOMER_NOT_FOUND']));
    expect(enumOf('NotFound')).not.toContain('UNKNOWN_OPERATION');
    expect(enumOf('ServiceUnavailable')).toEqual(['DATABASE_UNAVAILABLE', 'LOGIN_BUSY']);
    expect(enumOf('TooManyRequests').sort()).toEqual(
      codes
        .filter((c) => c.status === 429)
        .map((c) => c.code)
        .sort(),
    );
    for (const [name, response] of Object.entries<Doc>(byName)) {
      expect(Object.keys(response.headers), name).toContain('X-Request-Id');
      for (const code of response.content?.['application/problem+json']?.schema.allOf?.[1].properties.code
        .enum ?? []) {
        expect(response.description, `${name} ${code}`).toContain(`\`${code}\``);
      }
    }
    expect(Object.keys(byName.Unauthorized.headers)).toContain('WWW-Authenticate');
    expect(Object.keys(byName.MethodNotAllowed.headers)).toContain('Allow');
    expect(Object.keys(byName.TooManyRequests.headers)).toContain('Retry-After');
    expect(Object.keys(byName.ServiceUnavailable.headers)).toContain('Retry-After');
    expect(Object.keys(byName.NotModified.headers)).toEqual(expect.arrayContaining(['ETag', 'X-Request-Id']));
    expect(Object.keys(doc.components.headers).sort()).toEqual(
      ['Allow', 'ETag', 'Idempotent-Replayed', 'Retry-After', 'WWW-Authenticate', 'X-Request-Id'].sort(),
    );
  });

  it('declares the headers of the answers: X-Request-Id, ETag on images, Idempotent-Replayed on POSTs', () => {
    for (const op of OPERATIONS.filter((o) => o.handler)) {
      const ok = operationAt(op.name, op.method).responses['200'];
      const headers = Object.keys(ok.headers ?? {});
      expect(headers, op.name).toContain('X-Request-Id');
      const image = op.binaryTypes?.some((type) => type.startsWith('image/')) ?? false;
      expect(headers.includes('ETag'), op.name).toBe(image);
      const replayable = op.method === 'POST' && op.audience !== 'PUBLIC';
      expect(headers.includes('Idempotent-Replayed'), op.name).toBe(replayable);
    }
  });

  it('declares 501 for a planned operation', async () => {
    const later: Area = {
      name: 'later',
      operations: [planned('GET', 'B2B_GetLater', 'Later', 'Not built yet')],
    };
    const app = await buildApp(t.services, { areas: [...AREAS, later] });
    try {
      const planneddoc = await app.openApiDocument();
      // biome-ignore lint/suspicious/noExplicitAny: the document walked by key
      const documented = (planneddoc as any).paths[`/TV2/Execute/${PACKAGE}.B2B_GetLater`].get;
      expect(statuses(documented)).toEqual(expect.arrayContaining(['401', '403', '405', '501', '503']));
      expect(statuses(documented)).not.toContain('200');
    } finally {
      await app.close();
    }
  });
});

describe('binary bodies and answers', () => {
  it('declares each raw upload as bytes of each media type it takes', () => {
    const uploads = ADMIN_ROUTES.filter((r) => r.rawBodyTypes);
    expect(uploads.length).toBeGreaterThan(0);
    for (const route of uploads) {
      const body = adminAt(route.url, route.method).requestBody;
      expect(body?.required, route.url).toBe(true);
      expect(Object.keys(body.content).sort()).toEqual([...(route.rawBodyTypes ?? [])].sort());
      for (const media of Object.values<Doc>(body.content)) {
        expect(media.schema).toEqual({ type: 'string', format: 'binary' });
      }
    }
  });

  it('declares binary answers as bytes', () => {
    for (const op of OPERATIONS.filter((o) => o.binaryTypes)) {
      const content = operationAt(op.name, op.method).responses['200'].content;
      expect(Object.keys(content).sort()).toEqual([...(op.binaryTypes ?? [])].sort());
      for (const media of Object.values<Doc>(content)) expect(media.schema.format).toBe('binary');
    }
  });
});

describe('operationIds', () => {
  it('are unique, and readable camelCase for the back office', () => {
    const ids = allOperations().map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const route of ADMIN_ROUTES) {
      expect(adminAt(route.url, route.method).operationId).toMatch(/^[a-z]+(?:[A-Z][a-z0-9]*)+$/);
    }
    expect(doc.paths['/TV2/Admin/articles/{article}'].put.operationId).toBe('putArticle');
    expect(doc.paths['/TV2/Admin/articles/{article}/images/{imageno}'].put.operationId).toBe(
      'uploadArticleImage',
    );
    expect(doc.paths['/TV2/Admin/orders/{order}/cancel'].post.operationId).toBe('cancelOrder');
  });

  it('carry a description for every path parameter the route describes', () => {
    for (const route of ADMIN_ROUTES) {
      const described = Object.entries<Doc>((route.params as Doc)?.properties ?? {}).filter(
        ([, schema]) => schema.description,
      );
      const parameters: Doc[] = adminAt(route.url, route.method).parameters ?? [];
      for (const [name, schema] of described) {
        const documented = parameters.find((p) => p.in === 'path' && p.name === name);
        expect(documented?.description, `${route.url} ${name}`).toBe(schema.description);
      }
    }
  });
});

describe('the conventions in info.description', () => {
  it('tells a client developer what every operation shares', () => {
    const text: string = doc.info.description;
    for (const term of [
      'GCAPIPACK',
      'strscn',
      'NEXTOFFSET',
      'strlimit',
      'stroffset',
      'strcustomer=0',
      'DELIVERY ADDRESSES',
      'Idempotency-Key',
      'Idempotent-Replayed',
      'IDEMPOTENCY_KEY_REUSED',
      'problem+json',
      'NOT_IMPLEMENTED',
      'Retry-After',
      'TOO_MANY_FAILED_LOGINS',
      'VOUCHER_CHECKS_THROTTLED',
      'X-Request-Id',
    ]) {
      expect(text, term).toContain(term);
    }
  });
});
