import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, MAX_JSON_MEMBERS } from '../src/http/request-guards.ts';
import { ENGINE, startTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * What a request may hold: every number a request carries is bounded by its schema to what its
 * column holds (so PostgreSQL never sees one out of range: a 400 naming the field, not a 500), a
 * JSON body has bounded nesting and object sizes, and a request with very many validation errors
 * gets the first 20 of them and their count.
 */
let t: TestApp;
let admin: string;
let doc: OpenApi;

interface SchemaNode {
  $ref?: string;
  type?: string | string[];
  minimum?: number;
  maximum?: number;
  const?: unknown;
  enum?: unknown[];
  pattern?: string;
  'x-digits-max'?: number;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  additionalProperties?: boolean | SchemaNode;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  allOf?: SchemaNode[];
}
interface Parameter {
  /** A shared parameter (components.parameters) given by reference: the rest is there. */
  $ref?: string;
  name: string;
  in: string;
  schema: SchemaNode;
}
interface OpenApi {
  paths: Record<
    string,
    Record<
      string,
      { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: SchemaNode }> } }
    >
  >;
  components: { schemas: Record<string, SchemaNode>; parameters: Record<string, Parameter> };
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.tokenFor(['ADMIN', 'B2B', 'B2C']);
  doc = (await t.app.inject({ method: 'GET', url: '/TV2/openapi.json' })).json();
});
afterAll(() => t.close());

/** Every schema reachable from `schema`, with where it is. */
function* walk(schema: SchemaNode | undefined, where: string): Generator<[SchemaNode, string]> {
  if (!schema || typeof schema !== 'object') return;
  if (schema.$ref) {
    yield* walk(doc.components.schemas[schema.$ref.split('/').pop() ?? ''], where);
    return;
  }
  yield [schema, where];
  for (const [name, sub] of Object.entries(schema.properties ?? {})) yield* walk(sub, `${where}/${name}`);
  if (schema.items) yield* walk(schema.items, `${where}/[]`);
  if (typeof schema.additionalProperties === 'object') yield* walk(schema.additionalProperties, `${where}/*`);
  for (const list of [schema.anyOf, schema.oneOf, schema.allOf]) {
    for (const sub of list ?? []) yield* walk(sub, where);
  }
}

/** A parameter as listed, or the shared one its $ref names. */
function resolved(listed: Parameter): Parameter {
  if (!listed.$ref) return listed;
  const shared = doc.components.parameters[listed.$ref.split('/').pop() ?? ''];
  if (!shared) throw new Error(`no parameter ${listed.$ref}`);
  return shared;
}

/** Every schema of every request: path and query parameters and JSON bodies. */
function* requestSchemas(): Generator<[SchemaNode, string]> {
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      for (const listed of operation.parameters ?? []) {
        const p = resolved(listed);
        if (p.in === 'path' || p.in === 'query') yield* walk(p.schema, `${method} ${path} ${p.in} ${p.name}`);
      }
      for (const [type, content] of Object.entries(operation.requestBody?.content ?? {})) {
        if (type.includes('json')) yield* walk(content.schema, `${method} ${path} body`);
      }
    }
  }
}

const DIGIT_STRING = /^\^\[0-9\](\+|\{1,[0-9]+\})\$$/;
const MAX_INT32 = 2_147_483_647;

