import { Ajv } from 'ajv';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoIfEmpty } from '../src/app.ts';
import { ADMIN_ROUTES, OPERATIONS } from '../src/areas.ts';
import { digitsMaxKeyword } from '../src/http/digits-keyword.ts';
import { assertProperty } from './helpers/seed.ts';
import { ENGINE, startTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * Bad input gets a clear 4xx, never a 500: every built operation and admin route of the demo world
 * (articles, prices, customers, clients, shops and stock loaded, so valid random keys find records)
 * is called with random query parameters (its own names, with hostile values, U+0000 among them),
 * random path keys and random bodies. A request its schema refuses (checked here by an Ajv of the
 * server's options) or that holds U+0000 is a 400 VALIDATION_FAILED naming a field; one it accepts
 * is answered 2xx, or a 4xx problem with a code (a record not found, a rule refused): never a 500.
 * U+0000 anywhere (query, path, body at any depth, credentials) is a 400 naming where it is, on both
 * engines (PostgreSQL cannot store it in text).
 *
 * The inputs come from fast-check with the seed of test/helpers/seed.ts: a failure prints the seed,
 * the counterexample's path and the command that replays it (TV2_TEST_SEED=... TV2_TEST_PATH=...).
 */
let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await startTestApp();
  expect(await loadDemoIfEmpty(t.services)).toBe(true);
  token = await t.tokenFor(['B2B', 'B2C', 'ADMIN']);
}, 120_000);
afterAll(() => t.close());

const hostile = fc.oneof(
  fc.constantFrom(
    '0',
    '1',
    '-1',
    '99999999999',
    '9'.repeat(40),
    '1e3',
    '0x10',
    ' 1',
    '',
    'NaN',
    '2026-02-30',
    "'; drop table article; --",
    '%00',
    '\u0000',
    'a\u0000b',
    'ÄÖÜ€',
    '1.5',
  ),
  fc.string({ maxLength: 20 }),
  fc.string({ maxLength: 20, unit: 'binary' }),
  fc.nat().map(String),
);

