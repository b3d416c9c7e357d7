import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AREAS, OPERATIONS } from '../src/areas.ts';
import { buildApp } from '../src/http/server.ts';
import type { Area } from '../src/kernel/area.ts';
import { planned, rootOf } from '../src/kernel/operation.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
let both: string;
let wholesale: string;
let retail: string;

beforeAll(async () => {
  t = await startTestApp();
  [both, wholesale, retail] = await Promise.all([
    t.tokenFor(['B2B', 'B2C']),
    t.tokenFor(['B2B']),
    t.tokenFor(['B2C']),
  ]);
});
afterAll(() => t.close());

function expectProblem(
  res: { statusCode: number; headers: Record<string, unknown>; json(): unknown },
  status: number,
  code: string,
) {
  expect(res.statusCode).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = res.json() as Record<string, unknown>;
  expect(body).toMatchObject({
    status,
    code,
    title: expect.any(String),
    detail: expect.any(String),
    type: expect.any(String),
  });
  expect(body.requestId).toBe(res.headers['x-request-id']);
  return body;
}

const asSchema = (schema: unknown) => ({
  required: ((schema as { required?: string[] } | undefined)?.required ?? []) as string[],
});
/** Built operations whose query needs one of several keys (checked by the operation, not by `required`). */
const NEEDS_ONE_OF_KEYS: Record<string, string> = {
  B2B_GetArticle: 'strarticle',
  B2C_GetArticle: 'strarticle',
  B2B_GetCustomer: 'strcustomer',
  B2B_GetCustomerArticleLink: 'strcustomer',
  B2C_GetClient: 'strclient',
  B2C_GetClient_Purchase: 'strclient',
  B2C_GetClientActions: 'strclient',
  B2C_GetClientMemberCardInfo: 'strclient',
  B2C_GetClient_OnAccountDetail: 'strclient',
  B2C_GetClient_OpenOnAccount: 'strclient',
  B2C_GetMemberCardPhotoBase64: 'strclient',
  B2C_GetProfilePhotoBase64: 'strclient',
  B2C_GetUserMessages: 'strclient',
  B2B_GetOrderHistory: 'strcustomer',
  B2B_GetUnsettledItems: 'strcustomer',
  B2C_GetOrderState: 'strclient',
  B2C_GetALLOpenCreditNotes: 'strclient',
  B2C_GetOpenClientCheque: 'strclient',
};
/** Answer roots that are not the operation's name in upper case (the wire contract's own). */
const ROOTS: Record<string, string> = { B2B_GetAllPrices: 'B2BGETPRICE' };

