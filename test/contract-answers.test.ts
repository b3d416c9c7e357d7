import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoIfEmpty } from '../src/app.ts';
import { runDemoScenario } from './helpers/demo-scenario.ts';
import type { Doc } from './helpers/openapi-ajv.ts';
import { answerChecker } from './helpers/openapi-answers.ts';
import { ENGINE, startTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * Every answer validates against the response schema the served OpenAPI document declares for its
 * operation and status (issue 14): the demo scenario (test/helpers/demo-scenario.ts: a read of
 * every operation, writes through every admin route, a wholesale and a web order through their
 * states, an invoice, vouchers) and a set of refusals (400, 401, 403, 404, 405, 409, 413, 415, 429, and
 * a 304 and an idempotent replay) on the demo world. The status itself must be declared for the
 * operation, and a body's media type too; JSON and problem bodies are validated with Ajv 2020
 * against the document's own schemas (problem answers against Problem with the status's codes),
 * closed (closedDocument: an answer holds no property its schema does not declare, so a generated
 * client knows every field it gets). The headers the document describes (X-Request-Id, ETag,
 * Idempotent-Replayed, Allow, Retry-After, WWW-Authenticate) are declared on the response that sends
 * them, and fit their schemas.
 */
let t: TestApp;
let token: string;
let doc: Doc;
let mismatches: ReturnType<typeof answerChecker>['mismatches'];
let validated: () => number;

beforeAll(async () => {
  t = await startTestApp();
  expect(await loadDemoIfEmpty(t.services)).toBe(true);
  token = await t.tokenFor(['B2B', 'B2C', 'ADMIN']);
  doc = await t.app.openApiDocument();
  ({ mismatches, validated } = answerChecker(doc));
}, 120_000);
afterAll(() => t.close());

const OP = '/TV2/Execute/APIPACK.';

