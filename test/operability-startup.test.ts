import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../src/areas.ts';
import { migrate, openDatabase } from '../src/kernel/db/database.ts';
import { budget, PROCESS_BUDGET_MS } from './helpers/cli.ts';
import { ENGINE, freshDatabaseUrl, PG_ADMIN_URL } from './helpers/test-app.ts';

/**
 * `tv2 serve` that cannot start says why in one line on stderr, naming the setting to change, and
 * exits 1: no stack trace.
 */

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const asRoot = process.getuid?.() === 0;

function serve(
  env: Record<string, string>,
  user?: { uid: number; gid: number },
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/tv2.js', 'serve'],
      {
        env: { ...process.env, LOG_FORMAT: 'json', PORT: '0', TV2_DEMO: '0', ...env },
        // a start that wrongly succeeds is ended within its budget, before the test times out
        timeout: PROCESS_BUDGET_MS,
        ...(user ?? {}),
      },
      (error, _stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stderr }),
    );
  });
}

function expectOneLine(result: { code: number | null; stderr: string }, ...mentions: RegExp[]): void {
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/^tv2: [^\n]+\n$/);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  for (const mention of mentions) expect(result.stderr).toMatch(mention);
}

function scratchDir(): string {
  const dir = join(tmpdir(), `tv2-start-${randomBytes(4).toString('hex')}`);
  mkdirSync(dir, { recursive: true });
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function freePort(): Promise<number> {
  const server = await listening();
  const address = server.address();
  await new Promise((r) => server.close(r));
  return typeof address === 'object' && address ? address.port : 0;
}

function listening(): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

describe('start-up failures (SQLite file and settings)', () => {
  it('a bad setting', { timeout: budget(3) }, async () => {
    expectOneLine(await serve({ PORT: 'http' }), /PORT must be a whole number/);
    expectOneLine(await serve({ TV2_TRUST_PROXY: 'proxy.example' }), /TV2_TRUST_PROXY/);
    // read by bin/tv2.js before anything else: a size it cannot use is refused, not ignored
    expectOneLine(
      await serve({ TV2_SEMI_SPACE_MB: '16m' }),
      /TV2_SEMI_SPACE_MB must be a whole number, got "16m"/,
    );
  });

  it('a database directory that cannot be created', { timeout: budget(1) }, async () => {
    const dir = scratchDir();
    writeFileSync(join(dir, 'file'), 'not a directory');
    expectOneLine(
      await serve({ DATABASE_URL: `sqlite:${join(dir, 'file', 'data', 'tv2.db')}` }),
      /cannot create the directory/,
      /DATABASE_URL/,
    );
  });

  it('a read-only database file', { timeout: budget(1) }, async () => {
    const dir = scratchDir();
    const file = join(dir, 'tv2.db');
    const database = openDatabase(`sqlite:${file}`);
    await migrate(database, MIGRATIONS);
    await database.close();
    chmodSync(file, 0o444);
    chmodSync(dir, 0o777); // only the file is read-only
    // root may write any file: run the server as an ordinary user then
    const user = asRoot ? { uid: 65534, gid: 65534 } : undefined;
    expectOneLine(await serve({ DATABASE_URL: `sqlite:${file}` }, user), /read-only/, /DATABASE_URL/);
  });

  it('a port in use', { timeout: budget(1) }, async () => {
    const taken = await listening();
    cleanups.push(() => new Promise<void>((r) => taken.close(() => r())));
    const address = taken.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const fresh = await freshDatabaseUrl();
    cleanups.push(fresh.drop);
    expectOneLine(
      await serve({ DATABASE_URL: fresh.url, PORT: String(port) }),
      new RegExp(`port 127\\.0\\.0\\.1:${port} is already in use`),
      /set PORT/,
    );
  });

  it('PostgreSQL unreachable', { timeout: budget(1) }, async () => {
    const port = await freePort();
    expectOneLine(
      await serve({ DATABASE_URL: `postgres://tv2:secret-pw@127.0.0.1:${port}/tv2` }),
      new RegExp(`cannot reach PostgreSQL at 127\\.0\\.0\\.1:${port} \\(connection refused\\)`),
      /DATABASE_URL/,
    );
  });
});

describe.skipIf(ENGINE !== 'postgres')('start-up failures on a PostgreSQL server (PostgreSQL only)', () => {
  it('a database that does not exist', { timeout: budget(1) }, async () => {
    const name = `tv2_missing_${randomBytes(4).toString('hex')}`;
    const url = new URL(PG_ADMIN_URL!);
    url.pathname = `/${name}`;
    expectOneLine(
      await serve({ DATABASE_URL: url.toString() }),
      new RegExp(`database "${name}" does not exist`),
      /createdb/,
      /DATABASE_URL/,
    );
  });

  it('a database that accepts no writes', { timeout: budget(1) }, async () => {
    const fresh = await freshDatabaseUrl();
    cleanups.push(fresh.drop);
    const database = openDatabase(fresh.url);
    await migrate(database, MIGRATIONS);
    await database.close();
    const name = new URL(fresh.url).pathname.slice(1);
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`ALTER DATABASE ${name} SET default_transaction_read_only = on`);
    await admin.end();
    expectOneLine(await serve({ DATABASE_URL: fresh.url }), /read-only/, /DATABASE_URL/);
  });
});