describe('the catalogue', () => {
  it('routes all 75 operations of the listing (74 under /TV2/Execute plus GetToken), each once', async () => {
    const names = OPERATIONS.map((o) => o.name);
    expect(names.length).toBe(74);
    expect(new Set(names).size).toBe(74);
    // Each one is called, with its method and no parameters: none is 404 UNKNOWN_OPERATION, each
    // answers what it is: planned ones 501, built ones 400 naming the parameter they need, or 200.
    const answers: Record<string, string> = {};
    const expected: Record<string, string> = {};
    for (const op of OPERATIONS) {
      const res =
        op.method === 'GET'
          ? await t.call('GET', op.name, { token: both })
          : await t.call('POST', op.name, { token: both, body: {} });
      const body = res.json();
      const named = (body.errors ?? []).map((e: { name: string }) => e.name).join(',');
      answers[op.name] = `${res.statusCode} ${body.code ?? Object.keys(body).join(',')} ${named}`.trim();
      const required = [...asSchema(op.query).required, ...asSchema(op.body).required];
      const needsKey = NEEDS_ONE_OF_KEYS[op.name];
      expected[op.name] = !op.handler
        ? '501 NOT_IMPLEMENTED'
        : required.length > 0
          ? `400 VALIDATION_FAILED ${required.map((n) => (op.body ? `/${n}` : n)).join(',')}`
          : needsKey
            ? `400 VALIDATION_FAILED ${needsKey}`
            : `200 ${ROOTS[op.name] ?? rootOf(op.name)}`;
    }
    expect(answers).toEqual(expected);
    // Every operation is built now: each answers 400 naming what it needs, or 200.
    const kinds = new Set(Object.values(answers).map((a) => a.split(' ').slice(0, 2).join(' ')));
    expect([...kinds].filter((k) => !k.startsWith('200 ')).sort()).toEqual(['400 VALIDATION_FAILED']);
    expect(Object.values(answers).filter((a) => a.startsWith('200 ')).length).toBeGreaterThan(0);
    // The 75th: GetToken answers credentials with a token, and their absence with 401 (not 404).
    const { secret } = await t.services.general.auth.createUser({ name: 'routing-check', roles: ['B2B'] });
    const token = await t.app.inject({
      method: 'GET',
      url: '/TV2/GetToken',
      headers: { authorization: `Basic ${Buffer.from(`routing-check:${secret}`).toString('base64')}` },
    });
    expect(token.statusCode, token.body).toBe(200);
    expect(token.json().GETTOKEN.TOKEN).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    expectProblem(await t.app.inject({ method: 'GET', url: '/TV2/GetToken' }), 401, 'CREDENTIALS_MISSING');
  });

  it('answers an operation whose area is not built with 501 NOT_IMPLEMENTED (every area is built now: one made up)', async () => {
    const later: Area = {
      name: 'later',
      operations: [planned('GET', 'B2B_GetLater', 'Later', 'Not built yet')],
    };
    const app = await buildApp(t.services, { areas: [...AREAS, later] });
    try {
      const res = await app.inject({
        method: 'GET',
        url: '/TV2/Execute/APIPACK.B2B_GetLater',
        headers: { authorization: `Bearer ${both}` },
      });
      expectProblem(res, 501, 'NOT_IMPLEMENTED');
      const doc = (await app.inject({ method: 'GET', url: '/TV2/openapi.json' })).json();
      const documented = doc.paths['/TV2/Execute/APIPACK.B2B_GetLater'].get;
      expect(documented['x-tv2-status']).toBe('planned');
      expect(Object.keys(documented.responses)).toContain('501');
    } finally {
      await app.close();
    }
  });

  it('answers an unknown operation with 404 and a wrong method with 405 and Allow', async () => {
    expectProblem(await t.call('GET', 'B2B_GetNothing', { token: both }), 404, 'UNKNOWN_OPERATION');
    const wrong = await t.call('POST', 'B2B_GetArticle', { token: both, body: {} });
    expectProblem(wrong, 405, 'METHOD_NOT_ALLOWED');
    expect(wrong.headers.allow).toBe('GET, HEAD');
    const wrongPost = await t.call('GET', 'B2C_PostClient', { token: both });
    expectProblem(wrongPost, 405, 'METHOD_NOT_ALLOWED');
    expect(wrongPost.headers.allow).toBe('POST');
  });

  it('answers a back-office path asked with a method it does not take with 405 and Allow, an unknown one with 404', async () => {
    const wrong = await t.app.inject({ method: 'DELETE', url: '/TV2/Admin/vouchers/ABC123' });
    expectProblem(wrong, 405, 'METHOD_NOT_ALLOWED');
    expect(wrong.headers.allow).toBe('GET, HEAD');
    const post = await t.app.inject({ method: 'PATCH', url: '/TV2/Admin/tenders/expire' });
    expectProblem(post, 405, 'METHOD_NOT_ALLOWED');
    expect(post.headers.allow).toBe('POST');
    expectProblem(await t.app.inject({ method: 'GET', url: '/TV2/Admin/nothing-here' }), 404, 'NOT_FOUND');
  });

  it('is case sensitive in operation names', async () => {
    expectProblem(await t.call('GET', 'b2b_getarticle', { token: both }), 404, 'UNKNOWN_OPERATION');
  });

  it('accepts the GCAPIPACK package alias', async () => {
    const res = await t.call('GET', '/TV2/Execute/GCAPIPACK.APIPing');
    expect(res.statusCode).toBe(200);
  });
});

