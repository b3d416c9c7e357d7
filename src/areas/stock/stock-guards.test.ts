import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { article, barcode, sizeTable } from '../../../test/helpers/fixtures.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { StockRepository } from './stock-repository.ts';

// The stock guards on their own: each conditional UPDATE changes a level only while the rule holds
// (available = on hand - reserved never below zero, nothing released or shipped that is not
// reserved, no reservation at an inactive or deleted location), and says by its answer whether it
// did. Through the services and under concurrent callers: test/locations-and-movements.test.ts,
// test/stock-reads-and-ledger.test.ts and test/stock-concurrency.test.ts.

let t: TestApp;
let repo: StockRepository;

const key = { articleNo: 'P100-010', sizex: 'M', locationCode: 'WH' };
const SCN = 77;

beforeAll(async () => {
  t = await startTestApp();
  await t.services.catalog.saveSizeTable(sizeTable('CONF', ['M', 'L']));
  await t.services.catalog.saveArticles([
    article(key.articleNo, { sizes: ['M', 'L'].map((sizex) => ({ sizex, barcode: barcode() })) }),
  ]);
  repo = new StockRepository(t.database.db);
  const at = '2030-01-01T00:00:00.000Z';
  const location = {
    name: 'Warehouse',
    kind: 'WAREHOUSE' as const,
    serves_wholesale: 1,
    serves_retail: 1,
    address: null,
    house_number: null,
    postal_code: null,
    city: null,
    country: null,
    scn: 1,
    created_at: at,
    updated_at: at,
  };
  await t.database.db
    .insertInto('stock_location')
    .values([
      { ...location, code: 'WH', active: 1, deleted: 0 },
      { ...location, code: 'SHUT', active: 0, deleted: 0 },
      { ...location, code: 'GONE', active: 1, deleted: 1 },
    ])
    .execute();
});
afterAll(() => t.close());

/** Sets the level of `key` at each location (and another size beside it, which must not change). */
async function levels(onHand: number, reserved: number): Promise<void> {
  await t.database.db.deleteFrom('stock_level').execute();
  const rows = ['WH', 'SHUT', 'GONE'].flatMap((locationCode) => [
    { article_no: key.articleNo, sizex: 'M', location_code: locationCode, on_hand: onHand, reserved, scn: 1 },
    { article_no: key.articleNo, sizex: 'L', location_code: locationCode, on_hand: onHand, reserved, scn: 1 },
  ]);
  await t.database.db.insertInto('stock_level').values(rows).execute();
}

async function stored(locationCode = 'WH', sizex = 'M') {
  return t.database.db
    .selectFrom('stock_level')
    .select(['on_hand', 'reserved', 'scn'])
    .where('article_no', '=', key.articleNo)
    .where('sizex', '=', sizex)
    .where('location_code', '=', locationCode)
    .executeTakeFirstOrThrow()
    .then((r) => ({ on_hand: Number(r.on_hand), reserved: Number(r.reserved), scn: Number(r.scn) }));
}

const row = (on_hand: number, reserved: number) =>
  expect.objectContaining({ ...levelKey, on_hand, reserved, scn: SCN });
const levelKey = { article_no: key.articleNo, sizex: 'M', location_code: 'WH' };

beforeEach(() => levels(10, 4));

describe('reserve', () => {
  it('reserves up to what is available, stamping the SCN, and no more', async () => {
    expect(await repo.reserve(key, 6, SCN)).toEqual(row(10, 10));
    expect(await stored()).toEqual({ on_hand: 10, reserved: 10, scn: SCN });
    expect(await repo.reserve(key, 1, SCN + 1)).toBeUndefined();
    expect(await stored()).toEqual({ on_hand: 10, reserved: 10, scn: SCN });
    // the other size and the other locations are untouched
    expect(await stored('WH', 'L')).toEqual({ on_hand: 10, reserved: 4, scn: 1 });
  });

  it('refuses more than is available, changing nothing', async () => {
    expect(await repo.reserve(key, 7, SCN)).toBeUndefined();
    expect(await stored()).toEqual({ on_hand: 10, reserved: 4, scn: 1 });
  });

  it('reserves nothing at an inactive or a deleted location', async () => {
    expect(await repo.reserve({ ...key, locationCode: 'SHUT' }, 1, SCN)).toBeUndefined();
    expect(await repo.reserve({ ...key, locationCode: 'GONE' }, 1, SCN)).toBeUndefined();
    expect(await stored('SHUT')).toEqual({ on_hand: 10, reserved: 4, scn: 1 });
    expect(await stored('GONE')).toEqual({ on_hand: 10, reserved: 4, scn: 1 });
  });
});

