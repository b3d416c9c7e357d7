import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { article, sizeTable, toEan13 } from '../../../../test/helpers/fixtures.ts';
import { StatementCounter } from '../../../../test/helpers/statement-counter.ts';
import { ENGINE, startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { StockTakeService } from '../stock-take-service.ts';

/**
 * PUT /TV2/Admin/stock/levels with many levels at once (a stock take): the levels that go down are
 * taken down by one conditional UPDATE per 500 levels (StockRepository.takeAvailableAll), not one
 * statement per level, and still never below what is reserved.
 */

let t: TestApp;
let admin: string;

const SIZES = ['S', 'M', 'L', 'XL'];
const LOCATIONS = ['WH', 'AMS', 'UTR'];
const ARTICLES = Array.from({ length: 100 }, (_, i) => `K${String(i).padStart(3, '0')}-1`);
/** 1,200 levels: every article, size and location. */
const KEYS = ARTICLES.flatMap((ARTICLE) =>
  SIZES.flatMap((SIZEX) => LOCATIONS.map((LOCATION) => ({ LOCATION, ARTICLE, SIZEX }))),
);
type Key = (typeof KEYS)[number];
const keyText = (k: { LOCATION: string; ARTICLE: string; SIZEX: string }) =>
  `${k.LOCATION}|${k.ARTICLE}|${k.SIZEX}`;

/** Reserved at every fifth level (two units), set before the second count. */
const reservedAt = (i: number) => (i % 5 === 0 ? 2 : 0);
const firstCount = (i: number) => 10 + (i % 7);
/** The second count: down, up, the same, and down to exactly what is reserved, in turn. */
function secondCount(i: number): number {
  const first = firstCount(i);
  return [first - 3, first + 4, first, reservedAt(i)][i % 4] ?? first;
}

const put = (levels: Array<Key & { ONHAND: number }>, reason: string) =>
  t.send(admin, 'PUT', '/TV2/Admin/stock/levels', { REASON: reason, LEVELS: levels });

async function stored(): Promise<Map<string, { onHand: number; reserved: number }>> {
  const rows = await t.database.db
    .selectFrom('stock_level')
    .select(['location_code', 'article_no', 'sizex', 'on_hand', 'reserved'])
    .execute();
  return new Map(
    rows.map((r) => [
      keyText({ LOCATION: r.location_code, ARTICLE: r.article_no, SIZEX: r.sizex }),
      { onHand: Number(r.on_hand), reserved: Number(r.reserved) },
    ]),
  );
}

async function corrections(reason: string): Promise<Map<string, number>> {
  const rows = await t.database.db
    .selectFrom('stock_movement')
    .select(['location_code', 'article_no', 'sizex', 'on_hand_delta', 'reserved_delta', 'reason'])
    .where('reference', '=', reason)
    .execute();
  for (const r of rows) expect([r.reason, Number(r.reserved_delta)]).toEqual(['CORRECTION', 0]);
  return new Map(
    rows.map((r) => [
      keyText({ LOCATION: r.location_code, ARTICLE: r.article_no, SIZEX: r.sizex }),
      Number(r.on_hand_delta),
    ]),
  );
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.tokenFor(['ADMIN']);
  await t.services.catalog.saveSizeTable(sizeTable('CONF', SIZES));
  await t.services.catalog.saveArticles(
    ARTICLES.map((no, a) =>
      article(no, {
        sizes: SIZES.map((sizex, s) => ({
          sizex,
          barcode: toEan13(`875${String(a * 10 + s).padStart(9, '0')}`),
        })),
      }),
    ),
  );
  for (const code of LOCATIONS) {
    await t.services.stock.locations.createLocation({
      code,
      name: code,
      kind: code === 'WH' ? 'WAREHOUSE' : 'SHOP',
      servesWholesale: code === 'WH',
      servesRetail: true,
    });
  }
}, 120_000);
afterAll(() => t.close());

describe(`PUT /TV2/Admin/stock/levels with many levels (${ENGINE})`, () => {
  it('sets 1,200 levels, some down, some up, some unchanged, with one correction movement each that changed', async () => {
    const first = await put(
      KEYS.map((k, i) => ({ ...k, ONHAND: firstCount(i) })),
      'count 1',
    );
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ CHANGED: 1200, UNCHANGED: 0 });
    for (const [i, k] of KEYS.entries()) {
      if (reservedAt(i) > 0) {
        await t.services.stock.ledger.reserve({
          locationCode: k.LOCATION,
          articleNo: k.ARTICLE,
          sizex: k.SIZEX,
          quantity: reservedAt(i),
        });
      }
    }

    const second = await put(
      KEYS.map((k, i) => ({ ...k, ONHAND: secondCount(i) })),
      'count 2',
    );
    expect(second.statusCode, second.body).toBe(200);
    // every fourth level (i % 4 === 2) was counted at what it had; at i % 4 === 3 the level went to
    // what is reserved there, which for a level without reservations is 0
    expect(second.json()).toEqual({ CHANGED: 900, UNCHANGED: 300 });

    const levels = await stored();
    const moved = await corrections('count 2');
    expect(levels.size).toBe(1200);
    for (const [i, k] of KEYS.entries()) {
      const said = `${i} ${keyText(k)}`;
      expect(levels.get(keyText(k)), said).toEqual({ onHand: secondCount(i), reserved: reservedAt(i) });
      const delta = secondCount(i) - firstCount(i);
      expect(moved.get(keyText(k)), said).toBe(delta === 0 ? undefined : delta);
    }
    expect(moved.size).toBe(900);
    expect(await t.services.stock.ledger.verifyLedger()).toEqual([]);
  });

  it('refuses the whole count when one level would go below what is reserved, writing nothing', async () => {
    const before = await stored();
    // all 1,200 levels down by one where they can; record 1,000 (reserved 2) to 1
    const levels = KEYS.map((k, i) => ({ ...k, ONHAND: Math.max(reservedAt(i), secondCount(i) - 1) }));
    const target = levels[1000];
    if (!target || reservedAt(1000) !== 2) throw new Error('record 1000 has 2 reserved');
    target.ONHAND = 1;
    const res = await put(levels, 'count 3');
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().code).toBe('INSUFFICIENT_STOCK');
    expect(res.json().detail).toMatch(/Record 1000: .*cannot be set to 1: 2 are reserved/);
    expect(await stored()).toEqual(before);
    expect((await corrections('count 3')).size).toBe(0);
  });

  it('takes a bounded number of statements, whatever the number of levels going down', async () => {
    const counter = new StatementCounter();
    const stockTake = new StockTakeService({ ...t.database, db: t.database.db.withPlugin(counter) });
    const down = (keys: Key[], by: number) =>
      keys.map((k) => ({ locationCode: k.LOCATION, articleNo: k.ARTICLE, sizex: k.SIZEX, onHand: 0 + by }));
    // levels without reservations, all going down (to 1, then to 0)
    const free = KEYS.filter((_, i) => reservedAt(i) === 0 && i % 4 !== 3);
    counter.count = 0;
    expect(await stockTake.setLevels(down(free.slice(0, 12), 1))).toEqual({ changed: 12, unchanged: 0 });
    const few = counter.count;
    counter.count = 0;
    expect(await stockTake.setLevels(down(free, 0))).toEqual({ changed: free.length, unchanged: 0 });
    const many = counter.count;
    expect(free.length).toBeGreaterThan(600);
    // one more statement per 500 levels per step (read, take, ledger), not one per level
    expect(many - few).toBeLessThanOrEqual(3 * Math.ceil(free.length / 500));
    expect(many).toBeLessThan(40);
  });
});
