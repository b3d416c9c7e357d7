import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Running, startApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { ENGINE, freshDatabaseUrl } from './helpers/test-app.ts';

/** A client that sends its request body slowly is cut off (TV2_REQUEST_TIMEOUT_SECONDS). */

let running: Running;
let drop: () => Promise<void>;
let port: number;
let token: string;

beforeAll(async () => {
  const fresh = await freshDatabaseUrl();
  drop = fresh.drop;
  running = await startApp(
    loadConfig(
      { TV2_REQUEST_TIMEOUT_SECONDS: '1' },
      { databaseUrl: fresh.url, demo: false, logLevel: 'silent' },
    ),
    { logger: false },
  );
  const { secret } = await running.services.general.auth.createUser({ name: 'slow', roles: ['ADMIN'] });
  const res = await running.app.inject({
    method: 'GET',
    url: '/TV2/GetToken',
    headers: { authorization: `Basic ${Buffer.from(`slow:${secret}`).toString('base64')}` },
  });
  token = res.json().GETTOKEN.TOKEN;
  await running.app.listen({ host: '127.0.0.1', port: 0 });
  const address = running.app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});
afterAll(async () => {
  await running.close();
  await drop();
});

const BODY = JSON.stringify({ SIZETABLE: 'SLOW', SIZES: ['S', 'M', 'L'] }).padEnd(250, ' ');

/**
 * Sends the headers, then the body one byte every `everyMs` (0: all at once); resolves with what the server answered
 * and how many body bytes had been sent when the connection closed.
 */
function trickle(everyMs: number): Promise<{ answer: string; bytesSent: number }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let bytesSent = 0;
    let timer: NodeJS.Timeout | undefined;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ answer, bytesSent });
    });
    socket.on('connect', () => {
      socket.write(
        `PUT /TV2/Admin/sizetables/SLOW HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n`,
      );
      if (everyMs === 0) {
        socket.write(BODY);
        bytesSent = BODY.length;
        return;
      }
      timer = setInterval(() => {
        if (bytesSent < BODY.length && !socket.destroyed) socket.write(BODY[bytesSent++] ?? '');
      }, everyMs);
    });
  });
}

describe(`request timeout (${ENGINE})`, () => {
  it('answers a body that arrives too slowly with 408 and closes the connection before it is complete', async () => {
    // at one byte per 100 ms the body would take 25 s (less than Node's default 30 s between
    // timeout checks); the limit is 1 s
    const { answer, bytesSent } = await trickle(100);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(bytesSent).toBeLessThan(BODY.length);
  });

  it('lets the same request through when its body arrives at once', async () => {
    const { answer, bytesSent } = await trickle(0);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(bytesSent).toBe(BODY.length);
  });
});
