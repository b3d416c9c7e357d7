import { CompiledQuery, type KyselyPlugin, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE, startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { refreshStatistics } from '../../../kernel/db/statistics.ts';
import { StockReadRepository } from '../stock-read-repository.ts';

/**
 * Every stock list and feed query is an index range read (docs/stock.md, "Paging"): a feed after a
 * few changes reads the `scn` indexes (the level's; the article's, then the levels by article) and
 * then the levels by position; a list reads the position index (or the location's) in its order,
 * with no sort. Asserted on the planners' own EXPLAIN output, with planner statistics taken as the
 * server takes them, on a stock table large enough for a full scan to be the planner's other
 * choice. On PostgreSQL sequential scans are disabled: what is checked is that an index can serve
 * the query (test/sql-snapshots.test.ts checks the same without statistics, on a few rows).
 */

let t: TestApp;
let since = 0;

/** The plan of the statement `run` makes, as the engine explains it (one line per step). */
async function planOf(run: (repo: StockReadRepository) => Promise<unknown>): Promise<string> {
  const db = t.database.db;
  let statement: CompiledQuery | undefined;
  const capture: KyselyPlugin = {
    // every query builder passes here, subqueries too: the statement is the longest, the last of
    // equal ones (a statement compiled once is built with markers for its values, then with them)
    transformQuery({ node, queryId }) {
      const compiled = db.getExecutor().compileQuery(node, queryId);
      if (!statement || compiled.sql.length >= statement.sql.length) statement = compiled;
      return node;
    },
    async transformResult({ result }) {
      return result;
    },
  };
  await run(new StockReadRepository(db.withPlugin(capture)));
  const query = statement;
  if (!query) throw new Error('no statement was run');
  if (ENGINE === 'sqlite') {
    const plan = await db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`EXPLAIN QUERY PLAN ${query.sql}`, [...query.parameters]),
    );
    return plan.rows.map((r) => r.detail).join('\n');
  }
  return db.transaction().execute(async (trx) => {
    await sql`SET LOCAL enable_seqscan = off`.execute(trx);
    const plan = await trx.executeQuery<{ 'QUERY PLAN': string }>(
      CompiledQuery.raw(`EXPLAIN ${query.sql}`, [...query.parameters]),
    );
    return plan.rows.map((r) => r['QUERY PLAN']).join('\n');
  });
}