describe('takeAvailable', () => {
  it('takes on hand down to what is reserved, and no further', async () => {
    expect(await repo.takeAvailable(key, 6, SCN)).toEqual(row(4, 4));
    expect(await repo.takeAvailable(key, 1, SCN)).toBeUndefined();
    expect(await stored()).toEqual({ on_hand: 4, reserved: 4, scn: SCN });
  });

  it('refuses more than is available, changing nothing', async () => {
    expect(await repo.takeAvailable(key, 7, SCN)).toBeUndefined();
    expect(await stored()).toEqual({ on_hand: 10, reserved: 4, scn: 1 });
  });
});

describe('takeAvailableAll', () => {
  const at = (locationCode: string, sizex = 'M') => ({ ...key, locationCode, sizex });

  it('takes each level down by its own quantity, as far as what is reserved, in one call', async () => {
    const taken = await repo.takeAvailableAll(
      [
        { ...at('WH'), quantity: 6 },
        { ...at('WH', 'L'), quantity: 2 },
        { ...at('SHUT'), quantity: 1 },
      ],
      SCN,
    );
    const byKey = (rows: Array<{ location_code: string; sizex: string }>) =>
      [...rows].sort((a, b) => `${a.location_code}${a.sizex}`.localeCompare(`${b.location_code}${b.sizex}`));
    expect(byKey(taken)).toEqual([
      { article_no: key.articleNo, sizex: 'M', location_code: 'SHUT', on_hand: 9, reserved: 4, scn: SCN },
      { article_no: key.articleNo, sizex: 'L', location_code: 'WH', on_hand: 8, reserved: 4, scn: SCN },
      { article_no: key.articleNo, sizex: 'M', location_code: 'WH', on_hand: 4, reserved: 4, scn: SCN },
    ]);
    expect(await stored()).toEqual({ on_hand: 4, reserved: 4, scn: SCN });
    expect(await stored('WH', 'L')).toEqual({ on_hand: 8, reserved: 4, scn: SCN });
    expect(await stored('SHUT')).toEqual({ on_hand: 9, reserved: 4, scn: SCN });
    // the levels not named are untouched
    expect(await stored('GONE')).toEqual({ on_hand: 10, reserved: 4, scn: 1 });
    expect(await stored('SHUT', 'L')).toEqual({ on_hand: 10, reserved: 4, scn: 1 });
  });

  it('leaves out and leaves unchanged a level it would take below what is reserved', async () => {
    const taken = await repo.takeAvailableAll(
      [
        { ...at('WH'), quantity: 7 },
        { ...at('SHUT'), quantity: 6 },
      ],
      SCN,
    );
    expect(taken).toEqual([
      { article_no: key.articleNo, sizex: 'M', location_code: 'SHUT', on_hand: 4, reserved: 4, scn: SCN },
    ]);
    expect(await stored()).toEqual({ on_hand: 10, reserved: 4, scn: 1 });
    expect(await stored('SHUT')).toEqual({ on_hand: 4, reserved: 4, scn: SCN });
    // a level that does not exist is left out too, and no levels at all is no statement
    expect(await repo.takeAvailableAll([{ ...at('WH', 'XXL'), quantity: 1 }], SCN)).toEqual([]);
    expect(await repo.takeAvailableAll([], SCN)).toEqual([]);
  });

  it('takes more levels than fit in one statement', async () => {
    // 1,200 distinct keys: the three existing levels of size M among 1,197 sizes that do not exist
    const many = Array.from({ length: 1197 }, (_, i) => ({ ...at('WH', `N${i}`), quantity: 1 }));
    const taken = await repo.takeAvailableAll(
      [
        ...many.slice(0, 600),
        { ...at('WH'), quantity: 1 },
        { ...at('SHUT'), quantity: 2 },
        ...many.slice(600),
        { ...at('GONE'), quantity: 3 },
      ],
      SCN,
    );
    expect(taken.map((l) => [l.location_code, l.on_hand]).sort()).toEqual([
      ['GONE', 7],
      ['SHUT', 8],
      ['WH', 9],
    ]);
  });
});

