import { onPostgres } from '../../kernel/db/engine.ts';
import type { AreaSqlExamples } from '../../kernel/db/sql-examples.ts';
import { sqlExamplesOf } from '../../kernel/db/sql-examples.ts';
import { directReader } from '../../kernel/db/sqlite-reader.ts';
import { ReceiptRepository } from './receipt-repository.ts';
import { StockReadRepository } from './stock-read-repository.ts';
import { type LevelKey, type LocationRow, type MovementRow, StockRepository } from './stock-repository.ts';

// Example calls of the stock repository for the SQL snapshots (scripts/sql-snapshots.ts); they
// use the catalogue's seeded article 10001-100 (sizes S and M).

const AT = '2026-03-02T09:30:00.000Z';
const KEY: LevelKey = { articleNo: '10001-100', sizex: 'S', locationCode: 'WH1' };

function location(code: string, kind: LocationRow['kind'], scn: number): LocationRow {
  return {
    code,
    name: kind === 'SHOP' ? 'Nordwind Utrecht' : 'Central warehouse',
    kind,
    serves_wholesale: kind === 'SHOP' ? 0 : 1,
    serves_retail: 1,
    active: 1,
    address: 'Oudegracht',
    house_number: '12',
    postal_code: '3511 AB',
    city: 'Utrecht',
    country: 'NL',
    deleted: 0,
    scn,
    created_at: AT,
    updated_at: AT,
  };
}

function movement(sizex: string, onHandDelta: number, reservedDelta: number, scn: number): MovementRow {
  return {
    scn,
    article_no: '10001-100',
    sizex,
    location_code: 'WH1',
    reason: reservedDelta === 0 ? 'RECEIPT' : 'RESERVE',
    on_hand_delta: onHandDelta,
    reserved_delta: reservedDelta,
    reference: 'PO-2026-0042',
    created_at: AT,
  };
}

export const sqlExamples: AreaSqlExamples = {
  // Warehouse WH1 and shop SHOP1; 10 of 10001-100 size S at WH1, 2 of them reserved.
  async seed(db) {
    await db
      .insertInto('stock_location')
      .values([location('WH1', 'WAREHOUSE', 4), location('SHOP1', 'SHOP', 5)])
      .execute();
    await db
      .insertInto('stock_level')
      .values({ article_no: '10001-100', sizex: 'S', location_code: 'WH1', on_hand: 10, reserved: 2, scn: 6 })
      .execute();
    await db
      .insertInto('stock_movement')
      .values([movement('S', 10, 0, 6), movement('S', 0, 2, 6)])
      .execute();
  },
  repositories: [
    // PostgreSQL only (a data-modifying WITH): on SQLite the receipt is StockRepository's statements
    sqlExamplesOf(ReceiptRepository, {
      receive: (r, db) =>
        onPostgres(db) ? r.receive({ ...KEY, quantity: 3, reference: 'delivery 7' }, AT) : undefined,
    }),
    sqlExamplesOf(StockRepository, {
      addOnHand: (r) =>
        r.addOnHand(
          [
            { ...KEY, quantity: 5 },
            { ...KEY, sizex: 'M', quantity: 3 },
          ],
          100,
        ),
      findLocation: (r) => r.findLocation('WH1'),
      insertLocation: (r) => r.insertLocation(location('WH2', 'WAREHOUSE', 100)),
      insertMovements: (r) => r.insertMovements([movement('S', 5, 0, 100), movement('M', 3, 0, 100)]),
      ledgerMismatches: (r) => r.ledgerMismatches(),
      level: (r) => r.level(KEY),
      levelsOfArticle: {
        'every location': (r) => r.levelsOfArticle('10001-100'),
        'one location': (r) => r.levelsOfArticle('10001-100', 'WH1'),
      },
      levelsOfArticles: (r) => r.levelsOfArticles(['10001-100', '10002-200']),
      lockAvailable: (r) => r.lockAvailable(KEY),
      locationHoldsStock: (r) => r.locationHoldsStock('WH1'),
      locations: {
        live: (r) => r.locations(),
        'deleted included': (r) => r.locations(true),
      },
      movementsOf: (r) => r.movementsOf(KEY, 20),
      release: (r) => r.release(KEY, 1, 100),
      replaceLocation: (r) => r.replaceLocation({ ...location('WH1', 'WAREHOUSE', 100), name: 'North hub' }),
      reserve: (r) => r.reserve(KEY, 3, 100),
      reserveAll: (r) =>
        r.reserveAll(
          [
            { ...KEY, quantity: 3 },
            { ...KEY, sizex: 'M', quantity: 1 },
          ],
          100,
        ),
      ship: (r) => r.ship(KEY, 2, 100),
      stockedArticles: (r) => r.stockedArticles(['10001-100', '10002-200']),
      takeAvailable: (r) => r.takeAvailable(KEY, 4, 100),
      takeAvailableAll: (r) =>
        r.takeAvailableAll(
          [
            { ...KEY, quantity: 4 },
            { ...KEY, sizex: 'M', quantity: 1 },
          ],
          100,
        ),
      touchLevelsOfLocation: (r) => r.touchLevelsOfLocation('WH1', 100),
    }),
    sqlExamplesOf(StockReadRepository, {
      articleStock: {
        wholesale: (r) => r.articleStock('B2B', '10001-100'),
        'retail, one location': (r) => r.articleStock('B2C', '10001-100', 'SHOP1'),
      },
      // the same statement, run by a reader that makes no text (no reader thread here)
      articleStockText: (r, db) =>
        r.articleStockText('B2CGETARTICLESTOCK', 'B2C', '10001-100', undefined, {
          ...directReader(db),
          textOnThread: async (query) => {
            await db.executeQuery(query);
            return undefined;
          },
        }),
      levelsPage: {
        'wholesale, from the start': (r) => r.levelsPage('B2B', 0, 1, 100),
        'retail, from the start': (r) => r.levelsPage('B2C', 0, 1, 100),
        'retail, one location, from a position': (r) => r.levelsPage('B2C', 0, 3, 100, 'WH1'),
        'since an SCN': (r) => r.levelsPage('B2B', 5, 1, 100),
        'since an SCN, one location': (r) => r.levelsPage('B2C', 5, 1, 100, 'WH1'),
      },
    }),
  ],
};
