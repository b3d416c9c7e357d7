/**
 * The typed client's token handling, against a fake server (a fetch function): a token is fetched
 * once and reused, renewed shortly before the EXPIRES the server gave, renewed once when the server
 * refuses it (and the call sent again, body included), shared by concurrent calls, and a refused
 * GetToken is an error rather than a loop. test/client-e2e.test.ts does the same against tv2.
 */
import { describe, expect, it } from 'vitest';
import { createTv2Client, TokenError, Tv2Error } from '../client/index.ts';

interface FakeServer {
  fetch(request: Request): Promise<Response>;
  /** Tokens handed out, and the calls seen (path and the token they carried, and the body). */
  issued: string[];
  calls: Array<{ path: string; token: string | undefined; body: string }>;
  /** Tokens the server refuses from now on. */
  refused: Set<string>;
  logins: 'ok' | 'refuse';
}

function fakeServer(lifetimeSeconds = 3600): FakeServer {
  const server: FakeServer = {
    issued: [],
    calls: [],
    refused: new Set(),
    logins: 'ok',
    async fetch(request) {
      const url = new URL(request.url);
      if (url.pathname === '/TV2/GetToken') {
        expect(request.headers.get('authorization')).toBe(`Basic ${btoa('app:s3cret')}`);
        if (server.logins === 'refuse') return problem(401, 'INVALID_CREDENTIALS');
        const token = `token-${server.issued.length + 1}`;
        server.issued.push(token);
        return json({
          GETTOKEN: { TOKEN: token, TOKEN_TYPE: 'Bearer', EXPIRES_IN: lifetimeSeconds, EXPIRES: '' },
        });
      }
      const token = request.headers.get('authorization')?.replace(/^Bearer /, '');
      server.calls.push({ path: url.pathname, token, body: await request.text() });
      if (!token || server.refused.has(token)) return problem(401, 'TOKEN_REVOKED');
      return json({ APIPING: { PONG: true } });
    },
  };
  return server;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const problem = (status: number, code: string) =>
  new Response(JSON.stringify({ status, code, title: code, detail: code, type: 'about:blank' }), {
    status,
    headers: { 'content-type': 'application/problem+json' },
  });

const clientOf = (server: FakeServer, now: () => number = Date.now) =>
  createTv2Client({ baseUrl: 'http://tv2.test/', user: 'app', secret: 's3cret', fetch: server.fetch, now });

describe('the typed client token', () => {
  it('is fetched once and reused while valid', async () => {
    const server = fakeServer();
    const tv2 = clientOf(server);
    await tv2.get('APIPing');
    await tv2.get('APIPing');
    expect(server.issued).toEqual(['token-1']);
    expect(server.calls.map((c) => c.token)).toEqual(['token-1', 'token-1']);
    expect(server.calls[0]?.path).toBe('/TV2/Execute/APIPACK.APIPing');
  });

  it('is renewed before it expires (30 s early, or a tenth of a short lifetime)', async () => {
    const server = fakeServer(3600);
    let clock = 1_000_000;
    const tv2 = clientOf(server, () => clock);
    await tv2.get('APIPing');
    clock += 3600_000 - 31_000;
    await tv2.get('APIPing');
    clock += 2_000; // within 30 s of EXPIRES
    await tv2.get('APIPing');
    expect(server.calls.map((c) => c.token)).toEqual(['token-1', 'token-1', 'token-2']);
  });

  it('is renewed once when the server refuses it, and the call is sent again with its body', async () => {
    const server = fakeServer();
    const tv2 = clientOf(server);
    await tv2.get('APIPing');
    server.refused.add('token-1');
    const body = { CLOSEORDERDATA: { CLIENT: 100001, ORDERNO: 7 } };
    await tv2.post('B2C_CloseClientOrder', body as never, { idempotencyKey: 'k1' });
    expect(server.calls.slice(1).map((c) => [c.token, c.body])).toEqual([
      ['token-1', JSON.stringify(body)],
      ['token-2', JSON.stringify(body)],
    ]);
  });

  it('is renewed once for many calls refused at the same time', async () => {
    const server = fakeServer();
    const tv2 = clientOf(server);
    await tv2.get('APIPing');
    server.refused.add('token-1');
    await Promise.all(Array.from({ length: 5 }, () => tv2.get('APIPing')));
    expect(server.issued).toEqual(['token-1', 'token-2']);
  });

  it('does not loop: a call refused with a fresh token too is a Tv2Error; a refused login a TokenError', async () => {
    const server = fakeServer();
    const tv2 = clientOf(server);
    await tv2.get('APIPing');
    server.refused.add('token-1');
    server.refused.add('token-2');
    const error = await tv2.get('APIPing').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Tv2Error);
    expect((error as Tv2Error).status).toBe(401);
    expect((error as Tv2Error).problem?.code).toBe('TOKEN_REVOKED');
    expect(server.issued).toHaveLength(2);

    server.logins = 'refuse';
    const login = await clientOf(server)
      .get('APIPing')
      .catch((e: unknown) => e);
    expect(login).toBeInstanceOf(TokenError);
    expect((login as TokenError).status).toBe(401);
  });
});