const sorts = (plan: string) => /TEMP B-TREE FOR ORDER BY|Sort Key: l\.pos/.test(plan);
/** The outer read of the levels: by position (a list) or by the positions that changed (a feed). */
const levelsRead = (plan: string) =>
  ENGINE === 'sqlite'
    ? (/SEARCH l USING INDEX (stock_level_pos|stock_level_location_pos) \(.*pos[>=]/.exec(plan)?.[1] ?? '')
    : (/Index Scan using (stock_level_pos|stock_level_location_pos) on stock_level l\b/.exec(plan)?.[1] ??
      '');

beforeAll(async () => {
  t = await startTestApp();
  const db = t.database.db;
  // 3,000 articles in 6 sizes, stocked at the warehouse and half of them at two shops: 27,000
  // levels, written by statement (through the services this would take minutes)
  await sql`INSERT INTO size_table (code, description, deleted, scn) VALUES ('CONF', '{}', 0, 1)`.execute(db);
  const nos = Array.from({ length: 3000 }, (_, i) => `Q${String(i).padStart(5, '0')}-1`);
  for (let i = 0; i < nos.length; i += 500) {
    await db
      .insertInto('article')
      .values(
        nos.slice(i, i + 500).map((article_no, j) => ({
          article_no,
          model_no: article_no.slice(0, 6),
          colour_code: '1',
          colour_description: '{}',
          description: '{}',
          model_description: '{}',
          search_name1: '{}',
          search_name2: '{}',
          search_name3: '{}',
          brand: 'B',
          season: 'S',
          article_group: 'G',
          vat_rate_bp: 2100,
          size_table_code: 'CONF',
          active: 1,
          retail: (i + j) % 5 === 0 ? 0 : 1,
          deleted: 0,
          scn: 2,
          created_at: 'now',
          updated_at: 'now',
        })),
      )
      .execute();
  }
  for (const [code, wholesale, retail] of [
    ['WH', 1, 1],
    ['AMS', 0, 1],
    ['UTR', 0, 1],
  ] as const) {
    await db
      .insertInto('stock_location')
      .values({
        code,
        name: code,
        kind: code === 'WH' ? 'WAREHOUSE' : 'SHOP',
        serves_wholesale: wholesale,
        serves_retail: retail,
        active: 1,
        address: null,
        house_number: null,
        postal_code: null,
        city: null,
        country: null,
        deleted: 0,
        scn: 3,
        created_at: 'now',
        updated_at: 'now',
      })
      .execute();
  }
  const levels = nos.flatMap((article_no, a) =>
    ['XS', 'S', 'M', 'L', 'XL', 'XXL'].flatMap((sizex) =>
      (a % 2 === 0 ? ['WH', 'AMS', 'UTR'] : ['WH']).map((location_code) => ({
        article_no,
        sizex,
        location_code,
        on_hand: 5,
        reserved: 1,
        scn: 4,
      })),
    ),
  );
  for (let i = 0; i < levels.length; i += 500) {
    await db
      .insertInto('stock_level')
      .values(levels.slice(i, i + 500))
      .execute();
  }
  since = 4;
  // a few changes after it: what a feed from it reads
  await sql`UPDATE stock_level SET scn = 5 WHERE pos % 2000 = 7`.execute(db);
  await sql`UPDATE article SET scn = 5 WHERE article_no = 'Q01000-1'`.execute(db);
  // planner statistics as the server keeps them (SQLite: statistics.ts; PostgreSQL: autovacuum's)
  if (ENGINE === 'sqlite') expect(await refreshStatistics(t.database)).toContain('stock_level');
  else await sql`ANALYZE`.execute(db);
}, 120_000);
afterAll(() => t.close());

describe(`stock list and feed queries use their indexes (${ENGINE})`, () => {
  it('the feeds read what changed off the scn indexes, then the levels by position', async () => {
    for (const location of [undefined, 'AMS']) {
      for (const audience of ['B2B', 'B2C'] as const) {
        const plan = await planOf((repo) => repo.levelsPage(audience, since, 1, 101, location));
        const said = `${audience} ${location ?? ''}\n${plan}`;
        expect(plan, said).toMatch(/stock_level_scn/);
        expect(plan, said).toMatch(/article_scn/);
        // each changed level looked up by its position (with the location, either index has it)
        expect(['stock_level_pos', 'stock_level_location_pos'], said).toContain(levelsRead(plan));
        expect(plan, said).not.toMatch(/SCAN (l|stock_level|article)\b|Seq Scan/);
      }
    }
  });

  it('the lists read the position index (or the location’s) in order, without a sort', async () => {
    for (const location of [undefined, 'AMS']) {
      for (const audience of ['B2B', 'B2C'] as const) {
        for (const from of [1, 20_000]) {
          const plan = await planOf((repo) => repo.levelsPage(audience, 0, from, 501, location));
          const said = `${audience} ${location ?? ''} from ${from}\n${plan}`;
          expect(levelsRead(plan), said).toBe(location ? 'stock_level_location_pos' : 'stock_level_pos');
          expect(sorts(plan), said).toBe(false);
          expect(plan, said).not.toMatch(
            /SCAN (l|stock_level|article|a)\b|BLOOM FILTER ON (a|article)\b|Seq Scan/,
          );
        }
      }
    }
  });

  it('one article’s stock reads the article, its sizes and its levels by key', async () => {
    const plan = await planOf((repo) => repo.articleStock('B2C', 'Q01000-1'));
    expect(plan).toMatch(
      // SQLite: the levels are the table's own key range (a WITHOUT ROWID table, migration 0042)
      ENGINE === 'sqlite' ? /SEARCH l USING PRIMARY KEY \(article_no=\?\)/ : /stock_level_pk/,
    );
    expect(plan).not.toMatch(/SCAN (l|stock_level|article|a|s)\b|Seq Scan on (stock_level|article)/);
    if (ENGINE === 'sqlite') {
      // the article's flags and its sizes from covering indexes (migration 0046), not from the
      // tables' rows (an article's row holds its texts: a page of its own for each article asked)
      expect(plan).toMatch(/SEARCH (a|article) USING COVERING INDEX article_flags \(article_no=\?\)/);
      expect(plan).toMatch(
        /SEARCH (s|article_size) USING COVERING INDEX article_size_positions \(article_no=\?\)/,
      );
    }
  });
});