describe('reserveAll', () => {
  const at = (locationCode: string, sizex = 'M') => ({ ...key, locationCode, sizex });

  it('reserves each level by its own quantity, as far as what is available, in one call', async () => {
    const reserved = await repo.reserveAll(
      [
        { ...at('WH'), quantity: 6 },
        { ...at('WH', 'L'), quantity: 2 },
      ],
      SCN,
    );
    const bySize = (rows: Array<{ sizex: string }>) =>
      [...rows].sort((a, b) => a.sizex.localeCompare(b.sizex));
    expect(bySize(reserved)).toEqual([
      { article_no: key.articleNo, sizex: 'L', location_code: 'WH', on_hand: 10, reserved: 6, scn: SCN },
      { article_no: key.articleNo, sizex: 'M', location_code: 'WH', on_hand: 10, reserved: 10, scn: SCN },
    ]);
    expect(await stored()).toEqual({ on_hand: 10, reserved: 10, scn: SCN });
    expect(await stored('WH', 'L')).toEqual({ on_hand: 10, reserved: 6, scn: SCN });
    // the levels not named are untouched
    expect(await stored('SHUT')).toEqual({ on_hand: 10, reserved: 4, scn: 1 });
  });

  it('leaves out and leaves unchanged a level short of stock, or at an inactive or deleted location', async () => {
    const reserved = await repo.reserveAll(
      [
        { ...at('WH'), quantity: 7 },
        { ...at('WH', 'L'), quantity: 6 },
        { ...at('SHUT'), quantity: 1 },
        { ...at('GONE'), quantity: 1 },
      ],
      SCN,
    );
    expect(reserved).toEqual([
      { article_no: key.articleNo, sizex: 'L', location_code: 'WH', on_hand: 10, reserved: 10, scn: SCN },
    ]);
    expect(await stored()).toEqual({ on_hand: 10, reserved: 4, scn: 1 });
    expect(await stored('SHUT')).toEqual({ on_hand: 10, reserved: 4, scn: 1 });
    expect(await stored('GONE')).toEqual({ on_hand: 10, reserved: 4, scn: 1 });
    // a level that does not exist is left out too, and no levels at all is no statement
    expect(await repo.reserveAll([{ ...at('WH', 'XXL'), quantity: 1 }], SCN)).toEqual([]);
    expect(await repo.reserveAll([], SCN)).toEqual([]);
  });

  it('keeps its statement compiled per count of levels, and the kept statement guards as the built one', async () => {
    const built: string[] = [];
    const counting = new StockRepository(
      t.database.db.withPlugin({
        transformQuery: ({ node }) => {
          built.push(node.kind);
          return node;
        },
        transformResult: async ({ result }) => result,
      }),
    );
    // three levels: a count no other test here uses, so the first call builds and keeps it
    const three = (m: number, l: number, shut: number) => [
      { ...at('WH'), quantity: m },
      { ...at('WH', 'L'), quantity: l },
      { ...at('SHUT'), quantity: shut },
    ];
    expect((await counting.reserveAll(three(1, 1, 1), SCN)).map((r) => r.reserved).sort()).toEqual([5, 5]);
    expect(built).not.toEqual([]);
    built.length = 0;
    // run again as kept, with other values: each level by its own quantity, the short one left out
    const again = await counting.reserveAll(three(6, 2, 1), SCN + 1);
    expect(built).toEqual([]);
    expect(again).toEqual([
      { article_no: key.articleNo, sizex: 'L', location_code: 'WH', on_hand: 10, reserved: 7, scn: SCN + 1 },
    ]);
    expect(await stored()).toEqual({ on_hand: 10, reserved: 5, scn: SCN });
  });

  it('reserves more levels than fit in one statement', async () => {
    const many = Array.from({ length: 1198 }, (_, i) => ({ ...at('WH', `N${i}`), quantity: 1 }));
    const reserved = await repo.reserveAll(
      [
        ...many.slice(0, 600),
        { ...at('WH'), quantity: 1 },
        ...many.slice(600),
        { ...at('WH', 'L'), quantity: 3 },
      ],
      SCN,
    );
    expect(reserved.map((l) => [l.sizex, l.reserved]).sort()).toEqual([
      ['L', 7],
      ['M', 5],
    ]);
  });
});

describe('release', () => {
  it('gives back up to what is reserved, and no more', async () => {
    expect(await repo.release(key, 4, SCN)).toEqual(row(10, 0));
    expect(await repo.release(key, 1, SCN)).toBeUndefined();
    expect(await stored()).toEqual({ on_hand: 10, reserved: 0, scn: SCN });
  });

  it('refuses more than is reserved, changing nothing', async () => {
    expect(await repo.release(key, 5, SCN)).toBeUndefined();
    expect(await stored()).toEqual({ on_hand: 10, reserved: 4, scn: 1 });
  });
});

describe('ship', () => {
  it('takes reserved stock off on hand and reserved together, up to what is reserved', async () => {
    expect(await repo.ship(key, 3, SCN)).toEqual(row(7, 1));
    expect(await repo.ship(key, 1, SCN)).toEqual(row(6, 0));
    expect(await repo.ship(key, 1, SCN)).toBeUndefined();
    expect(await stored()).toEqual({ on_hand: 6, reserved: 0, scn: SCN });
  });

  it('refuses more than is reserved, changing nothing', async () => {
    expect(await repo.ship(key, 5, SCN)).toBeUndefined();
    expect(await stored()).toEqual({ on_hand: 10, reserved: 4, scn: 1 });
  });
});

describe('a level that does not exist', () => {
  it('is changed by no guard', async () => {
    const none = { ...key, sizex: 'XXL' };
    expect(await repo.reserve(none, 1, SCN)).toBeUndefined();
    expect(await repo.takeAvailable(none, 1, SCN)).toBeUndefined();
    expect(await repo.release(none, 1, SCN)).toBeUndefined();
    expect(await repo.ship(none, 1, SCN)).toBeUndefined();
  });
});
