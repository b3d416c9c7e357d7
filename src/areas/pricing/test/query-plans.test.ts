import { CompiledQuery, type Kysely, type KyselyPlugin, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE, startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import type { DB } from '../../../kernel/db/schema.ts';
import { refreshStatistics } from '../../../kernel/db/statistics.ts';
import { ArticlePriceRepository } from '../article-price-repository.ts';
import { PricingRepository } from '../pricing-repository.ts';

/**
 * Every pricing list and feed query is an index range read (docs/pricing.md, "Paging"): a feed
 * after a few changes reads the `scn` index, a list the unique `pos` index in its order (no sort),
 * B2B_GetAllPrices' prices the list prices' key by article, and the price of one article
 * (B2B_GetArticlePrice) only keys. Asserted on the planners' own EXPLAIN output, with planner
 * statistics taken as the server takes them, on tables large enough for a full scan to be the
 * planner's other choice. On PostgreSQL the plans are asked with sequential scans disabled: what is
 * checked is that an index can serve the query (which one the planner takes then still depends on
 * the statistics, as it does in use).
 */

const ARTICLES = 3000;
/** Rows changed after this SCN: about a hundred per table, what a feed from it reads. */
const RECENT = 1000;

let t: TestApp;

/** The plan of the first statement `run` makes, as the engine explains it (one line per step). */
async function planOf(run: (db: Kysely<DB>) => Promise<unknown>): Promise<string> {
  const db = t.database.db;
  const captured: CompiledQuery[] = [];
  const capture: KyselyPlugin = {
    transformQuery({ node, queryId }) {
      captured.push(db.getExecutor().compileQuery(node, queryId));
      return node;
    },
    async transformResult({ result }) {
      return result;
    },
  };
  await run(db.withPlugin(capture));
  // the outermost query is compiled last (its subqueries first)
  const query = captured.at(-1);
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

const repo = (db: Kysely<DB>) => new PricingRepository(db);
const noSort = (plan: string) => !/TEMP B-TREE|Sort/.test(plan);
/** A table read whole: SQLite's SCAN of a table, PostgreSQL's sequential scan. */
const fullScan = (plan: string) => /^\s*SCAN (?!CONSTANT ROW|\()\w+$/m.test(plan) || /Seq Scan/.test(plan);
const N = (n: number) =>
  sql.raw(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${n})`);

beforeAll(async () => {
  t = await startTestApp();
  const db = t.database.db;
  await t.services.catalog.saveSizeTable({ code: 'CONF', description: {}, sizes: ['S', 'M'] });
  await t.services.pricing.customers.saveCustomers(
    Array.from({ length: 200 }, (_, i) => ({
      customerNo: i + 1,
      name: `Customer ${i + 1}`,
      priceGroup: 2,
      customerGroup: i % 2 === 0 ? `G${i % 4}` : null,
      currency: 'EUR',
    })),
  );
  // A synthetic world written at once (through the services it would take minutes): articles of
  // two sizes, six list prices each, an agreement, a line discount and an action price per article,
  // one in ten deleted; about a hundred rows of each table changed after RECENT.
  const deleted = sql`CASE WHEN i % 10 = 0 THEN 1 ELSE 0 END`;
  const scn = sql`CASE WHEN i % ${Math.floor(ARTICLES / 100)} = 0 THEN ${RECENT} + i ELSE 1 + i % 50 END`;
  await sql`${N(ARTICLES)} INSERT INTO article (article_no, model_no, colour_code, colour_description, description,
      model_description, search_name1, search_name2, search_name3, brand, season, article_group, vat_rate_bp,
      size_table_code, active, retail, deleted, scn, created_at, updated_at)
    SELECT 'A' || (100000 + i), 'M' || (10000 + i / 5), '010', '{}', '{}', '{}', '{}', '{}', '{}', 'B', 'S',
      'G' || (i % 20), 2100, 'CONF', 1, 1, 0, ${scn}, 'x', 'x' FROM n`.execute(db);
  for (const [sizex, position] of [
    ['S', 1],
    ['M', 2],
  ] as const) {
    await sql`${N(ARTICLES)} INSERT INTO article_size (article_no, sizex, position, barcode)
      SELECT 'A' || (100000 + i), ${sizex}, ${position}, ${sizex} || i FROM n`.execute(db);
    for (const [type, group] of [
      ['RECOMMENDED', 1],
      ['SELLING', 1],
      ['SELLING', 2],
    ] as const) {
      await sql`${N(ARTICLES)} INSERT INTO list_price (article_no, price_type, price_group, currency, sizex, price_minor, deleted, scn)
        SELECT 'A' || (100000 + i), ${type}, ${group}, 'EUR', ${sizex}, 1000 + i, ${deleted}, ${scn} FROM n`.execute(
        db,
      );
    }
  }
  await sql`${N(ARTICLES)} INSERT INTO price_article (article_no, deleted, scn, pos)
    SELECT 'A' || (100000 + i), ${deleted}, ${scn}, i FROM n`.execute(db);
  await sql`${N(ARTICLES)} INSERT INTO price_agreement (customer_no, customer_group, scope, scope_value, min_quantity,
      valid_from, valid_to, kind, discount_bp, deleted, scn, created_at, updated_at)
    SELECT CASE WHEN i % 3 = 0 THEN NULL ELSE 1 + i % 200 END, CASE WHEN i % 3 = 0 THEN 'G' || (i % 4) ELSE NULL END,
      'ARTICLE', 'A' || (100000 + i), 1, '2026-01-01', NULL, 'NETPRICE', NULL, ${deleted}, ${scn}, 'x', 'x' FROM n`.execute(
    db,
  );
  await sql`INSERT INTO price_agreement_price (agreement_id, currency, price_minor)
    SELECT id, 'EUR', 777 FROM price_agreement`.execute(db);
  await sql`${N(ARTICLES)} INSERT INTO customer_line_discount (customer_no, scope, scope_value, discount_bp, valid_from,
      valid_to, deleted, scn, created_at, updated_at)
    SELECT 1 + i % 200, 'MODEL', 'M' || (10000 + i / 5), 300, '2026-01-01', NULL, ${deleted}, ${scn}, 'x', 'x' FROM n`.execute(
    db,
  );
  await sql`${N(ARTICLES)} INSERT INTO action_price (article_no, sizex, currency, price_minor, start_date, end_date,
      deleted, scn, created_at, updated_at)
    SELECT 'A' || (100000 + i), NULL, 'EUR', 900, '2026-01-01', '2026-12-31', ${deleted}, ${scn}, 'x', 'x' FROM n`.execute(
    db,
  );
  // planner statistics as the server keeps them (SQLite: statistics.ts; PostgreSQL: autovacuum's)
  if (ENGINE === 'sqlite') expect(await refreshStatistics(t.database)).toContain('list_price');
  else await sql`ANALYZE`.execute(db);
}, 120_000);
afterAll(() => t.close());

const MIDDLE = ARTICLES / 2;

describe(`pricing list and feed queries use their index (${ENGINE})`, () => {
  it('B2B_GetAllPrices: the list reads the article positions in order, the feed the scn index, the prices the key', async () => {
    const list = await planOf((db) => repo(db).priceArticlesPage(0, MIDDLE, 1001));
    expect(list).toMatch(/price_article_pos/);
    expect(noSort(list), list).toBe(true);
    const feed = await planOf((db) => repo(db).priceArticlesPage(RECENT, 1, 1001));
    expect(feed).toMatch(/price_article_scn/);
    const page = Array.from({ length: 1000 }, (_, i) => `A${100000 + MIDDLE + i}`);
    const prices = await planOf((db) => repo(db).livePricesOf(page));
    // SQLite: the table's own key (a WITHOUT ROWID table, migration 0047)
    expect(prices).toMatch(
      ENGINE === 'sqlite' ? /list_price USING PRIMARY KEY|\bp USING PRIMARY KEY/ : /list_price_pk/,
    );
    expect(fullScan(prices), prices).toBe(false);
  });

  it('B2B_GetPriceChanges: the list reads the pos index in order, the feed the scn index', async () => {
    const list = await planOf((db) => repo(db).listPricesPage(0, MIDDLE, 1001));
    expect(list).toMatch(/list_price_pos/);
    expect(noSort(list), list).toBe(true);
    const feed = await planOf((db) => repo(db).listPricesPage(RECENT, 1, 1001));
    expect(feed).toMatch(/list_price_scn/);
  });

  it('agreements and line discounts: lists by pos (a customer’s by customer and pos), feeds by scn', async () => {
    const list = await planOf((db) => repo(db).agreementsPage(0, MIDDLE, 101));
    expect(list).toMatch(/price_agreement_pos/);
    expect(noSort(list), list).toBe(true);
    expect(await planOf((db) => repo(db).agreementsPage(RECENT, 1, 101))).toMatch(/price_agreement_scn/);
    const own = await planOf((db) =>
      repo(db).agreementsPage(0, 1, 101, { customerNo: 7, customerGroup: null }),
    );
    // (the few rows of one customer: PostgreSQL may read them off an index by customer and sort them)
    expect(own).toMatch(/price_agreement_customer_pos/);
    const party = await planOf((db) =>
      repo(db).agreementsPage(0, 1, 101, { customerNo: 7, customerGroup: 'G1' }),
    );
    expect(fullScan(party), party).toBe(false);

    const lines = await planOf((db) => repo(db).lineDiscountsPage(0, MIDDLE, 101));
    expect(lines).toMatch(/customer_line_discount_pos/);
    expect(noSort(lines), lines).toBe(true);
    expect(await planOf((db) => repo(db).lineDiscountsPage(RECENT, 1, 101))).toMatch(
      /customer_line_discount_scn/,
    );
    const ofCustomer = await planOf((db) => repo(db).lineDiscountsPage(0, 1, 101, 7));
    expect(ofCustomer).toMatch(/customer_line_discount_(customer_pos|scope)/);
  });

  it('action prices: the lists read the pos index in order, the feed the scn indexes of both tables', async () => {
    for (const day of ['2026-06-01', null]) {
      const list = await planOf((db) => repo(db).actionPricesPage(0, MIDDLE, 501, day));
      expect(list).toMatch(/action_price_pos/);
      expect(noSort(list), list).toBe(true);
    }
    const feed = await planOf((db) => repo(db).actionPricesPage(RECENT, 1, 501, '2026-06-01'));
    expect(feed).toMatch(/action_price_scn/);
    expect(feed).toMatch(/article_scn/);
    expect(fullScan(feed), feed).toBe(false);
  });

  it('the price of one article for a customer reads keys only', async () => {
    const plan = await planOf((db) =>
      new ArticlePriceRepository(db).priceFacts({
        articleNo: `A${100000 + MIDDLE + 1}`,
        sizex: 'M',
        customerNo: 7,
        customerGroup: 'G1',
        priceGroup: 2,
        currency: 'EUR',
      }),
    );
    expect(plan).toMatch(/price_agreement_scope/);
    expect(plan).toMatch(/customer_line_discount_scope/);
    expect(fullScan(plan), plan).toBe(false);
  });

  it('the price of one article read with the customer’s terms reads keys only', async () => {
    for (const currency of [null, 'EUR']) {
      const plan = await planOf((db) =>
        new ArticlePriceRepository(db).customerPriceFacts({
          articleNo: `A${100000 + MIDDLE + 1}`,
          sizex: 'M',
          customerNo: 7,
          currency,
        }),
      );
      expect(plan).toMatch(/price_agreement_scope/);
      expect(plan).toMatch(/customer_line_discount_scope/);
      expect(fullScan(plan), plan).toBe(false);
      if (ENGINE === 'sqlite') {
        // the selling and recommended prices are each one search of the table itself (a WITHOUT
        // ROWID table, migration 0047), not of a key index and then the rowid b-tree
        const byKey = plan.match(
          /SEARCH p USING PRIMARY KEY \(article_no=\? AND price_type=\? AND price_group=\? AND currency=\? AND sizex=\?\)/g,
        );
        expect(byKey, plan).toHaveLength(2);
      }
    }
  });
});
