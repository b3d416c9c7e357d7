import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Sqlite from 'better-sqlite3';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Running, startApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { ENGINE, freshDatabaseUrl } from './helpers/test-app.ts';

/**
 * A database outage is a 503 DATABASE_UNAVAILABLE with Retry-After, never a 500 and never a hung
 * request, and the process recovers by itself when the database is back.
 */

const run = promisify(execFile);
const basic = (name: string, secret: string) =>
  `Basic ${Buffer.from(`${name}:${secret}`).toString('base64')}`;

async function tokenFor(running: Running, roles: Array<'ADMIN' | 'B2B'>): Promise<string> {
  const name = `op_${randomBytes(3).toString('hex')}`;
  const { secret } = await running.services.general.auth.createUser({ name, roles });
  const res = await running.app.inject({
    method: 'GET',
    url: '/TV2/GetToken',
    headers: { authorization: basic(name, secret) },
  });
  expect(res.statusCode).toBe(200);
  return res.json().GETTOKEN.TOKEN as string;
}

function expectUnavailable(res: LightMyRequestResponse): void {
  expect({ status: res.statusCode, code: res.json().code }).toEqual({
    status: 503,
    code: 'DATABASE_UNAVAILABLE',
  });
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
}

describe.skipIf(ENGINE !== 'sqlite')('SQLite: a write lock held by another process (SQLite only)', () => {
  let running: Running;
  let drop: () => Promise<void>;
  let file: string;
  let admin: string;

  beforeAll(async () => {
    const fresh = await freshDatabaseUrl();
    drop = fresh.drop;
    file = fresh.url.replace(/^sqlite:/, '');
    running = await startApp(
      loadConfig({}, { databaseUrl: fresh.url, demo: false, logLevel: 'silent', sqliteBusyTimeoutMs: 200 }),
      { logger: false },
    );
    admin = await tokenFor(running, ['ADMIN', 'B2B']);
  });
  afterAll(async () => {
    await running.close();
    await drop();
  });

  const putSizeTable = (code: string) =>
    running.app.inject({
      method: 'PUT',
      url: `/TV2/Admin/sizetables/${code}`,
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ SIZETABLE: code, SIZES: ['S', 'M'] }),
    });

  it('answers a write 503 DATABASE_UNAVAILABLE after the busy timeout, reads go on, and writes work again once the lock is gone', async () => {
    expect((await putSizeTable('BEFORE')).statusCode).toBe(200);
    const other = new Sqlite(file);
    try {
      other.pragma('busy_timeout = 0');
      other.exec('BEGIN IMMEDIATE');
      expectUnavailable(await putSizeTable('BLOCKED'));
      const read = await running.app.inject({
        method: 'GET',
        url: '/TV2/Execute/APIPACK.GetSizeTables',
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(read.statusCode).toBe(200);
      other.exec('ROLLBACK');
    } finally {
      other.close();
    }
    expect((await putSizeTable('AFTER')).statusCode).toBe(200);
  });
});

/** A PostgreSQL cluster of this test's own, to stop and freeze (never the shared test cluster). */
class OwnCluster {
  readonly dir = join(tmpdir(), `tv2-op-pg-${randomBytes(4).toString('hex')}`);
  port = 0;
  url = '';

  async start(): Promise<void> {
    this.port = await freePort();
    const env = { ...process.env, TV2_PG_PORT: String(this.port), TV2_PG_DIR: this.dir };
    this.url = (await run('scripts/pg-test-cluster.sh', ['start'], { env })).stdout.trim();
  }