describe('every number of every request has a range', () => {
  it('every integer schema of a request (path, query, body) has a minimum and a maximum', () => {
    const unbounded: string[] = [];
    let integers = 0;
    for (const [schema, where] of requestSchemas()) {
      if (schema.type !== 'integer' || schema.const !== undefined || schema.enum) continue;
      integers++;
      if (schema.minimum === undefined || schema.maximum === undefined) unbounded.push(where);
    }
    expect(integers).toBeGreaterThan(50);
    expect(unbounded).toEqual([]);
  });

  it('every digit string of a request (query values, path keys, numbers sent as text) has x-digits-max', () => {
    const unbounded: string[] = [];
    let digitStrings = 0;
    for (const [schema, where] of requestSchemas()) {
      if (schema.type !== 'string' || !schema.pattern || !DIGIT_STRING.test(schema.pattern)) continue;
      digitStrings++;
      if (schema['x-digits-max'] === undefined) unbounded.push(where);
    }
    expect(digitStrings).toBeGreaterThan(50);
    expect(unbounded).toEqual([]);
  });

  it('a digit string above its maximum is a 400 naming it, in every path key and query value', async () => {
    const misses: string[] = [];
    let checked = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (method === 'head') continue;
        for (const listed of operation.parameters ?? []) {
          // Shared parameters (the Idempotency-Key header) are components, referred to by $ref.
          const p = resolved(listed);
          const max = p.schema['x-digits-max'];
          if ((p.in !== 'path' && p.in !== 'query') || max === undefined) continue;
          const over = String(BigInt(max) + 1n);
          let url = path.replace(/\{([a-z]+)\}/g, (_, key) => (key === p.name ? over : '1'));
          if (p.in === 'query') url += `?${p.name}=${over}`;
          const withBody = method !== 'get' && method !== 'delete';
          const res = await t.app.inject({
            method: method.toUpperCase() as 'GET',
            url,
            headers: {
              authorization: `Bearer ${admin}`,
              ...(withBody ? { 'content-type': 'application/json' } : {}),
            },
            ...(withBody ? { payload: '{}' } : {}),
          });
          checked++;
          const named =
            res.statusCode === 400 && res.json().errors?.some((e: { name: string }) => e.name === p.name);
          if (!named) misses.push(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
    expect(misses).toEqual([]);
  });

  it(`POST /TV2/Admin/customerarticlelinks/delete: a customer number above 32 bits is a 400 (${ENGINE})`, async () => {
    for (const customer of [2 ** 40, MAX_INT32 + 1]) {
      const res = await t.send(admin, 'POST', '/TV2/Admin/customerarticlelinks/delete', {
        ARTICLELINKS: [{ CUSTOMER: customer, ARTICLE: 'A-1' }],
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errors).toEqual([{ name: '/ARTICLELINKS/0/CUSTOMER', message: expect.any(String) }]);
    }
    const largest = await t.send(admin, 'POST', '/TV2/Admin/customerarticlelinks/delete', {
      ARTICLELINKS: [{ CUSTOMER: MAX_INT32, ARTICLE: 'A-1' }],
    });
    // The largest is valid: the link (which does not exist) is deleted, which changes nothing.
    expect(largest.statusCode, largest.body).toBe(200);
    expect(largest.json().code).toBeUndefined();
  });

  it(`a stock movement beyond 32 bits is a 400, not a database error (${ENGINE})`, async () => {
    const res = await t.send(admin, 'POST', '/TV2/Admin/stock/movements', {
      TYPE: 'CORRECTION',
      LOCATION: 'WH',
      ARTICLE: 'A-1',
      SIZEX: 'M',
      DELTA: -(2 ** 33),
      REASON: 'count',
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors).toEqual([{ name: '/DELTA', message: expect.any(String) }]);
  });
});

describe('the shape of a JSON body', () => {
  const post = (payload: string) =>
    t.app.inject({
      method: 'PUT',
      url: '/TV2/Admin/prices',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      payload,
    });

  it(`nesting deeper than ${MAX_JSON_DEPTH} levels is 400 BODY_TOO_COMPLEX, before parsing`, async () => {
    const deep = `{"PRICES":${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}}`;
    const res = await post(deep);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'BODY_TOO_COMPLEX', errors: [{ name: '/' }] });
    // One level less is parsed (and then refused by the schema, as a list of lists is no price).
    const fits = await post(`{"PRICES":${'['.repeat(MAX_JSON_DEPTH - 1)}${']'.repeat(MAX_JSON_DEPTH - 1)}}`);
    expect(fits.json().code).toBe('VALIDATION_FAILED');
  });

  it(`an object of more than ${MAX_JSON_MEMBERS} members is 400 BODY_TOO_COMPLEX; quotes and colons in strings do not count`, async () => {
    const members = (n: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`K${i}`, 'a:"b\\\\']));
    const res = await post(JSON.stringify({ PRICES: [members(MAX_JSON_MEMBERS + 1)] }));
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('BODY_TOO_COMPLEX');
    const fits = await post(JSON.stringify({ PRICES: [members(MAX_JSON_MEMBERS)] }));
    expect(fits.statusCode).toBe(400);
    expect(fits.json().code).toBe('VALIDATION_FAILED');
  });
});

describe('many validation errors', () => {
  it('lists the first 20 and counts them all, in a small answer', async () => {
    // 10,000 empty prices: six required fields missing in each.
    const res = await t.send(admin, 'PUT', '/TV2/Admin/prices', {
      PRICES: Array.from({ length: 10_000 }, () => ({})),
    });
    expect(res.statusCode).toBe(400);
    const problem = res.json();
    expect(problem.code).toBe('VALIDATION_FAILED');
    expect(problem.errors).toHaveLength(20);
    expect(problem.errors[0]).toEqual({ name: '/PRICES/0/ARTICLE', message: 'is required' });
    expect(problem.errorCount).toBe(60_000);
    expect(problem.detail).toMatch(/and 59980 more$/);
    expect(res.body.length).toBeLessThan(5_000);
  });

  it('counts an error reported twice for one field (a union) once', async () => {
    const res = await t.send(admin, 'PUT', '/TV2/Admin/prices', {
      PRICES: [
        { ARTICLE: 'A', PRICETYPE: 'SELLING', PRICEGROUP: true, CURRENCY: 'EUR', SIZEX: 'M', PRICE: 1 },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.filter((e: { name: string }) => e.name === '/PRICES/0/PRICEGROUP')).toHaveLength(
      1,
    );
  });
});