describe(`every answer validates against its declared response schema (demo data, ${ENGINE})`, () => {
  it('the demo scenario: reads of every operation, writes of every admin route', async () => {
    const failures: string[] = [];
    const routes = new Set<string>();
    await runDemoScenario(t.app, token, (call, res) => {
      routes.add(call.route);
      failures.push(...mismatches(call.route, res));
      if (res.statusCode >= 300)
        failures.push(`${call.route} -> ${res.statusCode}: the scenario expects a 2xx`);
    });
    expect(failures).toEqual([]);
    expect(routes.size).toBeGreaterThan(135);
    expect(validated()).toBeGreaterThan(120);
    // Not vacuous: an answer with a property its schema does not declare is refused.
    const ping = await t.call('GET', 'APIPing');
    const text = JSON.stringify({ ...ping.json(), UNDECLARED: 1 });
    const forged = {
      ...ping,
      statusCode: 200,
      headers: ping.headers,
      rawPayload: Buffer.from(text),
      body: text,
      json: () => JSON.parse(text),
    };
    expect(mismatches(`GET ${OP}APIPing`, forged as LightMyRequestResponse)).not.toEqual([]);
    // ... and so is one with a header its response does not declare.
    const allowed = { ...ping, headers: { ...ping.headers, allow: 'GET' } };
    expect(mismatches(`GET ${OP}APIPing`, ping)).toEqual([]);
    expect(mismatches(`GET ${OP}APIPing`, allowed as LightMyRequestResponse)).not.toEqual([]);
  });

  it('every read as a party: a token confined to one customer, and one confined to one client', async () => {
    const parties = [
      await t.tokenFor(['B2B'], { customerNo: 10_001 }),
      await t.tokenFor(['B2C'], { clientNo: 100_001 }),
    ];
    const reads = Object.entries<Doc>(doc.paths)
      .filter(([path, item]) => path.startsWith(OP) && item.get)
      .map(([path]) => path);
    expect(reads.length).toBeGreaterThan(50);
    const failures: string[] = [];
    const statuses = new Set<number>();
    for (const party of parties) {
      for (const path of reads) {
        // Without parameters: a confined token's own records (a feed from SCN 0 where one is needed).
        const needsScn = (doc.paths[path].get.parameters ?? []).some(
          (p: Doc) => p.name === 'strscn' && p.required,
        );
        const res = await t.app.inject({
          method: 'GET',
          url: `${path}${needsScn ? '?strscn=0' : ''}`,
          headers: { authorization: `Bearer ${party}` },
        });
        statuses.add(res.statusCode);
        failures.push(...mismatches(`GET ${path}`, res));
      }
    }
    expect(failures).toEqual([]);
    // Both kinds of answer were seen: the party's own records, and refusals (the other audience's reads).
    expect(statuses.has(200)).toBe(true);
    expect(statuses.has(403)).toBe(true);
  });

  it('refusals: 400, 401, 403, 404, 405, 409, 413, 415, 429; a 304 and an idempotent replay', async () => {
    const b2cOnly = await t.tokenFor(['B2C']);
    const confined = await t.tokenFor(['B2C'], { clientNo: 100_001 });
    const auth = (tk: string) => ({ authorization: `Bearer ${tk}` });
    const json = { 'content-type': 'application/json' };
    const image = await t.call('GET', 'B2C_GetArticleImage', { token, query: { strarticle: 'M10002-410' } });
    expect(image.statusCode).toBe(200);
    const big = JSON.stringify({
      PRICES: Array.from({ length: 20_000 }, () => ({
        ARTICLE: 'M10002-410',
        PRICETYPE: 'SELLING',
        PRICEGROUP: 1,
        CURRENCY: 'EUR',
        SIZEX: 'XS',
        PRICE: 1,
      })),
    });
    const article = await t.call('GET', 'B2B_GetArticle', { token, query: { strarticle: 'M10002-410' } });
    const barcode = article.json().B2BGETARTICLE.ARTICLES[0].SIZES[0].BARCODE as string;
    const webOrder = {
      WEBORDERDATA: {
        CLIENT: 100_001,
        WEBORDER: 'WEB-REPLAY-1',
        ORDERLINES: [{ BARCODE: barcode, QUANTITY: 1 }],
      },
    };
    const cases: { route: string; status: number; request: InjectOptions }[] = [
      {
        route: `GET ${OP}B2B_GetAllArticles`,
        status: 400,
        request: { method: 'GET', url: `${OP}B2B_GetAllArticles?strlimit=many`, headers: auth(token) },
      },
      {
        route: 'PUT /TV2/Admin/articles/{article}',
        status: 400,
        request: {
          method: 'PUT',
          url: '/TV2/Admin/articles/X1',
          headers: { ...auth(token), ...json },
          payload: '{"ARTICLE":"X1"}',
        },
      },
      {
        route: `POST ${OP}B2C_PostClient`,
        status: 400,
        request: {
          method: 'POST',
          url: `${OP}B2C_PostClient`,
          headers: { ...auth(token), ...json },
          payload: '{"CLIENTDATA":',
        },
      },
      {
        route: `GET ${OP}B2B_GetArticle`,
        status: 401,
        request: { method: 'GET', url: `${OP}B2B_GetArticle?strarticle=M10002-410` },
      },
      {
        route: 'GET /TV2/GetToken',
        status: 401,
        request: {
          method: 'GET',
          url: '/TV2/GetToken',
          headers: { authorization: `Basic ${Buffer.from('demo:wrong').toString('base64')}` },
        },
      },
      {
        route: 'GET /TV2/Admin/tenderliability',
        status: 401,
        request: { method: 'GET', url: '/TV2/Admin/tenderliability', headers: auth('not-a-token') },
      },
      {
        route: `GET ${OP}B2B_GetAllArticles`,
        status: 403,
        request: { method: 'GET', url: `${OP}B2B_GetAllArticles`, headers: auth(b2cOnly) },
      },
      {
        route: `GET ${OP}B2C_GetClient`,
        status: 403,
        request: { method: 'GET', url: `${OP}B2C_GetClient?strclient=100002`, headers: auth(confined) },
      },
      {
        route: 'GET /TV2/Admin/tenderliability',
        status: 403,
        request: { method: 'GET', url: '/TV2/Admin/tenderliability', headers: auth(b2cOnly) },
      },
      {
        route: `GET ${OP}B2B_GetArticle`,
        status: 404,
        request: { method: 'GET', url: `${OP}B2B_GetArticle?strarticle=NOPE-000`, headers: auth(token) },
      },
      {
        route: `GET ${OP}B2C_GetArticleImage`,
        status: 404,
        request: {
          method: 'GET',
          url: `${OP}B2C_GetArticleImage?strarticle=M10002-410&strimageno=99`,
          headers: auth(token),
        },
      },
      {
        route: 'DELETE /TV2/Admin/articles/{article}',
        status: 404,
        request: { method: 'DELETE', url: '/TV2/Admin/articles/NOPE-000', headers: auth(token) },
      },
      {
        route: 'GET /TV2/Admin/billing/documents/{number}',
        status: 404,
        request: {
          method: 'GET',
          url: '/TV2/Admin/billing/documents/INV-2026-9999999',
          headers: auth(token),
        },
      },
      {
        route: `GET ${OP}B2B_GetArticle`,
        status: 405,
        request: { method: 'POST', url: `${OP}B2B_GetArticle`, headers: auth(token) },
      },
      {
        route: 'POST /TV2/Admin/stock/movements',
        status: 405,
        request: { method: 'GET', url: '/TV2/Admin/stock/movements', headers: auth(token) },
      },
      {
        route: 'DELETE /TV2/Admin/articles/{article}',
        status: 409,
        request: { method: 'DELETE', url: '/TV2/Admin/articles/M10002-410', headers: auth(token) },
      },
      {
        route: 'PUT /TV2/Admin/prices',
        status: 413,
        request: {
          method: 'PUT',
          url: '/TV2/Admin/prices',
          headers: { ...auth(token), ...json },
          payload: big,
        },
      },
      {
        route: `POST ${OP}B2C_PostWebOrder`,
        status: 413,
        request: {
          method: 'POST',
          url: `${OP}B2C_PostWebOrder`,
          headers: { ...auth(token), ...json },
          payload: big,
        },
      },
      {
        route: `POST ${OP}B2C_PostClient`,
        status: 415,
        request: {
          method: 'POST',
          url: `${OP}B2C_PostClient`,
          headers: { ...auth(token), 'content-type': 'text/plain' },
          payload: 'CLIENTDATA',
        },
      },
      {
        route: 'PUT /TV2/Admin/regexes/{name}',
        status: 415,
        request: {
          method: 'PUT',
          url: '/TV2/Admin/regexes/EMAIL',
          headers: { ...auth(token), 'content-type': 'application/xml' },
          payload: '<NAME/>',
        },
      },
      {
        route: `GET ${OP}B2C_GetArticleImage`,
        status: 304,
        request: {
          method: 'GET',
          url: `${OP}B2C_GetArticleImage?strarticle=M10002-410`,
          headers: { ...auth(token), 'if-none-match': String(image.headers.etag) },
        },
      },
    ];
    const failures: string[] = [];
    for (const c of cases) {
      const res = await t.app.inject(c.request);
      if (res.statusCode !== c.status)
        failures.push(`${c.route}: expected ${c.status}, got ${res.statusCode} ${res.body.slice(0, 200)}`);
      failures.push(...mismatches(c.route, res));
    }
    // Wrong secrets from one address until GetToken refuses it: 401s, then a 429 with Retry-After.
    let last: LightMyRequestResponse | undefined;
    for (let i = 0; i < 12 && last?.statusCode !== 429; i++) {
      last = await t.app.inject({
        method: 'GET',
        url: '/TV2/GetToken',
        remoteAddress: '203.0.113.9',
        headers: { authorization: `Basic ${Buffer.from('nobody:wrong').toString('base64')}` },
      });
      failures.push(...mismatches('GET /TV2/GetToken', last));
    }
    if (last?.statusCode !== 429) failures.push(`GetToken: expected a 429 at last, got ${last?.statusCode}`);
    // The same web order twice with one Idempotency-Key: the second answer is the first, replayed.
    for (let i = 0; i < 2; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: `${OP}B2C_PostWebOrder`,
        headers: { ...auth(token), ...json, 'idempotency-key': 'contract-replay-1' },
        payload: JSON.stringify(webOrder),
      });
      failures.push(...mismatches(`POST ${OP}B2C_PostWebOrder`, res));
      if (i === 1 && res.headers['idempotent-replayed'] !== 'true')
        failures.push('the second web order was not replayed');
    }
    expect(failures).toEqual([]);
  });
});
