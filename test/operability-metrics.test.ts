import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Running, startApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { currentScn } from '../src/kernel/db/unit-of-work.ts';
import { article, sizeTable } from './helpers/fixtures.ts';
import { ENGINE, freshDatabaseUrl } from './helpers/test-app.ts';

/** Prometheus metrics at /metrics, behind TV2_METRICS_TOKEN. */

const METRICS_TOKEN = 'metrics-secret-for-tests';
let running: Running;
let drop: () => Promise<void>;
let token: string;
let name: string;

const basic = (user: string, secret: string) =>
  `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;

beforeAll(async () => {
  const fresh = await freshDatabaseUrl();
  drop = fresh.drop;
  running = await startApp(
    loadConfig(
      { TV2_METRICS_TOKEN: METRICS_TOKEN, TV2_DB_POOL_SIZE: '7' },
      { databaseUrl: fresh.url, demo: false, logLevel: 'silent' },
    ),
    { logger: false },
  );
  name = `m_${randomBytes(3).toString('hex')}`;
  const { secret } = await running.services.general.auth.createUser({ name, roles: ['B2B'] });
  const res = await running.app.inject({
    method: 'GET',
    url: '/TV2/GetToken',
    headers: { authorization: basic(name, secret) },
  });
  token = res.json().GETTOKEN.TOKEN;
  await running.services.catalog.saveSizeTable(sizeTable('CONF', ['S', 'M']));
  await running.services.catalog.saveArticle(article('M1-1'));
});
afterAll(async () => {
  await running.close();
  await drop();
});

const scrape = async () => {
  const res = await running.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.body;
};

/** The value of one sample, e.g. `tv2_scn` or `tv2_x{a="b"}`; undefined when absent. */
function sample(text: string, metric: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== metric) continue;
    const have = Object.fromEntries([...(m[3] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[4]);
  }
  return undefined;
}

const getArticle = (pkg: string, articleNo: string) =>
  running.app.inject({
    method: 'GET',
    url: `/TV2/Execute/${pkg}.B2B_GetArticle`,
    query: { strarticle: articleNo },
    headers: { authorization: `Bearer ${token}` },
  });

describe(`metrics (${ENGINE})`, () => {
  it('are only served with the metrics token', async () => {
    const none = await running.app.inject({ method: 'GET', url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.json().code).toBe('TOKEN_MISSING');
    const wrong = await running.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer guess' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('TOKEN_INVALID');
    // an API token is not the metrics token
    const api = await running.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(api.statusCode).toBe(401);
  });

  it('count requests and their latency per operation (never per raw URL), method and status', async () => {
    const before = await scrape();
    const labels200 = { operation: 'B2B_GetArticle', method: 'GET', status: '200' };
    const labels404 = { operation: 'B2B_GetArticle', method: 'GET', status: '404' };
    const count = (text: string, labels: Record<string, string>) =>
      sample(text, 'tv2_http_request_duration_seconds_count', labels) ?? 0;

    expect((await getArticle('APIPACK', 'M1-1')).statusCode).toBe(200);
    expect((await getArticle('GCAPIPACK', 'M1-1')).statusCode).toBe(200);
    expect((await getArticle('APIPACK', 'NOPE-1')).statusCode).toBe(404);
    expect((await getArticle('APIPACK', 'NOPE-2')).statusCode).toBe(404);
    const unknown = await running.app.inject({
      method: 'GET',
      url: `/nothing/${randomBytes(4).toString('hex')}`,
    });
    expect(unknown.statusCode).toBe(404);
    const badLogin = await running.app.inject({
      method: 'GET',
      url: '/TV2/GetToken',
      headers: { authorization: basic(name, 'wrong') },
    });
    expect(badLogin.statusCode).toBe(401);

    const after = await scrape();
    expect(count(after, labels200) - count(before, labels200)).toBe(2);
    expect(count(after, labels404) - count(before, labels404)).toBe(2);
    const getToken401 = { operation: 'GetToken', method: 'GET', status: '401' };
    expect(count(after, getToken401) - count(before, getToken401)).toBe(1);
    const unmatched = { operation: 'UNMATCHED', method: 'GET', status: '404' };
    expect(count(after, unmatched) - count(before, unmatched)).toBe(1);
    // a histogram: the latency sum and the buckets are there
    expect(sample(after, 'tv2_http_request_duration_seconds_sum', labels200)).toBeGreaterThan(0);
    expect(sample(after, 'tv2_http_request_duration_seconds_bucket', { ...labels200, le: '+Inf' })).toBe(
      count(after, labels200),
    );
    // no label value is ever a URL with an article number or a random path in it
    expect(after).not.toMatch(/M1-1|NOPE-|\/nothing\//);
  });

  it('report the SCN, the database, the event loop delay and (on PostgreSQL) the connection pool', async () => {
    await running.services.catalog.saveArticle(article('M1-2'));
    const text = await scrape();
    expect(sample(text, 'tv2_scn')).toBe(await currentScn(running.database.db));
    expect(sample(text, 'tv2_database_up')).toBe(1);
    expect(sample(text, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sample(text, 'tv2_login_checks', { state: 'running' })).toBe(0);
    expect(sample(text, 'tv2_login_checks_started_total')).toBeGreaterThanOrEqual(2);
    if (ENGINE === 'postgres') {
      expect(sample(text, 'tv2_db_pool_max_connections')).toBe(7);
      expect(sample(text, 'tv2_db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'tv2_db_pool_waiting_queries')).toBe(0);
    } else {
      expect(sample(text, 'tv2_db_pool_max_connections')).toBeUndefined();
    }
  });
});

describe('metrics switched off', () => {
  it('answer 404 without TV2_METRICS_TOKEN, like any unknown path', async () => {
    const fresh = await freshDatabaseUrl();
    const off = await startApp(loadConfig({}, { databaseUrl: fresh.url, demo: false, logLevel: 'silent' }), {
      logger: false,
    });
    try {
      const res = await off.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: 'Bearer x' },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    } finally {
      await off.close();
      await fresh.drop();
    }
  });
});