function paramNames(schema: unknown): string[] {
  const props = (schema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  return Object.keys(props);
}

const built = OPERATIONS.filter((op) => op.handler && op.audience !== 'PUBLIC');

/** The server's validation (src/http/server.ts: Fastify's Ajv options and the x-digits-max keyword). */
const ajv = digitsMaxKeyword(
  new Ajv({ removeAdditional: false, coerceTypes: false, allErrors: true, useDefaults: true, strict: false }),
);
const acceptsOf = (schema: unknown) => {
  if (!schema) return (_value: unknown) => true; // a route without a body schema ignores its body
  const validate = ajv.compile(schema as object);
  return (value: unknown) => validate(structuredClone(value));
};
const holdsNul = (value: unknown) => JSON.stringify(value ?? null).includes('\\u0000');

/** A body with a `__proto__` key, or `constructor.prototype`, which the JSON parser refuses. */
function poisoned(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(
    ([key, inner]) =>
      key === '__proto__' ||
      (key === 'constructor' && typeof inner === 'object' && inner !== null && 'prototype' in inner) ||
      poisoned(inner),
  );
}

/**
 * A malformed request is a 400: VALIDATION_FAILED naming at least one field (or MALFORMED_JSON for
 * a body the JSON parser refuses, `__proto__` keys); a well-formed one is a 2xx or a 4xx problem
 * with a code; nothing is a 5xx.
 */
function expectAnswerFor(res: LightMyRequestResponse, malformed: boolean, what: string, body?: unknown) {
  const said = `${what} -> ${res.statusCode} ${res.body.slice(0, 500)}`;
  expect(res.statusCode, said).toBeLessThan(500);
  if (poisoned(body)) {
    expect(res.statusCode, said).toBe(400);
    expect(res.json().code, said).toBe('MALFORMED_JSON');
    return;
  }
  if (malformed) {
    expect(res.statusCode, said).toBe(400);
    const problem = res.json();
    expect(problem.code, said).toBe('VALIDATION_FAILED');
    expect(problem.errors?.length, said).toBeGreaterThan(0);
    return;
  }
  expect([2, 4], said).toContain(Math.floor(res.statusCode / 100));
  if (res.statusCode >= 400) {
    expect(res.headers['content-type'], said).toMatch(/^application\/problem\+json/);
    expect(res.json().code, said).toMatch(/^[A-Z_]+$/);
  }
}

/** How many answers of each kind a property saw: both kinds must occur, or it proves only one. */
function tally() {
  const seen = { malformed: 0, wellFormed: 0 };
  return {
    seen,
    count: (malformed: boolean) => (malformed ? seen.malformed++ : seen.wellFormed++),
  };
}

describe(`no input reaches a 500; malformed input is a 400 (demo data, ${ENGINE})`, () => {
  it.each(
    built.filter((op) => op.method === 'GET').map((op) => [op.name, op] as const),
  )('%s answers random parameters with a 400 when malformed, else a 2xx or a 4xx problem', async (_name, op) => {
    const names = paramNames(op.query);
    const accepts = acceptsOf(op.query ?? { type: 'object', additionalProperties: false });
    const { seen, count } = tally();
    await assertProperty(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom(...names, 'strbogus'), hostile, { maxKeys: 4 }),
        async (query) => {
          const malformed = !accepts(query) || holdsNul(query);
          count(malformed);
          const res = await t.call('GET', op.name, { token, query });
          expectAnswerFor(res, malformed, `${op.name} ${JSON.stringify(query)}`);
        },
      ),
      25,
    );
    expect(seen.malformed).toBeGreaterThan(0);
    if (!op.query || names.length === 0) return;
    // A well-formed query of each: the first page, or the first record of the demo world.
    const res = await t.call('GET', op.name, { token, query: {} });
    expectAnswerFor(res, !accepts({}), `${op.name} {}`);
  });

  it.each(
    built.filter((op) => op.method === 'POST').map((op) => [op.name, op] as const),
  )('%s answers random bodies with a 400 when malformed, else a 2xx or a 4xx problem', async (_name, op) => {
    const root = paramNames(op.body)[0] ?? 'DATA';
    const accepts = acceptsOf(op.body);
    const body = fc.oneof(
      fc.jsonValue(),
      fc.record({ [root]: fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue(), { maxKeys: 6 }) }),
      fc.record({
        [root]: fc.record(
          Object.fromEntries(
            paramNames((op.body as { properties?: Record<string, unknown> })?.properties?.[root]).map((k) => [
              k,
              fc.oneof(hostile, fc.integer(), fc.constant(null), fc.double()),
            ]),
          ),
          { requiredKeys: [] },
        ),
      }),
    );
    const { seen, count } = tally();
    await assertProperty(
      fc.asyncProperty(body, async (payload) => {
        const malformed = !accepts(payload) || holdsNul(payload);
        count(malformed);
        const res = await t.app.inject({
          method: 'POST',
          url: `/TV2/Execute/APIPACK.${op.name}`,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          payload: JSON.stringify(payload),
        });
        expectAnswerFor(res, malformed, `${op.name} ${JSON.stringify(payload)}`, payload);
      }),
      25,
    );
    expect(seen.malformed).toBeGreaterThan(0);
  });

  it.each(
    ADMIN_ROUTES.filter((r) => r.method !== 'GET' && !r.rawBodyTypes).map(
      (r) => [`${r.method} ${r.url}`, r] as const,
    ),
  )('%s answers random keys and bodies with a 400 when malformed, else a 2xx or a 4xx problem', async (_name, route) => {
    const fields = paramNames(route.body);
    const acceptsBody = acceptsOf(route.body);
    const acceptsParams = acceptsOf(route.params ?? { type: 'object' });
    const keys = (route.url.match(/:[a-z]+/gi) ?? []).map((k) => k.slice(1));
    const body = fc.oneof(
      fc.jsonValue(),
      fc.record(
        Object.fromEntries(
          fields.map((k) => [k, fc.oneof(hostile, fc.integer(), fc.constant(null), fc.double())]),
        ),
        { requiredKeys: [] },
      ),
    );
    // A key a client can send as one path segment: not empty, no / ? #, and not . or .. (every
    // client removes those dot segments from a URL before it is sent: RFC 3986, 5.2.4).
    const segment = fc.oneof(
      hostile.filter(
        (v) =>
          v !== '' && v !== '.' && v !== '..' && !v.includes('/') && !v.includes('?') && !v.includes('#'),
      ),
      fc.constant('1'),
    );
    const { seen, count } = tally();
    await assertProperty(
      fc.asyncProperty(segment, body, async (key, payload) => {
        const params = Object.fromEntries(keys.map((k) => [k, key]));
        const malformed =
          !acceptsParams(params) || holdsNul(params) || !acceptsBody(payload) || holdsNul(payload);
        count(malformed);
        const url = route.url.replace(/:[a-z]+/gi, encodeURIComponent(key));
        const res = await t.app.inject({
          method: route.method,
          url,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          payload: JSON.stringify(payload),
        });
        expectAnswerFor(res, malformed, `${route.method} ${url} ${JSON.stringify(payload)}`, payload);
      }),
      20,
    );
    // A route with a body schema gets malformed bodies; one without, malformed keys now and then.
    if (route.body) expect(seen.malformed).toBeGreaterThan(0);
    expect(seen.malformed + seen.wellFormed).toBe(20);
  });
});