  /** The postmaster and every server process under it. */
  #pids(): number[] {
    const postmaster = Number(readFileSync(join(this.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .filter((d) => {
        try {
          return readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1]?.split(' ')[1] === String(postmaster);
        } catch {
          return false;
        }
      })
      .map(Number);
    return [postmaster, ...children];
  }

  freeze(): void {
    for (const pid of this.#pids()) process.kill(pid, 'SIGSTOP');
  }

  thaw(): void {
    for (const pid of this.#pids()) process.kill(pid, 'SIGCONT');
  }

  async pgCtl(args: string[]): Promise<void> {
    const bin = readdirSync('/usr/lib/postgresql').sort().at(-1);
    const pgCtl = `/usr/lib/postgresql/${bin}/bin/pg_ctl`;
    const asPostgres = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--', pgCtl] : [pgCtl];
    const [command, ...rest] = asPostgres;
    await run(command!, [...rest, '-D', join(this.dir, 'data'), ...args]);
  }

  async stopImmediately(): Promise<void> {
    await this.pgCtl(['-m', 'immediate', '-w', 'stop']);
  }

  async restart(): Promise<void> {
    // with the server down, `restart` starts it with the options of its first start (postmaster.opts)
    await this.pgCtl(['-l', join(this.dir, 'postgres.log'), '-w', '-t', '60', 'restart']);
  }

  async remove(): Promise<void> {
    try {
      this.thaw();
    } catch {}
    const env = { ...process.env, TV2_PG_PORT: String(this.port), TV2_PG_DIR: this.dir };
    await run('scripts/pg-test-cluster.sh', ['stop'], { env }).catch(() => {});
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

describe.skipIf(ENGINE !== 'postgres')('PostgreSQL stopped or frozen under load (PostgreSQL only)', () => {
  const cluster = new OwnCluster();
  let running: Running;
  let token: string;

  beforeAll(async () => {
    await cluster.start();
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('CREATE DATABASE tv2_outage');
    await admin.end();
    const url = new URL(cluster.url);
    url.pathname = '/tv2_outage';
    running = await startApp(
      loadConfig(
        {},
        {
          databaseUrl: url.toString(),
          demo: false,
          logLevel: 'silent',
          // Long enough that no healthy request reaches them on a loaded CI machine (a 1 s limit
          // answered 503 before any outage at load 14 on 2 cores), short enough for the test.
          dbConnectTimeoutMs: 4000,
          dbStatementTimeoutMs: 4000,
        },
      ),
      { logger: false },
    );
    token = await tokenFor(running, ['ADMIN', 'B2B']);
  }, 120_000);
  afterAll(async () => {
    // thaw first: a failed test may have left the server frozen, and closing needs it to answer
    try {
      cluster.thaw();
    } catch {}
    await running?.close().catch(() => {});
    await cluster.remove();
  }, 120_000);

  let counter = 0;
  /** One read or one write (a transaction that takes an SCN), alternately. */
  const request = () => {
    const n = ++counter;
    return n % 2 === 0
      ? running.app.inject({
          method: 'GET',
          url: '/TV2/Execute/APIPACK.B2B_GetAllArticles',
          headers: { authorization: `Bearer ${token}` },
        })
      : running.app.inject({
          method: 'PUT',
          url: `/TV2/Admin/sizetables/T${n % 7}`,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          payload: JSON.stringify({ SIZETABLE: `T${n % 7}`, SIZES: ['S', String(n)] }),
        });
  };
  /** `count` requests, `concurrency` at a time. */
  async function load(count: number, concurrency = 8): Promise<LightMyRequestResponse[]> {
    const answers: LightMyRequestResponse[] = [];
    let started = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (started < count) {
          started++;
          answers.push(await request());
        }
      }),
    );
    return answers;
  }
  const statuses = (answers: LightMyRequestResponse[]) => [...new Set(answers.map((a) => a.statusCode))];
  const ready = () => running.app.inject({ method: 'GET', url: '/health/ready' });

  /** After the outage: requests succeed again in the same process (allowing a few for reconnecting). */
  async function expectRecovered(): Promise<void> {
    let ok = false;
    for (let attempt = 0; attempt < 60 && !ok; attempt++) {
      ok = (await request()).statusCode === 200;
      if (!ok) await new Promise((r) => setTimeout(r, 250));
    }
    expect(ok).toBe(true);
    expect(statuses(await load(24))).toEqual([200]);
    expect((await ready()).statusCode).toBe(200);
  }

  it('answers 503 with Retry-After while the server is frozen, without hanging, and recovers when it thaws', async () => {
    expect(statuses(await load(24))).toEqual([200]);
    cluster.freeze();
    let answers: LightMyRequestResponse[];
    let readiness: LightMyRequestResponse;
    try {
      // every one of these settles while the server is still frozen (a hung request would time the test out)
      [answers, readiness] = await Promise.all([load(24), ready()]);
    } finally {
      cluster.thaw();
    }
    for (const answer of answers) expectUnavailable(answer);
    expectUnavailable(readiness);
    await expectRecovered();
  }, 120_000);

  it('replaces connections that stop answering (a black hole): requests succeed again while those stay frozen', async () => {
    // the previous outage is over for this process too (its pool may still hold a connection to replace)
    await expectRecovered();
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    const { rows } = await admin.query<{ pid: number }>(
      "select pid from pg_stat_activity where datname = 'tv2_outage'",
    );
    await admin.end();
    expect(rows.length).toBeGreaterThan(0);
    for (const { pid } of rows) process.kill(pid, 'SIGSTOP');
    try {
      const answers = await load(24);
      for (const answer of answers.filter((a) => a.statusCode !== 200)) expectUnavailable(answer);
      let ok = false;
      for (let attempt = 0; attempt < 30 && !ok; attempt++) ok = (await request()).statusCode === 200;
      expect(ok).toBe(true);
      expect(statuses(await load(24))).toEqual([200]);
    } finally {
      for (const { pid } of rows) process.kill(pid, 'SIGCONT');
    }
  }, 120_000);

  it('answers 503 with Retry-After while the server is stopped, and recovers when it is back', async () => {
    await cluster.stopImmediately();
    let answers: LightMyRequestResponse[];
    let readiness: LightMyRequestResponse;
    try {
      [answers, readiness] = await Promise.all([load(24), ready()]);
    } finally {
      await cluster.restart();
    }
    for (const answer of answers) expectUnavailable(answer);
    expectUnavailable(readiness);
    await expectRecovered();
  }, 120_000);
});
