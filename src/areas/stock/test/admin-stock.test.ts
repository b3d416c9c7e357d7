import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectScnStep } from '../../../../test/helpers/scn.ts';
import { startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { IMPORT_KINDS } from '../../../areas.ts';
import { runImport } from '../../../kernel/import/run-import.ts';

let t: TestApp;
let admin: string;
let wholesale: string;

const send = (method: 'PUT' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
  t.send(admin, method, url, payload);

const articleStock = async (article: string) =>
  (await t.call('GET', 'B2B_GetArticleStock', { token: wholesale, query: { strarticle: article } })).json()
    .B2BGETARTICLESTOCK;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.tokenFor(['ADMIN']);
  wholesale = await t.tokenFor(['B2B']);
  for (const [kind, file] of [
    ['sizetables', 'examples/sizetables.csv'],
    ['articles', 'examples/articles.csv'],
  ] as const) {
    expect((await runImport(t.services, IMPORT_KINDS[kind]!, file)).rejected).toEqual([]);
  }
});
afterAll(() => t.close());

describe('stock through the admin area and the import', () => {
  it('imports locations and counted levels, and a second import changes nothing', async () => {
    const locations = await runImport(t.services, IMPORT_KINDS.locations!, 'examples/locations.csv');
    expect(locations).toMatchObject({ records: 2, written: 2, rejected: [] });
    const levels = await runImport(t.services, IMPORT_KINDS.stock!, 'examples/stock.csv');
    expect(levels).toMatchObject({ records: 5, written: 5, rejected: [] });

    // wholesale sees the warehouse only; the shop serves retail
    const stock = await articleStock('T2001-100');
    expect(stock.TOTALS).toEqual(
      expect.arrayContaining([expect.objectContaining({ SIZEX: 'S', ONHAND: 120, AVAILABLE: 120 })]),
    );

    const scnBefore = stock.SCN;
    expect(await runImport(t.services, IMPORT_KINDS.locations!, 'examples/locations.csv')).toMatchObject({
      written: 0,
      unchanged: 2,
    });
    expect(await runImport(t.services, IMPORT_KINDS.stock!, 'examples/stock.csv')).toMatchObject({
      written: 0,
      unchanged: 5,
    });
    expectScnStep(scnBefore, (await articleStock('T2001-100')).SCN, 0);
  });

  it('posts receipts, corrections and transfers with their reason into the ledger, seen by the change feed', async () => {
    const since = (await articleStock('T2001-900')).SCN;
    const receipt = await send('POST', '/TV2/Admin/stock/movements', {
      TYPE: 'RECEIPT',
      LOCATION: 'WH',
      ARTICLE: 'T2001-900',
      SIZEX: 'M',
      QUANTITY: 30,
      REASON: 'delivery note 4711',
    });
    expect(receipt.statusCode, receipt.body).toBe(200);
    expect(receipt.json().LEVELS[0]).toMatchObject({ LOCATION: 'WH', SIZEX: 'M', ONHAND: 30, AVAILABLE: 30 });

    const transfer = await send('POST', '/TV2/Admin/stock/movements', {
      TYPE: 'TRANSFER',
      LOCATION: 'WH',
      TOLOCATION: 'AMS',
      ARTICLE: 'T2001-900',
      SIZEX: 'M',
      QUANTITY: 5,
      REASON: 'replenish shop',
    });
    expect(
      transfer.json().LEVELS.map((l: { LOCATION: string; ONHAND: number }) => [l.LOCATION, l.ONHAND]),
    ).toEqual([
      ['WH', 25],
      ['AMS', 5],
    ]);

    const correction = await send('POST', '/TV2/Admin/stock/movements', {
      TYPE: 'CORRECTION',
      LOCATION: 'AMS',
      ARTICLE: 'T2001-900',
      SIZEX: 'M',
      SETTO: 4,
      REASON: 'count 2026-11-22',
    });
    expect(correction.json().LEVELS[0]).toMatchObject({ ONHAND: 4 });

    const tooMuch = await send('POST', '/TV2/Admin/stock/movements', {
      TYPE: 'TRANSFER',
      LOCATION: 'AMS',
      TOLOCATION: 'WH',
      ARTICLE: 'T2001-900',
      SIZEX: 'M',
      QUANTITY: 50,
      REASON: 'return',
    });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().code).toBe('INSUFFICIENT_STOCK');

    const movements = await t.services.stock.ledger.movements({
      locationCode: 'AMS',
      articleNo: 'T2001-900',
      sizex: 'M',
    });
    expect(movements.map((m) => m.reference)).toEqual(
      expect.arrayContaining(['replenish shop', 'count 2026-11-22']),
    );

    const feed = await t.call('GET', 'B2B_GetStockChanges', {
      token: wholesale,
      query: { strscn: String(since) },
    });
    const changed = feed
      .json()
      .B2BGETSTOCKCHANGES.STOCKS.filter((s: { ARTICLE: string }) => s.ARTICLE === 'T2001-900');
    expect(
      changed.map((s: { LOCATION: string; SIZEX: string; ONHAND: number }) => [
        s.LOCATION,
        s.SIZEX,
        s.ONHAND,
      ]),
    ).toEqual([['WH', 'M', 25]]);
    const retail = await t.tokenFor(['B2C']);
    const retailFeed = await t.call('GET', 'B2C_GetStockChanges', {
      token: retail,
      query: { strscn: String(since) },
    });
    const shop = retailFeed
      .json()
      .B2CGETSTOCKCHANGES.STOCKS.filter((s: { ARTICLE: string; LOCATION: string }) => s.LOCATION === 'AMS');
    expect(shop.map((s: { SIZEX: string; AVAILABLE: number }) => [s.SIZEX, s.AVAILABLE])).toEqual([['M', 4]]);
  });

  it('names a missing field of a movement', async () => {
    const res = await send('POST', '/TV2/Admin/stock/movements', {
      TYPE: 'TRANSFER',
      LOCATION: 'WH',
      ARTICLE: 'T2001-900',
      SIZEX: 'M',
      REASON: 'x',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { name: string }) => e.name)).toEqual(['/QUANTITY', '/TOLOCATION']);
  });

  it('checks the shape of a location, a movement and a correction by their schemas, naming each field', async () => {
    const names = async (method: 'PUT' | 'POST', url: string, body: unknown) => {
      const res = await send(method, url, body);
      expect(res.statusCode, res.body).toBe(400);
      return res.json().errors.map((e: { name: string }) => e.name);
    };
    const shop = { LOCATION: 'ROT', NAME: 'Rotterdam', KIND: 'SHOP', WHOLESALE: false, RETAIL: true };
    const bad = { ...shop, NAME: ' ', KIND: 'DEPOT', COUNTRY: 'nl', CITY: 'x'.repeat(101) };
    expect((await names('PUT', '/TV2/Admin/locations/ROT', bad)).sort()).toEqual([
      '/CITY',
      '/COUNTRY',
      '/KIND',
      '/NAME',
    ]);
    const { RETAIL: _retail, ...withoutRetail } = shop;
    expect(await names('PUT', '/TV2/Admin/locations/ROT', withoutRetail)).toEqual(['/RETAIL']);
    expect(await names('PUT', '/TV2/Admin/locations/ROT', { ...shop, ACTIVE: 'yes' })).toEqual(['/ACTIVE']);
    const saved = await send('PUT', '/TV2/Admin/locations/ROT', { ...shop, POSTALCODE: null, COUNTRY: null });
    expect(saved.statusCode, saved.body).toBe(200);

    const receipt = { TYPE: 'RECEIPT', LOCATION: 'WH', ARTICLE: 'T2001-900', SIZEX: 'M', REASON: 'delivery' };
    const url = '/TV2/Admin/stock/movements';
    expect((await send('POST', url, { ...receipt, QUANTITY: 1_000_000 })).statusCode).toBe(200);
    expect(await names('POST', url, { ...receipt, LOCATION: '', QUANTITY: 0 })).toEqual([
      '/LOCATION',
      '/QUANTITY',
    ]);
    expect(await names('POST', url, { ...receipt, QUANTITY: 1.5, REASON: 'x'.repeat(101) })).toEqual([
      '/QUANTITY',
      '/REASON',
    ]);

    const correction = {
      TYPE: 'CORRECTION',
      LOCATION: 'WH',
      ARTICLE: 'T2001-900',
      SIZEX: 'M',
      REASON: 'count',
    };
    expect(await names('POST', url, { ...correction, SETTO: 1, DELTA: 1 })).toEqual(['/SETTO']);
    for (const DELTA of [0, 1_000_001, -1_000_001]) {
      expect(await names('POST', url, { ...correction, DELTA })).toEqual(['/DELTA']);
    }
    for (const SETTO of [-1, 100_000_001]) {
      expect(await names('POST', url, { ...correction, SETTO })).toEqual(['/SETTO']);
    }
    const levels = (ONHAND: unknown) => ({
      REASON: 'count',
      LEVELS: [{ LOCATION: 'WH', ARTICLE: 'T2001-900', SIZEX: 'M', ONHAND }],
    });
    for (const ONHAND of [-1, 100_000_001, '100000001']) {
      expect(await names('PUT', '/TV2/Admin/stock/levels', levels(ONHAND))).toEqual(['/LEVELS/0/ONHAND']);
    }
  });

  it('changes a location and refuses to delete one that holds stock', async () => {
    const changed = await send('PUT', '/TV2/Admin/locations/AMS', {
      LOCATION: 'AMS',
      NAME: 'Shop Amsterdam',
      KIND: 'SHOP',
      WHOLESALE: false,
      RETAIL: true,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ WRITTEN: true, LOCATION: { NAME: 'Shop Amsterdam', CITY: null } });
    expect((await send('DELETE', '/TV2/Admin/locations/AMS')).json().code).toBe('LOCATION_HAS_STOCK');
  });

  it('takes stock: counted levels become correction movements, a repeat changes nothing', async () => {
    const body = {
      REASON: 'stock take',
      LEVELS: [
        { LOCATION: 'WH', ARTICLE: 'T2001-900', SIZEX: 'L', ONHAND: 58 },
        { LOCATION: 'WH', ARTICLE: 'T2001-900', SIZEX: 'S', ONHAND: 7 },
      ],
    };
    expect((await send('PUT', '/TV2/Admin/stock/levels', body)).json()).toEqual({ CHANGED: 2, UNCHANGED: 0 });
    expect((await send('PUT', '/TV2/Admin/stock/levels', body)).json()).toEqual({ CHANGED: 0, UNCHANGED: 2 });
    expect(await t.services.stock.ledger.verifyLedger()).toEqual([]);
  });
});