const NUL = 'a\u0000b';

function expectNulRefused(res: { statusCode: number; body: string }, name: string, what: string) {
  expect(res.statusCode, `${what} -> ${res.body}`).toBe(400);
  const problem = JSON.parse(res.body);
  expect(problem.code).toBe('VALIDATION_FAILED');
  expect(problem.errors, what).toContainEqual({ name, message: 'must not contain the character U+0000' });
}

describe(`U+0000 is a 400 naming the field, before any handler or database call (${ENGINE})`, () => {
  it.each(
    built.filter((op) => op.method === 'GET').map((op) => [op.name, op] as const),
  )('%s: in a query parameter', async (_name, op) => {
    const name = paramNames(op.query)[0] ?? 'strbogus';
    expectNulRefused(await t.call('GET', op.name, { token, query: { [name]: NUL } }), name, op.name);
  });

  it.each(
    built.filter((op) => op.method === 'POST').map((op) => [op.name, op] as const),
  )('%s: in a body string at any depth, and in a key', async (_name, op) => {
    const root = paramNames(op.body)[0] ?? 'DATA';
    const deep = { [root]: { A: 'ok', LIST: [1, { INNER: ['x', NUL] }] } };
    expectNulRefused(
      await t.call('POST', op.name, { token, body: deep }),
      `/${root}/LIST/1/INNER/1`,
      op.name,
    );
    const key = { [root]: { 'K~/\u0000': 1 } };
    expectNulRefused(await t.call('POST', op.name, { token, body: key }), `/${root}/K~0~1\u0000`, op.name);
  });

  it.each(
    ADMIN_ROUTES.map((r) => [`${r.method} ${r.url}`, r] as const),
  )('%s: in a path key and in the body', async (_name, route) => {
    const keys = route.url.match(/:[a-z]+/g) ?? [];
    const send = (url: string, payload: unknown) =>
      t.app.inject({
        method: route.method,
        url,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
    for (const key of keys) {
      const url = route.url.replace(/:[a-z]+/g, (k) => (k === key ? encodeURIComponent(NUL) : '1'));
      expectNulRefused(await send(url, {}), key.slice(1), url);
    }
    if (route.body) {
      const url = route.url.replace(/:[a-z]+/g, '1');
      expectNulRefused(await send(url, { NAME: 'x', NOTE: [{ TEXT: NUL }] }), '/NOTE/0/TEXT', url);
    }
  });

  it('GetToken: in a query parameter and in the Basic credentials', async () => {
    const query = await t.app.inject({ method: 'GET', url: `/TV2/GetToken?strx=${encodeURIComponent(NUL)}` });
    expectNulRefused(query, 'strx', 'GetToken query');
    const credentials = await t.app.inject({
      method: 'GET',
      url: '/TV2/GetToken',
      headers: { authorization: `Basic ${Buffer.from(`user${NUL}:secret`).toString('base64')}` },
    });
    expectNulRefused(credentials, 'authorization', 'GetToken credentials');
  });
});
