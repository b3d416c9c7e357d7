import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Running, startApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { ENGINE, freshDatabaseUrl } from './helpers/test-app.ts';

/** /health/live and /health/ready, as a load balancer or an orchestrator sees them. */

let running: Running;
let drop: () => Promise<void>;

beforeAll(async () => {
  const fresh = await freshDatabaseUrl();
  drop = fresh.drop;
  running = await startApp(loadConfig({}, { databaseUrl: fresh.url, demo: false, logLevel: 'silent' }), {
    logger: false,
  });
});
afterAll(async () => {
  await running.close();
  await drop();
});

const get = (url: string) => running.app.inject({ method: 'GET', url });

describe(`health (${ENGINE})`, () => {
  it('live: the process answers, without credentials and without caching', async () => {
    const res = await get('/health/live');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'live' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('ready: the database answers and every migration is applied', async () => {
    const res = await get('/health/ready');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: 'ready', engine: ENGINE });
    expect(body.migrations).toBeGreaterThanOrEqual(9);
  });

  it('not ready while a migration this version needs is missing from the database', async () => {
    const { rows } = await sql<{ name: string }>`select max(name) as name from kysely_migration`.execute(
      running.database.db,
    );
    const last = rows[0]?.name;
    expect(last).toBeTruthy();
    await sql`delete from kysely_migration where name = ${last}`.execute(running.database.db);
    try {
      const res = await get('/health/ready');
      expect(res.statusCode).toBe(503);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.json().code).toBe('MIGRATIONS_PENDING');
      expect(res.json().detail).toContain(last);
    } finally {
      await sql`insert into kysely_migration (name, timestamp) values (${last}, ${new Date().toISOString()})`.execute(
        running.database.db,
      );
    }
    expect((await get('/health/ready')).statusCode).toBe(200);
  });

  it('are not part of the API description', async () => {
    const doc = (await get('/TV2/openapi.json')).json();
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/health') || p === '/metrics')).toEqual([]);
  });
});
