import BetterSqlite3 from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { CachingSqliteDialect, valueBlindSql } from './sqlite-driver.ts';

describe('valueBlindSql', () => {
  it('writes each parameter +?', () => {
    expect(valueBlindSql('select "a" from "t" where "b" = ? and "c" in (?, ?) limit ? offset ?')).toBe(
      'select "a" from "t" where "b" = +? and "c" in (+?, +?) limit +? offset +?',
    );
    expect(valueBlindSql('insert into t (a, b) values (?,?) returning a')).toBe(
      'insert into t (a, b) values (+?,+?) returning a',
    );
    expect(valueBlindSql('select 1')).toBe('select 1');
  });

  it('leaves a ? in strings, identifiers and comments alone', () => {
    expect(valueBlindSql(`select '?', 'it''s ?', "a?""b", \`c?\`, [d?] from t where x = ?`)).toBe(
      `select '?', 'it''s ?', "a?""b", \`c?\`, [d?] from t where x = +?`,
    );
    expect(valueBlindSql('select ? -- a comment?\nfrom t /* and ? */ where y = ?')).toBe(
      'select +? -- a comment?\nfrom t /* and ? */ where y = +?',
    );
    // unterminated: SQLite refuses it anyway; nothing after the opening is touched
    expect(valueBlindSql("select ?, 'open ?")).toBe("select +?, 'open ?");
  });
});

// Whether SQLite compiled a cached statement again is seen through a function's resolution:
// `probe()` first resolves to a variadic function; a better match registered later (no arguments)
// is what a statement compiled from then on calls, while one compiled before keeps calling the first.
// Registering a new (name, argument count) expires no statement by itself.
describe('CachingSqliteDialect: a kept statement is not compiled again for new values', () => {
  let raw: BetterSqlite3.Database | undefined;
  afterEach(() => raw?.close());

  async function setUp() {
    raw = new BetterSqlite3(':memory:');
    raw.function('probe', { varargs: true }, () => 'first');
    // biome-ignore lint/suspicious/noExplicitAny: a throwaway schema of the test's own
    const db = new Kysely<any>({ dialect: new CachingSqliteDialect(raw) });
    await sql`create table owner (id integer primary key, active integer not null)`.execute(db);
    await sql`create table token (hash text primary key, owner_id integer not null)`.execute(db);
    for (let i = 1; i <= 5; i++) {
      await sql`insert into owner (id, active) values (${i}, ${1})`.execute(db);
      await sql`insert into token (hash, owner_id) values (${`h${i}`}, ${i})`.execute(db);
    }
    return db;
  }
  const redefineProbe = () => raw?.function('probe', () => 'again');

  it('a page (LIMIT ?)', async () => {
    const db = await setUp();
    const page = async (from: number, limit: number) =>
      (
        await sql<{
          p: string;
        }>`select probe() as p from owner where id >= ${from} order by id limit ${limit}`.execute(db)
      ).rows.map((r) => r.p);
    expect(await page(1, 2)).toEqual(['first', 'first']);
    redefineProbe();
    expect(await page(2, 3)).toEqual(['first', 'first', 'first']);
    // the observation works: a statement compiled now calls the new function
    expect((await sql<{ p: string }>`select probe() as p`.execute(db)).rows[0]?.p).toBe('again');
  });

  it('a join with an equality on a parameter (the token read)', async () => {
    const db = await setUp();
    const read = async (hash: string) =>
      (
        await sql<{ p: string }>`select probe() as p from token t join owner o on o.id = t.owner_id
                                 where t.hash = ${hash} and o.active = ${1}`.execute(db)
      ).rows.map((r) => r.p);
    expect(await read('h1')).toEqual(['first']);
    redefineProbe();
    expect(await read('h2')).toEqual(['first']);
    expect(await read('h3')).toEqual(['first']);
  });
});
