import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ROUTES } from '../src/admin/routes.ts';
import { OPERATIONS } from '../src/operations/catalogue.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * Bad input gets a clear 4xx, never a 500: every built operation is called with random query
 * parameters (its own names, with hostile values) and, for POSTs, random bodies.
 */
let t: TestApp;
let token: string;

// A fixed seed keeps CI repeatable; set FC_SEED to explore other inputs.
fc.configureGlobal({ seed: Number(process.env.FC_SEED ?? 20261122) });

beforeAll(async () => {
  t = await startTestApp();
  token = await t.tokenFor(['B2B', 'B2C', 'ADMIN']);
});
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
    'ÄÖÜ€',
    '1.5',
  ),
  fc.string({ maxLength: 20 }),
  fc.nat().map(String),
);

function paramNames(schema: unknown): string[] {
  const props = (schema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  return Object.keys(props);
}

const built = OPERATIONS.filter((op) => op.handler && op.audience !== 'PUBLIC');

describe('no input reaches a 500', () => {
  it.each(
    built.filter((op) => op.method === 'GET').map((op) => [op.name, op] as const),
  )('%s answers random parameters with a 2xx/3xx/4xx', async (_name, op) => {
    const names = paramNames(op.query);
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom(...names, 'strbogus'), hostile, { maxKeys: 4 }),
        async (query) => {
          const res = await t.call('GET', op.name, { token, query });
          expect(res.statusCode, `${op.name} ${JSON.stringify(query)} -> ${res.body}`).toBeLessThan(500);
        },
      ),
      { numRuns: 25 },
    );
  });

  it.each(
    built.filter((op) => op.method === 'POST').map((op) => [op.name, op] as const),
  )('%s answers random bodies with a 4xx', async (_name, op) => {
    const root = paramNames(op.body)[0] ?? 'DATA';
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
    await fc.assert(
      fc.asyncProperty(body, async (payload) => {
        const res = await t.call('POST', op.name, { token, body: payload as object });
        expect(res.statusCode, `${op.name} ${JSON.stringify(payload)} -> ${res.body}`).toBeLessThan(500);
      }),
      { numRuns: 25 },
    );
  });

  it.each(
    ADMIN_ROUTES.filter((r) => r.method !== 'GET' && !r.rawBodyTypes).map(
      (r) => [`${r.method} ${r.url}`, r] as const,
    ),
  )('%s answers random keys and bodies with a 4xx', async (_name, route) => {
    const fields = paramNames(route.body);
    const body = fc.oneof(
      fc.jsonValue(),
      fc.record(
        Object.fromEntries(
          fields.map((k) => [k, fc.oneof(hostile, fc.integer(), fc.constant(null), fc.double())]),
        ),
        { requiredKeys: [] },
      ),
    );
    const segment = fc.oneof(
      hostile.filter((v) => v !== '' && !v.includes('/') && !v.includes('?') && !v.includes('#')),
      fc.constant('1'),
    );
    await fc.assert(
      fc.asyncProperty(segment, body, async (key, payload) => {
        const url = route.url.replace(/:[a-z]+/g, encodeURIComponent(key));
        const res = await t.app.inject({
          method: route.method,
          url,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          payload: JSON.stringify(payload),
        });
        expect(
          res.statusCode,
          `${route.method} ${url} ${JSON.stringify(payload)} -> ${res.body}`,
        ).toBeLessThan(500);
      }),
      { numRuns: 20 },
    );
  });
});
