import { connect } from 'node:net';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { article, sizeTable } from './helpers/fixtures.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * Every answer the server makes is problem+json with a request id when it is an error, also the
 * ones Fastify or Node make before any route runs (an over-long path key, a malformed path, a
 * malformed HTTP request); a client's X-Request-Id is kept only when it is short and plain; every
 * answer, images above all, carries X-Content-Type-Options: nosniff.
 */
let t: TestApp;
let admin: string;
let reader: string;
let port: number;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.tokenFor(['ADMIN']);
  reader = await t.tokenFor(['B2B', 'B2C']);
  await t.services.catalog.saveSizeTable(sizeTable('CONF', ['S', 'M']));
  await t.services.catalog.saveArticle(article('IMG-001'));
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});
afterAll(() => t.close());

/** The problem body and headers every error answer must have. */
function expectProblem(
  res: { statusCode: number; headers: Record<string, unknown>; body: string },
  status: number,
  code: string,
) {
  expect(res.statusCode, res.body).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^application\/problem\+json/);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  const body = JSON.parse(res.body);
  expect(body).toMatchObject({ status, code, requestId: expect.any(String), type: expect.any(String) });
  expect(res.headers['x-request-id']).toBe(body.requestId);
  return body;
}

/** Writes raw bytes to the listening server and reads what comes back until it closes. */
function rawExchange(
  bytes: string,
  to = port,
): Promise<{ statusCode: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(to, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ statusCode: Number(statusLine.split(' ')[1]), headers, body });
    });
    socket.write(bytes);
  });
}

describe("Fastify's and Node's own failures are problem+json with a request id", () => {
  it('a path key over 100 characters is 414 PATH_SEGMENT_TOO_LONG', async () => {
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/TV2/Admin/articles/${'A'.repeat(101)}`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expectProblem(res, 414, 'PATH_SEGMENT_TOO_LONG');
  });

  it('a path that is not valid percent-encoding is 400 MALFORMED_URL', async () => {
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/TV2/Admin/articles/%E0%A4%A',
      headers: { authorization: `Bearer ${admin}` },
    });
    expectProblem(res, 400, 'MALFORMED_URL');
  });

  it('a malformed HTTP request is 400 MALFORMED_REQUEST on the raw connection', async () => {
    const res = await rawExchange(
      'GET /TV2/Execute/APIPACK.APIPing HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
    );
    expectProblem(res, 400, 'MALFORMED_REQUEST');
    expect(res.headers['x-request-id']).toMatch(UUID);
  });

  it('headers over the size limit are 431 HEADERS_TOO_LARGE on the raw connection', async () => {
    const res = await rawExchange(
      `GET /TV2/Execute/APIPACK.APIPing HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expectProblem(res, 431, 'HEADERS_TOO_LARGE');
  });

  it('a request that does not arrive in time is 408 REQUEST_TIMEOUT on the raw connection', async () => {
    const slow = await startTestApp({ requestTimeoutSeconds: 1 });
    try {
      await slow.app.listen({ host: '127.0.0.1', port: 0 });
      const address = slow.app.server.address();
      const slowPort = typeof address === 'object' && address ? address.port : 0;
      // Headers promise a body of 100 bytes; 10 arrive, the rest never does.
      const token = await slow.tokenFor(['ADMIN']);
      const res = await rawExchange(
        `PUT /TV2/Admin/sizetables/X HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"SIZETAB',
        slowPort,
      );
      expectProblem(res, 408, 'REQUEST_TIMEOUT');
    } finally {
      await slow.close();
    }
  });

  it('an unsupported content type is 415, an unknown path 404, a wrong method 405', async () => {
    const text = await t.call('POST', 'B2C_PostClient', {
      token: reader,
      body: 'CLIENTDATA',
      headers: { 'content-type': 'text/plain' },
    });
    expectProblem(text, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectProblem(await t.app.inject({ method: 'GET', url: '/nowhere' }), 404, 'NOT_FOUND');
    expectProblem(await t.call('GET', 'B2C_PostClient', { token: reader }), 405, 'METHOD_NOT_ALLOWED');
  });

  it('HEAD answers carry the problem headers without a body', async () => {
    const anonymous = await t.app.inject({ method: 'HEAD', url: '/TV2/Execute/APIPACK.B2B_GetArticle' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(anonymous.headers['x-request-id']).toMatch(UUID);
    expect(anonymous.body).toBe('');
    const post = await t.app.inject({ method: 'HEAD', url: '/TV2/Execute/APIPACK.B2C_PostClient' });
    expect(post.statusCode).toBe(405);
    expect(post.headers['content-type']).toMatch(/^application\/problem\+json/);
    const unknown = await t.app.inject({ method: 'HEAD', url: '/TV2/Execute/APIPACK.Nothing' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/^application\/problem\+json/);
  });
});

describe('request ids', () => {
  const ping = (id: string) =>
    t.app.inject({ method: 'GET', url: '/nowhere', headers: { 'x-request-id': id } });

  it('keeps a client id of 1 to 64 plain characters, in the header and the problem', async () => {
    for (const id of ['a', 'trace-4f2.9:x_Y', 'x'.repeat(64)]) {
      const res = await ping(id);
      expect(res.headers['x-request-id']).toBe(id);
      expect(res.json().requestId).toBe(id);
    }
  });

  it('replaces a long or unusual id with a UUID of its own', async () => {
    for (const id of ['x'.repeat(65), 'has space', 'quote"d', 'ünïcode', '<script>', 'a/b', '']) {
      const res = await ping(id);
      expect(res.headers['x-request-id'], id).toMatch(UUID);
      expect(res.json().requestId).toBe(res.headers['x-request-id']);
    }
  });
});

describe('X-Content-Type-Options: nosniff', () => {
  it('is on images, JSON answers and problems', async () => {
    const image = new PNG({ width: 2, height: 2 });
    image.data.fill(90);
    const put = await t.app.inject({
      method: 'PUT',
      url: '/TV2/Admin/articles/IMG-001/images/1',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'image/png' },
      payload: PNG.sync.write(image),
    });
    expect(put.statusCode, put.body).toBe(200);
    const served = await t.call('GET', 'B2C_GetArticleImage', {
      token: reader,
      query: { strarticle: 'IMG-001' },
    });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    const json = await t.call('GET', 'APIPing');
    expect(json.statusCode).toBe(200);
    expect(json.headers['x-content-type-options']).toBe('nosniff');
    const problem = await t.call('GET', 'B2C_GetArticleImage', { query: { strarticle: 'IMG-001' } });
    expect(problem.statusCode).toBe(401);
    expect(problem.headers['x-content-type-options']).toBe('nosniff');
  });
});
