import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from './database.ts';
import { inWriteTransaction } from './unit-of-work.ts';

// The reader thread of a SQLite file (sqlite-reader.ts): these run on SQLite whatever the engine of
// the suite, as the reader exists on SQLite only (on PostgreSQL reads run on the pool: the
// B2B_GetArticlePrice tests cover that side).

const file = join(tmpdir(), `tv2-reader-${process.pid}-${Date.now()}.db`);
let database: Database;

const value = (id: number) =>
  CompiledQuery.raw('select v from t where id = ?', [id]) as CompiledQuery<{ v: number }>;
const setValue = (id: number, v: number) =>
  inWriteTransaction(database, async (uow) => {
    await sql`update t set v = ${v} where id = ${id}`.execute(uow.db);
  });
/** A read that keeps SQLite busy for a while (a recursive count), answered as one row. */
const slowCount = CompiledQuery.raw(
  'with recursive n(i) as (select 1 union all select i + 1 from n where i < ?) select count(*) as c from n',
  [2_000_000],
) as CompiledQuery<{ c: number }>;

/** A module for the reader thread to load (sqlite-reader.ts, `textOnThread`), as a data URL. */
const MODULE = `data:text/javascript,${encodeURIComponent(`
export function listed(rows, prefix) { return prefix + rows.map((r) => r.id + '=' + r.v).join(','); }
export function none() { return undefined; }
export function fails() { throw new Error('not made'); }
export const notAFunction = 1;
`)}`;
const made = (name: string, ...args: unknown[]) => ({ module: MODULE, name, args });
const all = CompiledQuery.raw('select id, v from t order by id', []) as CompiledQuery<{
  id: number;
  v: number;
}>;

