import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from './database.ts';
import { FALLBACK_CHECKPOINT_PAGES } from './sqlite-checkpointer.ts';

// The database file grows only when a checkpoint copies pages from the WAL into it. The writes
// below (about 1,500 pages) pass SQLite's default automatic checkpoint (1,000 pages) but stay far
// below the backstop the serving connection keeps with background checkpoints: so the file grows
// only if the worker checkpointed, never because the commit did.
const ROWS = 3000;
const PAYLOAD = 'x'.repeat(1500);

let dir: string | undefined;
let database: Database | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function open(backgroundCheckpoints: boolean): { database: Database; file: string } {
  dir = mkdtempSync(join(tmpdir(), 'tv2-checkpoint-'));
  const file = join(dir, 'db.sqlite');
  database = openDatabase(`sqlite:${file}`, { sqliteBackgroundCheckpoints: backgroundCheckpoints });
  return { database, file };
}

async function writePages(db: Database): Promise<void> {
  await sql`create table filler (id integer primary key, payload text not null)`.execute(db.db);
  for (let i = 0; i < ROWS; i += 100) {
    await db.db.transaction().execute(async (trx) => {
      for (let j = i; j < i + 100; j++) await sql`insert into filler values (${j}, ${PAYLOAD})`.execute(trx);
    });
  }
}

const pages = (file: string) => statSync(file).size / 4096;

describe('SQLite checkpoints on a worker thread', () => {
  it('the commits leave the WAL to the worker, which copies it into the database file', async () => {
    const { database: db, file } = open(true);
    const autocheckpoint = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(
      db.db,
    );
    expect(autocheckpoint.rows[0]?.wal_autocheckpoint).toBe(FALLBACK_CHECKPOINT_PAGES);
    await writePages(db);
    // Waits for the worker (no speed asserted: a busy machine only makes it wait longer).
    for (let turn = 0; turn < 600 && pages(file) < ROWS / 2; turn++) await sleep(50);
    expect(pages(file)).toBeGreaterThan(ROWS / 2);
    const count = await sql<{ n: number }>`select count(*) as n from filler`.execute(db.db);
    expect(count.rows[0]?.n).toBe(ROWS);
  });

  it('without it, the commit checkpoints by itself as SQLite does by default', async () => {
    const { database: db, file } = open(false);
    const autocheckpoint = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(
      db.db,
    );
    expect(autocheckpoint.rows[0]?.wal_autocheckpoint).toBe(1000);
    await writePages(db);
    expect(pages(file)).toBeGreaterThan(ROWS / 4);
  });

  it('closes its worker with the database, and an in-memory database has none', async () => {
    const { database: db } = open(true);
    await db.close();
    database = undefined;
    const memory = openDatabase('sqlite::memory:', { sqliteBackgroundCheckpoints: true });
    await sql`select 1`.execute(memory.db);
    await memory.close();
  });
});
