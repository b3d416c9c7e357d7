import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { compiledOnce, keptPerCount } from './compiled-once.ts';
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

describe('keptPerCount', () => {
  const insert = (db: Kysely<DB>, articles: readonly string[]) => () =>
    db
      .insertInto('price_article')
      .values(articles.map((a) => ({ article_no: a, deleted: 0, scn: 7, pos: 1 })));
  const parametersOf = (articles: readonly string[]) => articles.flatMap((a) => [a, 0, 7, 1]);

  it('builds once per count and engine, then gives what Kysely compiles for the same values', () => {
    const kept = keptPerCount<unknown>();
    let builds = 0;
    for (const db of [sqlite, postgres]) {
      for (const articles of [['A'], ['B', "O'Neil"], ['C'], ['D', 'E']]) {
        const got = kept(db, articles.length, parametersOf(articles), () => {
          builds++;
          return insert(db, articles)();
        });
        const expected = insert(db, articles)().compile();
        expect(got.sql).toBe(expected.sql);
        expect(got.parameters).toEqual(expected.parameters);
      }
    }
    // counts 1 and 2, on each engine
    expect(builds).toBe(4);
  });

  it('keeps nothing when the compiled parameters are not the ones given, in order', () => {
    const kept = keptPerCount<unknown>();
    let builds = 0;
    for (const articles of [['A'], ['B'], ['C']]) {
      const got = kept(sqlite, 1, [0, 7, 1, articles[0]], () => {
        builds++;
        return insert(sqlite, articles)();
      });
      // run as built, with its own parameters
      expect(got.parameters).toEqual(parametersOf(articles));
    }
    expect(builds).toBe(3);
  });
});