/** Asks for a text until the thread has loaded its module (its first use loads it). */
async function textOnceLoaded(reader: Database['reader']): Promise<string | undefined> {
  for (let i = 0; i < 200; i++) {
    const text = await reader.textOnThread(all, made('listed', '#'));
    if (text !== undefined) return text;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return undefined;
}

/** A database of its own with the reader on, for a test that ends or starts its reader; closed after. */
async function withOwn(url: string, use: (own: Database) => Promise<void>): Promise<void> {
  const own = openDatabase(url, { sqliteReader: true });
  try {
    await use(own);
  } finally {
    await own.close();
  }
}

beforeAll(async () => {
  database = openDatabase(`sqlite:${file}`, { sqliteReader: true });
  await sql`create table t (id integer primary key, v integer not null)`.execute(database.db);
  await sql`insert into t (id, v) values (1, 0), (2, 0)`.execute(database.db);
  expect(await database.reader.whenReady()).toBe(true);
});
afterAll(async () => {
  await database.close();
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
});

describe('the SQLite reader thread', () => {
  it('reads on its own thread: the serving thread goes on with other work while a read runs', async () => {
    expect(database.reader.onThread()).toBe(true);
    let turns = 0;
    let counting = true;
    const tick = () => {
      turns++;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    const [row] = await database.reader.rows(slowCount);
    counting = false;
    expect(row?.c).toBe(2_000_000);
    // on the serving connection the statement would hold the event loop from start to end
    expect(turns).toBeGreaterThan(20);
  });

  it('sees every write answered before the read was asked for, under reads and writes that overlap', async () => {
    for (let round = 1; round <= 60; round++) {
      await setValue(1, round);
      // reads asked after the write's answer: all see it
      const after = await Promise.all(Array.from({ length: 8 }, () => database.reader.rows(value(1))));
      expect(after.map((rows) => rows[0]?.v)).toEqual(Array(8).fill(round));
      // reads that overlap the next write see the value before it or after it, nothing else
      const [overlapping] = await Promise.all([
        Promise.all(Array.from({ length: 8 }, () => database.reader.rows(value(1)))),
        setValue(1, round + 1000),
      ]);
      for (const rows of overlapping) expect([round, round + 1000]).toContain(rows[0]?.v);
      expect((await database.reader.rows(value(1)))[0]?.v).toBe(round + 1000);
    }
  });

  it('never sees a write transaction that has not committed', async () => {
    await setValue(2, 1);
    let seenInside: number | undefined;
    await inWriteTransaction(database, async (uow) => {
      await sql`update t set v = 2 where id = 2`.execute(uow.db);
      seenInside = (await database.reader.rows(value(2)))[0]?.v;
    });
    expect(seenInside).toBe(1);
    expect((await database.reader.rows(value(2)))[0]?.v).toBe(2);
  });

  it('refuses a write, and an SQL error, as the serving connection refuses them', async () => {
    // a write that returns rows; the connection is query-only
    const write = database.reader.rows(CompiledQuery.raw('update t set v = 99 where id = 1 returning v', []));
    await expect(write).rejects.toMatchObject({ name: 'SqliteError', code: 'SQLITE_READONLY' });
    const plain = database.reader.rows(CompiledQuery.raw('update t set v = 99 where id = 1', []));
    await expect(plain).rejects.toMatchObject({ name: 'SqliteError', code: 'SQLITE_READONLY' });
    expect((await database.reader.rows(value(1)))[0]?.v).not.toBe(99);
    const missing = database.reader.rows(CompiledQuery.raw('select x from later', []));
    await expect(missing).rejects.toMatchObject({ name: 'SqliteError', code: 'SQLITE_ERROR' });
    // asked again, refused again the same way; a refusal costs no other read its answer
    await expect(
      database.reader.rows(CompiledQuery.raw('update t set v = 99 where id = 1', [])),
    ).rejects.toMatchObject({ code: 'SQLITE_READONLY' });
    await expect(database.reader.rows(CompiledQuery.raw('select x from later', []))).rejects.toMatchObject({
      code: 'SQLITE_ERROR',
    });
    expect(await database.reader.rows(value(1))).toHaveLength(1);
    // a statement refused once, and fine later (its table made since), is read
    await sql`create table later (x integer)`.execute(database.db);
    await sql`insert into later (x) values (5)`.execute(database.db);
    expect(await database.reader.rows(CompiledQuery.raw('select x from later', []))).toEqual([{ x: 5 }]);
  });

  it('answers the reads it had not answered when its thread ended, and later reads, on the serving connection', async () => {
    await withOwn(`sqlite:${file}`, async (own) => {
      expect(await own.reader.whenReady()).toBe(true);
      const asked = own.reader.rows(slowCount);
      const closing = own.reader.close();
      expect((await asked)[0]?.c).toBe(2_000_000);
      await closing;
      expect(own.reader.onThread()).toBe(false);
      expect((await own.reader.rows(value(2)))[0]?.v).toBe(2);
    });
  });

  it('starts its thread at the first read, which the serving connection answers meanwhile', async () => {
    await withOwn(`sqlite:${file}`, async (own) => {
      expect(own.reader.onThread()).toBe(false);
      // asked before the thread exists: answered all the same
      expect((await own.reader.rows(value(2)))[0]?.v).toBe(2);
      expect(await own.reader.whenReady()).toBe(true);
      expect(own.reader.onThread()).toBe(true);
      expect((await own.reader.rows(value(2)))[0]?.v).toBe(2);
    });
  });

  it('closed before its first read, starts no thread and answers on the serving connection', async () => {
    await withOwn(`sqlite:${file}`, async (own) => {
      await own.reader.close();
      expect(await own.reader.whenReady()).toBe(false);
      expect((await own.reader.rows(value(2)))[0]?.v).toBe(2);
      expect(own.reader.onThread()).toBe(false);
    });
  });

  it("makes a text of a read's rows on its thread, with a function of a module it loads at its first use", async () => {
    await withOwn(`sqlite:${file}`, async (own) => {
      expect(await own.reader.whenReady()).toBe(true);
      // the first ask starts loading the module: no text yet, the caller makes its answer itself
      expect(await own.reader.textOnThread(all, made('listed', '#'))).toBeUndefined();
      const rows = await own.reader.rows(all);
      const expected = `#${rows.map((r) => `${r.id}=${r.v}`).join(',')}`;
      expect(await textOnceLoaded(own.reader)).toBe(expected);
      // a write committed before the ask is in the text
      await setValue(2, 41);
      expect(await own.reader.textOnThread(all, made('listed', '@'))).toContain('2=41');
      await setValue(2, 0);
    });
  });

  it('gives no text where the function gives none or throws, or the module lacks it or cannot load', async () => {
    expect(await textOnceLoaded(database.reader)).toBeDefined();
    expect(await database.reader.textOnThread(all, made('none'))).toBeUndefined();
    expect(await database.reader.textOnThread(all, made('fails'))).toBeUndefined();
    expect(await database.reader.textOnThread(all, made('notAFunction'))).toBeUndefined();
    expect(await database.reader.textOnThread(all, made('missing'))).toBeUndefined();
    const broken = { module: 'data:text/javascript,export function f( {', name: 'f', args: [] };
    for (let i = 0; i < 5; i++) {
      expect(await database.reader.textOnThread(all, broken)).toBeUndefined();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // the others go on being made
    expect(await database.reader.textOnThread(all, made('listed', '!'))).toMatch(/^!1=/);
  });

  it('refuses a statement of a text as the serving connection refuses it', async () => {
    expect(await textOnceLoaded(database.reader)).toBeDefined();
    const write = CompiledQuery.raw('update t set v = 99 where id = 1 returning v', []);
    await expect(database.reader.textOnThread(write, made('listed', ''))).rejects.toMatchObject({
      name: 'SqliteError',
      code: 'SQLITE_READONLY',
    });
    const missing = CompiledQuery.raw('select id, v from nowhere', []);
    await expect(database.reader.textOnThread(missing, made('listed', ''))).rejects.toMatchObject({
      code: 'SQLITE_ERROR',
    });
    expect((await database.reader.rows(value(1)))[0]?.v).not.toBe(99);
  });

  it('gives no text without its thread: before it started, after it ended, for a database in memory', async () => {
    await withOwn(`sqlite:${file}`, async (own) => {
      expect(await own.reader.textOnThread(all, made('listed', '#'))).toBeUndefined();
      expect(await textOnceLoaded(own.reader)).toBeDefined();
      await own.reader.close();
      expect(await own.reader.textOnThread(all, made('listed', '#'))).toBeUndefined();
    });
    await withOwn('sqlite::memory:', async (memory) => {
      await sql`create table t (id integer primary key, v integer not null)`.execute(memory.db);
      expect(await memory.reader.textOnThread(all, made('listed', '#'))).toBeUndefined();
    });
  });

  it('is no thread for a database in memory, whose data only its own connection sees', async () => {
    await withOwn('sqlite::memory:', async (memory) => {
      expect(await memory.reader.whenReady()).toBe(false);
      expect(memory.reader.onThread()).toBe(false);
      await sql`create table m (x integer)`.execute(memory.db);
      await sql`insert into m (x) values (7)`.execute(memory.db);
      expect(await memory.reader.rows(CompiledQuery.raw('select x from m', []))).toEqual([{ x: 7 }]);
    });
  });
});
