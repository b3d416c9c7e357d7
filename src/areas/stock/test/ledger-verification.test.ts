import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { article, barcode, sizeTable } from '../../../../test/helpers/fixtures.ts';
import { ENGINE, startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';

/**
 * verifyLedger is what every stock test leans on to say "the ledger holds" (each level is the sum of
 * its movements). Here the ledger is broken behind the services' back, straight in the tables, and
 * the check must name exactly the broken level, with what it holds and what its movements add up to.
 */

let t: TestApp;
const ARTICLE = 'L100-010';
const at = (sizex: string) => ({ articleNo: ARTICLE, sizex, locationCode: 'WH' });

beforeAll(async () => {
  t = await startTestApp();
  await t.services.catalog.saveSizeTable(sizeTable('CONF', ['S', 'M', 'L', 'XL']));
  await t.services.catalog.saveArticles([
    article(ARTICLE, { sizes: ['S', 'M', 'L', 'XL'].map((sizex) => ({ sizex, barcode: barcode() })) }),
  ]);
  await t.services.stock.locations.createLocation({
    code: 'WH',
    name: 'Warehouse',
    kind: 'WAREHOUSE',
    servesWholesale: true,
    servesRetail: true,
  });
  // M: 5 received, 1 reserved, through the services: level and movements agree.
  await t.services.stock.ledger.receive({ ...at('M'), quantity: 5 });
  await t.services.stock.ledger.reserve({ ...at('M'), quantity: 1 });
});
afterAll(() => t.close());

const verify = () => t.services.stock.ledger.verifyLedger();

function level(sizex: string) {
  return t.database.db
    .updateTable('stock_level')
    .where('article_no', '=', ARTICLE)
    .where('sizex', '=', sizex)
    .where('location_code', '=', 'WH');
}

describe(`verifyLedger (${ENGINE})`, () => {
  it('reports nothing while every level is the sum of its movements', async () => {
    expect(await t.services.stock.ledger.level(at('M'))).toMatchObject({ onHand: 5, reserved: 1 });
    expect(await verify()).toEqual([]);
  });

  it('reports a level whose on hand changed without a movement, and only that one', async () => {
    await level('M').set({ on_hand: sql`on_hand + 2` }).execute();
    try {
      expect(await verify()).toEqual([
        {
          article_no: ARTICLE,
          sizex: 'M',
          location_code: 'WH',
          on_hand: 7,
          reserved: 1,
          sum_on_hand: 5,
          sum_reserved: 1,
        },
      ]);
    } finally {
      await level('M').set({ on_hand: sql`on_hand - 2` }).execute();
    }
    expect(await verify()).toEqual([]);
  });

  it('reports a level whose reservation changed without a movement', async () => {
    await level('M').set({ reserved: 0 }).execute();
    try {
      expect(await verify()).toEqual([
        {
          article_no: ARTICLE,
          sizex: 'M',
          location_code: 'WH',
          on_hand: 5,
          reserved: 0,
          sum_on_hand: 5,
          sum_reserved: 1,
        },
      ]);
    } finally {
      await level('M').set({ reserved: 1 }).execute();
    }
    expect(await verify()).toEqual([]);
  });

  it('reports movements that have no level, with their sums', async () => {
    const scn = (await t.services.stock.ledger.level(at('M'))).scn;
    await t.database.db
      .insertInto('stock_movement')
      .values(
        [3, 4].map((quantity) => ({
          scn,
          article_no: ARTICLE,
          sizex: 'S',
          location_code: 'WH',
          reason: 'RECEIPT' as const,
          on_hand_delta: quantity,
          reserved_delta: 0,
          reference: 'written around the ledger',
          created_at: new Date().toISOString(),
        })),
      )
      .execute();
    const remove = () =>
      t.database.db
        .deleteFrom('stock_movement')
        .where('article_no', '=', ARTICLE)
        .where('sizex', '=', 'S')
        .execute();
    try {
      expect(await verify()).toEqual([
        {
          article_no: ARTICLE,
          sizex: 'S',
          location_code: 'WH',
          on_hand: null,
          reserved: null,
          sum_on_hand: 7,
          sum_reserved: 0,
        },
      ]);
    } finally {
      await remove();
    }
    expect(await verify()).toEqual([]);
  });

  it('reports a level that has no movement at all', async () => {
    const scn = (await t.services.stock.ledger.level(at('M'))).scn;
    await t.database.db
      .insertInto('stock_level')
      .values({ article_no: ARTICLE, sizex: 'L', location_code: 'WH', on_hand: 4, reserved: 0, scn })
      .execute();
    try {
      expect(await verify()).toEqual([
        {
          article_no: ARTICLE,
          sizex: 'L',
          location_code: 'WH',
          on_hand: 4,
          reserved: 0,
          sum_on_hand: null,
          sum_reserved: null,
        },
      ]);
    } finally {
      await t.database.db
        .deleteFrom('stock_level')
        .where('article_no', '=', ARTICLE)
        .where('sizex', '=', 'L')
        .execute();
    }
    expect(await verify()).toEqual([]);
  });
});
