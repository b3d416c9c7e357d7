import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ENGINE, withMigratedDatabase } from '../../../test/helpers/test-app.ts';
import { MIGRATIONS } from '../../areas.ts';
import { type Database, migrate } from './database.ts';
import { afterWrite, refreshStatistics, staleTables, tableSize } from './statistics.ts';
import { inWriteTransaction } from './unit-of-work.ts';

let database: Database;
withMigratedDatabase((d) => {
  database = d;
});

async function addSizeTables(from: number, count: number): Promise<void> {
  await inWriteTransaction(database, async (uow) => {
    const scn = await uow.scn();
    for (let i = from; i < from + count; i++) {
      await uow.db
        .insertInto('size_table')
        .values({ code: `ST${String(i).padStart(5, '0')}`, description: '{}', deleted: 0, scn })
        .execute();
    }
  });
}

async function analysedRows(table: string): Promise<number | undefined> {
  const { rows } = await sql<{ stat: string }>`SELECT stat FROM sqlite_stat1 WHERE tbl = ${table}`.execute(
    database.db,
  );
  return rows.length === 0 ? undefined : Math.max(...rows.map((r) => Number.parseInt(r.stat, 10)));
}

describe.runIf(ENGINE === 'sqlite')('planner statistics (SQLite)', () => {
  it('analyses a table that has rows and no statistics, and then leaves it alone', async () => {
    await addSizeTables(0, 40);
    expect((await staleTables(database.db)).map((s) => s.table)).toContain('size_table');
    expect(await refreshStatistics(database)).toContain('size_table');
    expect(await analysedRows('size_table')).toBe(40);
    expect((await staleTables(database.db)).map((s) => s.table)).not.toContain('size_table');
    expect(await refreshStatistics(database)).toEqual([]);
  });

  it('analyses a table again when it gained an index without statistics (a migration), then leaves it alone', async () => {
    // size_table was analysed above with 40 rows. An index added since has no sqlite_stat1 row, and
    // SQLite's planner would rather use an index it has statistics for (0044's covering index of
    // the article's price facts went unused on upgraded databases).
    await sql`CREATE INDEX size_table_test_description ON size_table (description)`.execute(database.db);
    // an empty partial index: ANALYZE writes "0 0" for it, so it is not stale for ever after
    await sql`CREATE INDEX size_table_test_deleted ON size_table (code) WHERE deleted = 1`.execute(
      database.db,
    );
    try {
      expect((await staleTables(database.db)).map((s) => s.table)).toContain('size_table');
      expect(await refreshStatistics(database)).toContain('size_table');
      const { rows } = await sql<{ idx: string; stat: string }>`
        SELECT idx, stat FROM sqlite_stat1 WHERE idx LIKE 'size_table_test_%' ORDER BY idx`.execute(
        database.db,
      );
      expect(rows).toEqual([
        { idx: 'size_table_test_deleted', stat: '0 0' },
        { idx: 'size_table_test_description', stat: '40 40' },
      ]);
      expect(await refreshStatistics(database)).toEqual([]);
      expect(await analysedRows('size_table')).toBe(40);
    } finally {
      await sql`DROP INDEX size_table_test_description`.execute(database.db);
      await sql`DROP INDEX size_table_test_deleted`.execute(database.db);
    }
  });

  it('sizes a table by the span of its keys: numbers that start high are not growth (customers, clients)', async () => {
    // customers are numbered from 10001 and clients from 100001: max(rowid) alone read 12 customers
    // as 10,012 rows, more than twice the 12 analysed, and analysed them again at every start
    for (let no = 10001; no <= 10012; no++)
      await sql`INSERT INTO customer (customer_no, name, price_group, currency, scn, created_at, updated_at)
        VALUES (${no}, 'C', 1, 'EUR', 1, 'x', 'x')`.execute(database.db);
    for (let no = 100001; no <= 100012; no++)
      await sql`INSERT INTO client (client_no, language, scn, created_at, updated_at)
        VALUES (${no}, 'LANGUAGE_1', 1, 'x', 'x')`.execute(database.db);
    const stale = await staleTables(database.db);
    expect(stale.find((s) => s.table === 'customer')?.rows).toBe(12);
    expect(stale.find((s) => s.table === 'client')?.rows).toBe(12);
    const analysed = await refreshStatistics(database);
    expect(analysed).toContain('customer');
    expect(analysed).toContain('client');
    expect(await analysedRows('customer')).toBe(12);
    const again = await refreshStatistics(database);
    expect(again).not.toContain('customer');
    expect(again).not.toContain('client');
  });

  it('reads a table size off the two ends of its b-tree, never the whole table', async () => {
    for (const [table, column] of [
      ['customer', 'rowid'],
      ['stock_level', 'pos'],
    ] as const) {
      const { rows } = await sql<{ detail: string }>`EXPLAIN QUERY PLAN ${tableSize(table, column)}`.execute(
        database.db,
      );
      const details = rows.map((r) => r.detail);
      expect(details.filter((d) => d.startsWith('SEARCH'))).toHaveLength(2);
      expect(details.filter((d) => d.startsWith('SCAN') && d !== 'SCAN CONSTANT ROW')).toEqual([]);
    }
  });

  it('writes no sqlite_stat4 samples (analysis_limit), so no plan depends on a bound value through them', async () => {
    // better-sqlite3 is built with SQLITE_ENABLE_STAT4; a full ANALYZE would write samples, and a
    // statement whose plan could look at them is prepared again whenever new values are bound
    // (the driver hides parameters from the planner as well: sqlite-driver.ts, valueBlindSql)
    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM sqlite_stat4`.execute(database.db);
    expect(Number(rows[0]?.n)).toBe(0);
  });

  it('analyses again once a table more than doubled, at start (the migration step)', async () => {
    await addSizeTables(40, 30);
    // 70 rows against 40 analysed: not yet
    expect(await refreshStatistics(database)).toEqual([]);
    await addSizeTables(70, 20);
    await migrate(database, MIGRATIONS);
    expect(await analysedRows('size_table')).toBe(90);
  });

  it('looks again after writes as the data grows, at most every ten minutes, outside the transaction', async () => {
    // every write transaction tells afterWrite; the first one of this database noted the time
    await addSizeTables(90, 100);
    const start = Date.now();
    afterWrite(database, start + 60_000);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await analysedRows('size_table')).toBe(90);
    // ten and a half minutes after the first write of the file noted the time (9.5 after the call above)
    afterWrite(database, start + 10.5 * 60_000);
    for (let i = 0; i < 50 && (await analysedRows('size_table')) !== 190; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await analysedRows('size_table')).toBe(190);
  });

  it('sizes a WITHOUT ROWID table by its position (stock_level, migration 0042)', async () => {
    // last: its size table would count in the size_table tests above
    await sql`INSERT INTO size_table (code, description, deleted, scn) VALUES ('WRT', '{}', 0, 1)`.execute(
      database.db,
    );
    await sql`INSERT INTO article (article_no, model_no, colour_code, colour_description, description, model_description,
        search_name1, search_name2, search_name3, brand, season, article_group, vat_rate_bp, size_table_code, active,
        retail, deleted, scn, created_at, updated_at)
      SELECT 'WR-1', 'WR', '1', '{}', '{}', '{}', '{}', '{}', '{}', 'B', 'S', 'G', 2100, 'WRT', 1, 1, 0, 1, 'x', 'x'`.execute(
      database.db,
    );
    await sql`INSERT INTO stock_location (code, name, kind, serves_wholesale, serves_retail, active, deleted, scn, created_at, updated_at)
      VALUES ('WRL', 'L', 'WAREHOUSE', 1, 1, 1, 0, 1, 'x', 'x')`.execute(database.db);
    for (const sizex of ['S', 'M', 'L'])
      await sql`INSERT INTO stock_level (article_no, sizex, location_code, on_hand, reserved, scn)
        VALUES ('WR-1', ${sizex}, 'WRL', 1, 0, 1)`.execute(database.db);
    const stale = (await staleTables(database.db)).find((s) => s.table === 'stock_level');
    expect(stale?.rows).toBe(3);
    expect(await refreshStatistics(database)).toContain('stock_level');
  });
});

describe.runIf(ENGINE === 'postgres')('planner statistics (PostgreSQL)', () => {
  it('leaves them to the server', async () => {
    await addSizeTables(0, 5);
    expect(await refreshStatistics(database)).toEqual([]);
  });
});