describe('authentication', () => {
  it('issues an opaque token for HTTP Basic credentials', async () => {
    const { secret } = await t.services.general.auth.createUser({ name: 'shop-app', roles: ['B2C'] });
    const res = await t.app.inject({
      method: 'GET',
      url: '/TV2/GetToken',
      headers: { authorization: `Basic ${Buffer.from(`shop-app:${secret}`).toString('base64')}` },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json().GETTOKEN;
    expect(body.TOKEN_TYPE).toBe('Bearer');
    expect(body.EXPIRES_IN).toBe(3600);
    expect(Buffer.from(body.TOKEN, 'base64url').length).toBeGreaterThanOrEqual(32);
    expect(Date.parse(body.EXPIRES) - Date.now()).toBeGreaterThan(3500_000);
    expect(res.headers['cache-control']).toBe('no-store');
    // the token is stored hashed: the plain token appears nowhere in the database
    const rows = await t.database.db.selectFrom('api_token').select('token_hash').execute();
    expect(rows.map((r) => r.token_hash)).not.toContain(body.TOKEN);
  });

  it('refuses wrong credentials with 401 and WWW-Authenticate', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/TV2/GetToken',
      headers: { authorization: `Basic ${Buffer.from('nobody:wrong').toString('base64')}` },
    });
    expectProblem(res, 401, 'INVALID_CREDENTIALS');
    expect(res.headers['www-authenticate']).toMatch(/^Basic/);
    expectProblem(await t.app.inject({ method: 'GET', url: '/TV2/GetToken' }), 401, 'CREDENTIALS_MISSING');
  });

  it('answers 401 without a token, with an unknown one and with a revoked one', async () => {
    const none = await t.call('GET', 'B2B_GetAllArticles');
    expectProblem(none, 401, 'TOKEN_MISSING');
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    expectProblem(await t.call('GET', 'B2B_GetAllArticles', { token: 'x'.repeat(43) }), 401, 'TOKEN_INVALID');

    const { secret } = await t.services.general.auth.createUser({ name: 'leaver', roles: ['B2B'] });
    const got = await t.app.inject({
      method: 'GET',
      url: '/TV2/GetToken',
      headers: { authorization: `Basic ${Buffer.from(`leaver:${secret}`).toString('base64')}` },
    });
    const token = got.json().GETTOKEN.TOKEN;
    expect((await t.call('GET', 'B2B_GetAllArticles', { token })).statusCode).toBe(200);
    await t.services.general.auth.revokeUser('leaver');
    expectProblem(await t.call('GET', 'B2B_GetAllArticles', { token }), 401, 'TOKEN_REVOKED');
  });

  it('answers 401 for an expired token', async () => {
    const short = await startTestApp({ tokenTtlSeconds: 1 });
    try {
      const token = await short.tokenFor(['B2B']);
      expect((await short.call('GET', 'B2B_GetAllArticles', { token })).statusCode).toBe(200);
      await new Promise((r) => setTimeout(r, 1100));
      expectProblem(await short.call('GET', 'B2B_GetAllArticles', { token }), 401, 'TOKEN_EXPIRED');
    } finally {
      await short.close();
    }
  });

  it('answers 403 for a token outside the operation audience', async () => {
    expectProblem(await t.call('GET', 'B2B_GetAllArticles', { token: retail }), 403, 'ROLE_REQUIRED');
    expectProblem(await t.call('GET', 'B2C_GetAllArticles', { token: wholesale }), 403, 'ROLE_REQUIRED');
    expect((await t.call('GET', 'GetSizeTables', { token: retail })).statusCode).toBe(200);
    expect((await t.call('GET', 'GetSizeTables', { token: wholesale })).statusCode).toBe(200);
  });

  it('checks the token before the parameters', async () => {
    expectProblem(
      await t.call('GET', 'B2B_GetAllArticles', { query: { strlimit: 'x' } }),
      401,
      'TOKEN_MISSING',
    );
  });

  it('rate-limits failed GetToken attempts per client address with 429 and Retry-After', async () => {
    const limited = await startTestApp({ loginMaxFailures: 3, loginWindowSeconds: 120 });
    try {
      const { secret } = await limited.services.general.auth.createUser({ name: 'victim', roles: ['B2B'] });
      const attempt = (s: string, ip = '10.9.9.9') =>
        limited.app.inject({
          method: 'GET',
          url: '/TV2/GetToken',
          remoteAddress: ip,
          headers: { authorization: `Basic ${Buffer.from(`victim:${s}`).toString('base64')}` },
        });
      for (let i = 0; i < 3; i++) expect((await attempt('guess')).statusCode).toBe(401);
      const blocked = await attempt(secret);
      expectProblem(blocked, 429, 'TOO_MANY_FAILED_LOGINS');
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(100);
      // another address is not affected
      expect((await attempt(secret, '10.9.9.10')).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('APIPing', () => {
  it('answers without a token and says whether a sent token is valid', async () => {
    const anonymous = await t.call('GET', 'APIPing');
    expect(anonymous.statusCode).toBe(200);
    const body = anonymous.json().APIPING;
    expect(body).toMatchObject({ STATUS: 'OK', VERSION: expect.any(String), TOKENVALID: null });
    expect(Math.abs(Date.parse(body.SERVERTIME) - Date.now())).toBeLessThan(5000);
    expect((await t.call('GET', 'APIPing', { token: both })).json().APIPING.TOKENVALID).toBe(true);
    expect((await t.call('GET', 'APIPing', { token: 'nope' })).json().APIPING.TOKENVALID).toBe(false);
  });
});

describe('the error model', () => {
  it('names a malformed numeric parameter', async () => {
    const res = await t.call('GET', 'B2B_GetAllArticles', { token: both, query: { strlimit: '12x' } });
    const body = expectProblem(res, 400, 'VALIDATION_FAILED');
    expect(body.errors).toEqual([{ name: 'strlimit', message: expect.stringMatching(/digits/) }]);
  });

  it('names an unknown query parameter', async () => {
    const res = await t.call('GET', 'B2B_GetAllArticles', { token: both, query: { strcolour: 'red' } });
    const body = expectProblem(res, 400, 'VALIDATION_FAILED');
    expect(body.errors).toEqual([{ name: 'strcolour', message: 'is not a parameter of this operation' }]);
  });

  it('names an out-of-range page size', async () => {
    const res = await t.call('GET', 'B2B_GetAllArticles', { token: both, query: { strlimit: '100000' } });
    expect(expectProblem(res, 400, 'VALIDATION_FAILED').errors).toEqual([
      { name: 'strlimit', message: 'must be at most 1000' },
    ]);
  });

  it('refuses malformed JSON, a wrong content type and an over-large body', async () => {
    const small = await startTestApp({ bodyLimitBytes: 1024 });
    try {
      const token = await small.tokenFor(['B2C']);
      const auth = { authorization: `Bearer ${token}` };
      const url = '/TV2/Execute/APIPACK.B2C_PostClient';
      const malformed = await small.app.inject({
        method: 'POST',
        url,
        headers: { ...auth, 'content-type': 'application/json' },
        payload: '{"CLIENT": ',
      });
      expectProblem(malformed, 400, 'MALFORMED_JSON');
      const wrongType = await small.app.inject({
        method: 'POST',
        url,
        headers: { ...auth, 'content-type': 'text/plain' },
        payload: 'hello',
      });
      expectProblem(wrongType, 415, 'UNSUPPORTED_MEDIA_TYPE');
      const large = await small.app.inject({
        method: 'POST',
        url,
        headers: { ...auth, 'content-type': 'application/json' },
        payload: JSON.stringify({ x: 'y'.repeat(5000) }),
      });
      expectProblem(large, 413, 'BODY_TOO_LARGE');
    } finally {
      await small.close();
    }
  });

  it('gives every response a request id, and echoes a client-sent one', async () => {
    const res = await t.call('GET', 'APIPing');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await t.call('GET', 'APIPing', { headers: { 'x-request-id': 'client-trace-1' } });
    expect(echoed.headers['x-request-id']).toBe('client-trace-1');
  });

  it('answers a real fault with 500, a request id and no internals', async () => {
    const broken = await startTestApp();
    try {
      const token = await broken.tokenFor(['B2C']);
      await broken.database.db.schema.dropTable('article_image').execute();
      // The rest of the database still works: only what reads the dropped table fails.
      await broken.services.catalog.saveSizeTable({ code: 'X', description: {}, sizes: ['M'] });
      expect((await broken.call('GET', 'GetSizeTables', { token })).json().GETSIZETABLES.SIZETABLES).toEqual([
        expect.objectContaining({ SIZETABLE: 'X' }),
      ]);
      const res = await broken.call('GET', 'B2C_GetAllArticlesImages', { token });
      const body = expectProblem(res, 500, 'INTERNAL_ERROR');
      expect(JSON.stringify(body)).not.toMatch(/article_image|sqlite|SELECT|stack/i);
    } finally {
      await broken.close();
    }
  });
});

describe('the OpenAPI document', () => {
  it('describes every operation with its security and error responses', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/TV2/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    const ops = Object.entries(
      doc.paths as Record<
        string,
        Record<string, { operationId: string; responses: object; security?: unknown }>
      >,
    );
    const ids = ops.flatMap(([, methods]) => Object.values(methods).map((m) => m.operationId));
    expect(ids).toContain('GetToken');
    for (const op of OPERATIONS) expect(ids).toContain(op.name);
    // Back-office ids are camelCase (putArticle); the TV2 operations' start with a capital.
    expect(ids.filter((id) => /^[A-Z]/.test(id)).length).toBe(75);
    const getArticle = doc.paths['/TV2/Execute/APIPACK.B2B_GetArticle'].get;
    expect(getArticle.security).toEqual([{ bearer: [] }]);
    expect(Object.keys(getArticle.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '404']),
    );
    expect(getArticle.parameters.map((p: { name: string }) => p.name)).toEqual(['strarticle', 'strbarcode']);
    for (const op of OPERATIONS.filter((o) => o.handler)) {
      const documented = doc.paths[`/TV2/Execute/APIPACK.${op.name}`][op.method.toLowerCase()];
      expect(Object.keys(documented.responses), op.name).toContain('200');
    }
    const built = doc.paths['/TV2/Execute/APIPACK.B2B_GetInvoiceHistory'].get;
    expect(built['x-tv2-status']).toBe('built');
  });

  it('serves the interactive reference page', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/TV2/docs' });
    const res =
      first.statusCode === 301
        ? await t.app.inject({ method: 'GET', url: String(first.headers.location) })
        : first;
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toMatch(/openapi\.json/);
    // served whole from this server: a self-hosted install may have no way out to the web
    expect(res.body).not.toMatch(/(src|href)="https?:/);
  });
});
