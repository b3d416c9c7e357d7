import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl } from '../../../test/helpers/test-app.ts';
import { type Database, openDatabase } from './database.ts';
import { addPositionColumn } from './position.ts';

let database: Database;
let drop: () => Promise<void>;

beforeAll(async () => {
  const fresh = await freshDatabaseUrl();
  drop = fresh.drop;
  database = openDatabase(fresh.url);
  const db = database.db;
  await sql`CREATE TABLE thing (code text PRIMARY KEY, n integer NOT NULL)`.execute(db);
  // inserted out of key order: existing rows are numbered in key order, not insertion order
  for (const code of ['C', 'A', 'B']) await sql`INSERT INTO thing (code, n) VALUES (${code}, 0)`.execute(db);
  await addPositionColumn(db, database.engine, 'thing', ['code']);
});
afterAll(async () => {
  await database.close();
  await drop();
});

async function positions(): Promise<Record<string, number>> {
  const { rows } = await sql<{ code: string; pos: number }>`SELECT code, pos FROM thing ORDER BY pos`.execute(
    database.db,
  );
  return Object.fromEntries(rows.map((r) => [r.code, Number(r.pos)]));
}

describe('addPositionColumn', () => {
  it('numbers existing rows in key order and every new row after the last, without the insert naming it', async () => {
    expect(await positions()).toEqual({ A: 1, B: 2, C: 3 });
    await sql`INSERT INTO thing (code, n) VALUES ('0', 0)`.execute(database.db);
    await sql`INSERT INTO thing (code, n) VALUES ('Z', 0)`.execute(database.db);
    expect(await positions()).toEqual({ A: 1, B: 2, C: 3, '0': 4, Z: 5 });
  });

  it('keeps a position through updates and upserts, and refuses a second row at one position', async () => {
    await sql`UPDATE thing SET n = n + 1 WHERE code = 'A'`.execute(database.db);
    await sql`INSERT INTO thing (code, n) VALUES ('B', 9) ON CONFLICT (code) DO UPDATE SET n = excluded.n`.execute(
      database.db,
    );
    expect((await positions()).A).toBe(1);
    expect((await positions()).B).toBe(2);
    await expect(sql`UPDATE thing SET pos = 1 WHERE code = 'C'`.execute(database.db)).rejects.toThrow();
  });
});
