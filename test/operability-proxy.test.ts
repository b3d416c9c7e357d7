import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { type Running, startApp } from '../src/app.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import { ENGINE, freshDatabaseUrl } from './helpers/test-app.ts';

/** Behind a reverse proxy: TV2_TRUST_PROXY makes the real client address count (logs, login limit). */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const PROXY = '10.0.0.5';

async function start(
  env: Record<string, string>,
): Promise<{ running: Running; log: Array<Record<string, unknown>> }> {
  const fresh = await freshDatabaseUrl();
  const log: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) log.push(JSON.parse(line));
      done();
    },
  });
  const running = await startApp(
    loadConfig(
      { TV2_LOGIN_MAX_FAILURES: '2', TV2_LOGIN_MAX_FAILURES_PER_USER: '100', ...env },
      { databaseUrl: fresh.url, demo: false, logLevel: 'info' },
    ),
    { logger: { level: 'info', stream } },
  );
  cleanups.push(async () => {
    await running.close();
    await fresh.drop();
  });
  return { running, log };
}

/** A failed login by `client` arriving through the proxy (or straight from `peer`). */
const failedLogin = (running: Running, client: string, peer = PROXY) =>
  running.app.inject({
    method: 'GET',
    url: '/TV2/GetToken',
    remoteAddress: peer,
    headers: {
      'x-forwarded-for': client,
      authorization: `Basic ${Buffer.from(`nobody-${client}:wrong`).toString('base64')}`,
    },
  });

function loggedAddresses(log: Array<Record<string, unknown>>): string[] {
  return log
    .filter((l) => l.msg === 'incoming request')
    .map((l) => String((l.req as { remoteAddress?: string }).remoteAddress));
}

describe(`trusted proxies (${ENGINE})`, () => {
  it('off by default: X-Forwarded-For is ignored, the proxy is the client in the log and the login limit', async () => {
    const { running, log } = await start({});
    expect((await failedLogin(running, '203.0.113.7')).statusCode).toBe(401);
    expect((await failedLogin(running, '203.0.113.7')).statusCode).toBe(401);
    // another client behind the same proxy shares its count
    expect((await failedLogin(running, '198.51.100.9')).statusCode).toBe(429);
    expect(new Set(loggedAddresses(log))).toEqual(new Set([PROXY]));
  });

  it('on for the listed proxies: the forwarded client address is logged and limited on its own', async () => {
    const { running, log } = await start({ TV2_TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' });
    expect((await failedLogin(running, '203.0.113.7')).statusCode).toBe(401);
    expect((await failedLogin(running, '203.0.113.7')).statusCode).toBe(401);
    expect((await failedLogin(running, '203.0.113.7')).statusCode).toBe(429);
    expect((await failedLogin(running, '198.51.100.9')).statusCode).toBe(401);
    expect(loggedAddresses(log)).toEqual(['203.0.113.7', '203.0.113.7', '203.0.113.7', '198.51.100.9']);

    // a peer that is not a listed proxy cannot choose its address with the header
    log.length = 0;
    expect((await failedLogin(running, '198.51.100.9', '192.0.2.44')).statusCode).toBe(401);
    expect(loggedAddresses(log)).toEqual(['192.0.2.44']);
  });

  it('refuses a value it cannot use', () => {
    expect(() => loadConfig({ TV2_TRUST_PROXY: 'my-proxy' })).toThrow(ConfigError);
    expect(() => loadConfig({ TV2_TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TV2_TRUST_PROXY/);
    expect(() => loadConfig({ TV2_TRUST_PROXY: '2' })).toThrow(/TV2_TRUST_PROXY/);
    expect(loadConfig({ TV2_TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TV2_TRUST_PROXY: 'true' }).trustProxy).toBe(true);
  });
});
