import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { compiledOnce } from './compiled-once.ts';
import type { DB } from './schema.ts';

// Compiling needs no connection: the dialects are never asked for one here.
const sqlite = new Kysely<DB>({ dialect: new SqliteDialect({ database: {} as never }) });
const postgres = new Kysely<DB>({ dialect: new PostgresDialect({ pool: {} as never }) });

interface Values {
  article: string;
  group: number;
  customerGroup: string | null;
}

const query = (db: Kysely<DB>) => (v: Values) =>
  db
    .selectFrom('list_price')
    .select('price_minor')
    .where('article_no', '=', v.article)
    .where('price_type', '=', 'SELLING')
    .where('price_group', '=', v.group)
    .where('sizex', '=', v.article)
    .where((eb) => eb.or([eb('currency', '=', v.customerGroup), eb('deleted', '=', sql.lit(0))]));

describe('compiledOnce', () => {
  for (const [engine, db] of [
    ['SQLite', sqlite],
    ['PostgreSQL', postgres],
  ] as const) {
    it(`gives what Kysely compiles for the same values (${engine})`, () => {
      const once = compiledOnce<Values, unknown>(['article', 'group', 'customerGroup'], query(db));
      for (const v of [
        { article: 'A1', group: 2, customerGroup: 'G' },
        { article: "O'Neil", group: 7, customerGroup: null },
        { article: 'A1', group: 2, customerGroup: 'G' },
      ]) {
        const expected = query(db)(v).compile();
        const got = once(v);
        expect(got.sql).toBe(expected.sql);
        expect(got.parameters).toEqual(expected.parameters);
      }
    });
  }

  it('builds the query twice on the first call (markers, then its values) and never again', () => {
    let builds = 0;
    const once = compiledOnce<Values, unknown>(['article', 'group', 'customerGroup'], (v) => {
      builds++;
      return query(sqlite)(v);
    });
    once({ article: 'A1', group: 1, customerGroup: null });
    expect(builds).toBe(2);
    once({ article: 'A2', group: 2, customerGroup: 'G' });
    once({ article: 'A3', group: 3, customerGroup: null });
    expect(builds).toBe(2);
  });

  it('refuses a value that does not reach the SQL as a parameter', () => {
    const once = compiledOnce<Values, unknown>(['article', 'group', 'customerGroup'], (v) =>
      sqlite.selectFrom('list_price').select('price_minor').where('article_no', '=', v.article),
    );
    expect(() => once({ article: 'A1', group: 1, customerGroup: null })).toThrow(
      /"group" is not a parameter/,
    );
  });

  it('refuses a query whose SQL depends on the values', () => {
    const once = compiledOnce<Values, unknown>(['article', 'group', 'customerGroup'], (v) =>
      query(sqlite)(v).$if(v.customerGroup === null, (q) => q.where('scn', '>', 0)),
    );
    expect(() => once({ article: 'A1', group: 1, customerGroup: null })).toThrow(/depends on the values/);
  });
});

describe('compiledOnce, the first call', () => {
  it('builds with its own values after the markers (a plugin keeping the last statement sees real values)', () => {
    const seen: string[] = [];
    const once = compiledOnce<Values, unknown>(['article', 'group', 'customerGroup'], (v) => {
      seen.push(v.article);
      return query(sqlite)(v);
    });
    once({ article: 'A1', group: 1, customerGroup: null });
    expect(seen).toEqual(['\u0000compiledOnce:article', 'A1']);
  });
});
