import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { AREAS, MIGRATIONS } from '../../src/areas.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { buildApp } from '../../src/http/server.ts';
import type { Role } from '../../src/kernel/access/principal.ts';
import { type Database, migrate, openDatabase } from '../../src/kernel/db/database.ts';
import { createServices, type Services } from '../../src/services.ts';

/** Set to a PostgreSQL admin URL to run the suite on PostgreSQL; unset, it runs on SQLite files. */
export const PG_ADMIN_URL = process.env.TV2_TEST_DATABASE_URL;
export const ENGINE = PG_ADMIN_URL ? 'postgres' : 'sqlite';

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  database: Database;
  databaseUrl: string;
  /** Creates an API user and returns a token for it obtained through /TV2/GetToken. */
  tokenFor(roles: Role[], scope?: { customerNo?: number; clientNo?: number }): Promise<string>;
  call(method: 'GET' | 'POST', operation: string, options?: CallOptions): Promise<LightMyRequestResponse>;
  /** A JSON request to any path (the admin area), as the given token. */
  send(
    token: string,
    method: 'GET' | 'PUT' | 'POST' | 'DELETE',
    url: string,
    body?: unknown,
  ): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface CallOptions {
  token?: string;
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * A fresh database of the engine under test, migrated, for the test file that calls this at its
 * top level: opened and migrated before its tests (handed to `use`), closed and dropped after them.
 */
export function withMigratedDatabase(use: (database: Database) => void): void {
  let database: Database | undefined;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const fresh = await freshDatabaseUrl();
    drop = fresh.drop;
    database = openDatabase(fresh.url);
    await migrate(database, MIGRATIONS);
    use(database);
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });
}

/** A fresh, empty database of the engine under test. */
export async function freshDatabaseUrl(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `tv2_t_${randomBytes(6).toString('hex')}`;
  if (!PG_ADMIN_URL) {
    const file = join(tmpdir(), `${name}.db`);
    return {
      url: `sqlite:${file}`,
      async drop() {
        for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
      },
    };
  }
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

let userCounter = 0;

export async function startTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const fresh = await freshDatabaseUrl();
  return appOn(fresh.url, overrides, true, fresh.drop);
}

/**
 * A second app over the database of `t`, as a second process would be (not migrated again, not
 * dropped when closed): to compare how two settings answer the same data.
 */
export function anotherTestApp(t: TestApp, overrides: Partial<Config> = {}): Promise<TestApp> {
  return appOn(t.databaseUrl, overrides, false, async () => {});
}

async function appOn(
  url: string,
  overrides: Partial<Config>,
  migrated: boolean,
  drop: () => Promise<void>,
): Promise<TestApp> {
  const config = loadConfig({}, { databaseUrl: url, demo: false, ...overrides });
  // the SQLite reader thread only where a test asks for it (sqlite-reader.ts)
  const database = openDatabase(config.databaseUrl, { sqliteReader: overrides.sqliteReader === true });
  if (migrated) await migrate(database, MIGRATIONS);
  const services = createServices(config, database);
  const app = await buildApp(services, { areas: AREAS });
  await app.ready();

  const call: TestApp['call'] = (method, operation, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const request: InjectOptions = {
      method,
      url: operation.startsWith('/') ? operation : `/TV2/Execute/APIPACK.${operation}`,
      query: options.query,
      headers,
    };
    if (options.body !== undefined) request.payload = options.body as InjectOptions['payload'];
    return app.inject(request);
  };

  return {
    app,
    services,
    database,
    databaseUrl: url,
    call,
    send: (token, method, url, body) =>
      app.inject({
        method,
        url,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
      }),
    async tokenFor(roles, scope = {}) {
      const name = `user${++userCounter}_${randomBytes(3).toString('hex')}`;
      const { secret } = await services.general.auth.createUser({ name, roles, ...scope });
      const res = await app.inject({
        method: 'GET',
        url: '/TV2/GetToken',
        headers: { authorization: `Basic ${Buffer.from(`${name}:${secret}`).toString('base64')}` },
      });
      if (res.statusCode !== 200) throw new Error(`GetToken failed: ${res.statusCode} ${res.body}`);
      return res.json().GETTOKEN.TOKEN as string;
    },
    async close() {
      await app.close();
      await database.close();
      await drop();
    },
  };
}
