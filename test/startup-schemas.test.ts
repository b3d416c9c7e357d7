import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AREAS, OPERATIONS } from '../src/areas.ts';
import { compileAllSchemas, schemaCompilations } from '../src/http/schema-compilers.ts';
import { buildApp } from '../src/http/server.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * A start compiles no schema, however many package aliases serve the operations: each operation is
 * one route that every alias reaches, a schema shared by routes is compiled once, and only when a
 * request first needs it (src/http/schema-compilers.ts, src/http/package-aliases.ts). Counted, not
 * timed.
 */

const ALIASES = ['APIPACK', 'GCAPIPACK', 'OLDPACK'];
const ping = OPERATIONS.find((op) => op.name === 'APIPing')!;

let t: TestApp;
let single: TestApp;
beforeAll(async () => {
  [t, single] = await Promise.all([
    startTestApp({ packageAliases: ALIASES }),
    startTestApp({ packageAliases: ['APIPACK'] }),
  ]);
});
afterAll(async () => {
  await Promise.all([t?.close(), single?.close()]);
});

describe('schema compilation at start', () => {
  it('asks the compilers for no more schemas with three package aliases than with one', () => {
    const three = schemaCompilations(t.app)!;
    const one = schemaCompilations(single.app)!;
    expect(one.requested).toBeGreaterThan(OPERATIONS.length);
    expect(three.requested).toBe(one.requested);
    expect(three.distinct).toBe(one.distinct);
  });

  it('compiles nothing before the first request', () => {
    expect(schemaCompilations(single.app)!.compiled).toBe(0);
  });

  it('compiles an operation’s schemas once, on its first request under any alias', async () => {
    const before = schemaCompilations(t.app)!.compiled;
    for (const alias of ALIASES) {
      const res = await t.call('GET', `/TV2/Execute/${alias}.APIPing`);
      expect(res.statusCode, alias).toBe(200);
      expect(res.json().APIPING.STATUS).toBe('OK');
    }
    const { compiled, compiledSchemas } = schemaCompilations(t.app)!;
    expect(compiled - before).toBe(2);
    expect(compiledSchemas.filter((c) => c.schema === ping.query).map((c) => c.kind)).toEqual(['validator']);
    expect(compiledSchemas.filter((c) => c.schema === ping.response).map((c) => c.kind)).toEqual([
      'serializer',
    ]);
  });

  it('compiles a schema that many routes share once: every schema of every route compiles', () => {
    const stats = schemaCompilations(single.app)!;
    // the problem answers every route declares, the operations' shared parameter schemas
    expect(stats.distinct).toBeLessThan(stats.requested / 2);
    compileAllSchemas(single.app);
    expect(stats.compiled).toBe(stats.distinct);
    expect(compileAllSchemas(single.app)).toBe(0);
  });
});

describe('package aliases', () => {
  it('validate and answer as the documented package, naming the path as sent', async () => {
    for (const alias of ALIASES) {
      const res = await t.call('GET', `/TV2/Execute/${alias}.APIPing`, { query: { strnothing: '1' } });
      expect(res.statusCode, alias).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      const problem = res.json();
      expect(problem.code).toBe('VALIDATION_FAILED');
      expect(problem.errors).toEqual([
        { name: 'strnothing', message: 'is not a parameter of this operation' },
      ]);
      expect(problem.instance).toBe(`/TV2/Execute/${alias}.APIPing`);
    }
    const unknown = await t.call('GET', '/TV2/Execute/GCAPIPACK.B2B_GetNothing');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().detail).toMatch(/^No operation at \/TV2\/Execute\/GCAPIPACK\.B2B_GetNothing;/);
    const wrongMethod = await t.call('POST', '/TV2/Execute/OLDPACK.APIPing', { body: {} });
    expect(wrongMethod.statusCode).toBe(405);
    expect(wrongMethod.headers.allow).toBe('GET, HEAD');
    expect(wrongMethod.json().instance).toBe('/TV2/Execute/OLDPACK.APIPing');
    // a package that is not an alias names no operation
    expect((await t.call('GET', '/TV2/Execute/NOPACK.APIPing')).statusCode).toBe(404);
  });

  it('are logged as the client sent them', async () => {
    const lines: Array<{ msg?: string; req?: { url?: string } }> = [];
    const app = await buildApp(t.services, {
      areas: AREAS,
      logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line)) } },
    });
    try {
      expect(
        (await app.inject({ method: 'GET', url: '/TV2/Execute/GCAPIPACK.APIPing?x=1' })).statusCode,
      ).toBe(400);
      const incoming = lines.filter((l) => l.msg === 'incoming request').map((l) => l.req?.url);
      expect(incoming).toEqual(['/TV2/Execute/GCAPIPACK.APIPing?x=1']);
    } finally {
      await app.close();
    }
  });
});
