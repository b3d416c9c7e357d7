import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentScn } from '../src/kernel/db/unit-of-work.ts';
import { swatchPng } from '../src/kernel/demo-images.ts';
import { article, sizeTable } from './helpers/fixtures.ts';
import { ENGINE, startTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * A change feed reports under DELETED only what its audience could have seen (issue 14): wholesale
 * is never told of a retail-only location's stock, retail never of an article it was never shown
 * (its stock, its images) nor of a wholesale-only location. What an audience saw and then lost still
 * comes under DELETED, exactly as before.
 */

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await startTestApp();
  token = await t.tokenFor(['B2B', 'B2C']);
  await t.services.catalog.saveSizeTable(sizeTable('CONF', ['S', 'M']));
  await t.services.catalog.saveArticles([
    article('SEEN-001'),
    // Never published for retail.
    article('HIDE-001', { retail: false }),
    article('NEVER-001', { retail: false }),
  ]);
  const loc = t.services.stock.locations;
  await loc.createLocation({
    code: 'BOTH',
    name: 'Both',
    kind: 'WAREHOUSE',
    servesWholesale: true,
    servesRetail: true,
  });
  await loc.createLocation({
    code: 'SHOPONLY',
    name: 'Shop',
    kind: 'SHOP',
    servesWholesale: false,
    servesRetail: true,
  });
  await loc.createLocation({
    code: 'WHONLY',
    name: 'Wholesale',
    kind: 'WAREHOUSE',
    servesWholesale: true,
    servesRetail: false,
  });
});
afterAll(() => t.close());

type Key = { ARTICLE: string; SIZEX?: string; LOCATION?: string; IMAGENO?: number };
const keys = (list: Key[]) => list.map((k) => [k.ARTICLE, k.SIZEX ?? k.IMAGENO, k.LOCATION].join('|')).sort();

/** Every page of a feed after `scn`: what it shows and what it reports deleted. */
async function feed(operation: string, scn: number) {
  const root = operation.replaceAll('_', '').toUpperCase();
  const shown: Key[] = [];
  const deleted: unknown[] = [];
  let offset: number | null = 1;
  while (offset !== null) {
    const res = await t.call('GET', operation, {
      token,
      query: { strscn: String(scn), stroffset: String(offset), strlimit: '2' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json()[root];
    const list =
      page.STOCKS ??
      page.ARTICLES ??
      page.IMAGES ??
      page.SHOPS ??
      page.ACTIONPRICES ??
      page.ASSISTANTS ??
      page.LOCATIONS ??
      page.BLOCKS;
    shown.push(
      ...list.map((r: Key) => ({
        ARTICLE: r.ARTICLE,
        SIZEX: r.SIZEX,
        LOCATION: r.LOCATION,
        IMAGENO: r.IMAGENO,
      })),
    );
    deleted.push(...page.DELETED);
    offset = page.NEXTOFFSET;
  }
  return { shown, deleted };
}

const stockKeys = (deleted: unknown[]) => keys(deleted as Key[]);
const receive = (articleNo: string, locationCode: string) =>
  t.services.stock.ledger.receive({ articleNo, sizex: 'S', locationCode, quantity: 3 });

describe(`change feeds tell an audience only of what it could see (${ENGINE})`, () => {
  it('wholesale is not told of a retail-only location; retail neither of a wholesale-only one nor of an unpublished article', async () => {
    const since = await currentScn(t.database.db);
    await receive('SEEN-001', 'SHOPONLY');
    await receive('SEEN-001', 'WHONLY');
    await receive('HIDE-001', 'BOTH');

    const b2b = await feed('B2B_GetStockChanges', since);
    expect(keys(b2b.shown)).toEqual(['HIDE-001|S|BOTH', 'SEEN-001|S|WHONLY']);
    expect(b2b.deleted).toEqual([]);

    const b2c = await feed('B2C_GetStockChanges', since);
    expect(keys(b2c.shown)).toEqual(['SEEN-001|S|SHOPONLY']);
    expect(b2c.deleted).toEqual([]);
  });

  it('an audience that saw a location is told when it stops serving it, and only then', async () => {
    const since = await currentScn(t.database.db);
    await t.services.stock.locations.changeLocation('SHOPONLY', { servesWholesale: true });
    const middle = await currentScn(t.database.db);
    await t.services.stock.locations.changeLocation('SHOPONLY', {
      servesWholesale: false,
      servesRetail: false,
    });

    // Wholesale saw SHOPONLY between the two changes: its level comes under DELETED now.
    expect(stockKeys((await feed('B2B_GetStockChanges', middle)).deleted)).toEqual(['SEEN-001|S|SHOPONLY']);
    expect(stockKeys((await feed('B2B_GetStockChanges', since)).deleted)).toEqual(['SEEN-001|S|SHOPONLY']);
    // Retail saw it all along.
    expect(stockKeys((await feed('B2C_GetStockChanges', since)).deleted)).toEqual(['SEEN-001|S|SHOPONLY']);
  });

  it('retail is not told of an article it never saw, its images neither; once shown and hidden again, it is', async () => {
    const since = await currentScn(t.database.db);
    await t.services.catalog.saveArticles([article('HIDE-001', { retail: false, brand: 'OTHER' })]);
    await t.services.catalog.putImage('HIDE-001', 1, swatchPng([10, 20, 30]));
    await t.services.catalog.deleteImage('HIDE-001', 1);
    await t.services.catalog.putImage('HIDE-001', 2, swatchPng([30, 20, 10]));

    const articles = await feed('B2C_GetAllArticles', since);
    expect(articles.shown).toEqual([]);
    expect(articles.deleted).toEqual([]);
    const images = await feed('B2C_GetAllArticlesImages', since);
    expect(images.shown).toEqual([]);
    expect(images.deleted).toEqual([]);
    // Wholesale sees every article: the change is news to it.
    expect(keys((await feed('B2B_GetAllArticles', since)).shown)).toEqual(['HIDE-001||']);

    // Published, then taken off retail: retail saw it in between, so is told.
    await t.services.catalog.saveArticles([article('HIDE-001', { retail: true })]);
    const shown = await currentScn(t.database.db);
    await t.services.catalog.saveArticles([article('HIDE-001', { retail: false })]);
    expect((await feed('B2C_GetAllArticles', shown)).deleted).toEqual(['HIDE-001']);
    expect((await feed('B2C_GetAllArticles', since)).deleted).toEqual(['HIDE-001']);
    expect(stockKeys((await feed('B2C_GetAllArticlesImages', shown)).deleted)).toEqual(['HIDE-001|2|']);
  });

  it('the shop feed is not told of a location retail never saw as a shop; a shop that stops being one, it is', async () => {
    const since = await currentScn(t.database.db);
    // A wholesale-only warehouse and a retail warehouse (not a shop) change: no news to the shop feed.
    await t.services.stock.locations.changeLocation('WHONLY', { name: 'Wholesale 2' });
    await t.services.stock.locations.changeLocation('BOTH', { name: 'Both 2' });
    expect(await feed('B2C_GetAllShops', since)).toEqual({ shown: [], deleted: [] });
    // A shop that closes (was seen as a shop) is.
    await t.services.stock.locations.changeLocation('SHOPONLY', { servesRetail: true });
    await t.services.stock.locations.changeLocation('SHOPONLY', { active: false });
    expect((await feed('B2C_GetAllShops', since)).deleted).toEqual(['SHOPONLY']);
  });

  it('retail is not told of the action prices of an article it never saw', async () => {
    const since = await currentScn(t.database.db);
    const actions = t.services.pricing.actionPrices;
    const price = { currency: 'EUR', priceMinor: 1000, startDate: '2026-01-01', endDate: '2026-12-31' };
    await actions.createActionPrice({ articleNo: 'NEVER-001', ...price });
    const seen = await actions.createActionPrice({ articleNo: 'SEEN-001', ...price });
    const feedOf = await feed('B2C_GetAllActionPrice', since);
    expect(feedOf.shown.map((p) => p.ARTICLE)).toEqual(['SEEN-001']);
    expect(feedOf.deleted).toEqual([]);
    // Taken off retail: retail saw it, so its price comes under DELETED.
    await t.services.catalog.saveArticles([article('SEEN-001', { retail: false })]);
    expect((await feed('B2C_GetAllActionPrice', since)).deleted).toEqual([seen.id]);
  });

  it('retail is not told of assistants, content blocks or pickup locations it never saw; once seen, it is', async () => {
    const shops = t.services.shops;
    await t.services.stock.locations.changeLocation('SHOPONLY', { active: true, servesRetail: true });
    const since = await currentScn(t.database.db);
    // Made inactive (or, for a shop, without pickup) and changed: never shown, so no news.
    const assistant = { locationCode: 'SHOPONLY', assistantNo: 1, name: 'Ann', active: false };
    await shops.shops.saveAssistant(assistant);
    await shops.shops.saveAssistant({ ...assistant, name: 'Anne' });
    const block = { page: 'HOME', blockNo: 1, position: 10, active: false };
    await shops.content.saveHomePageBlock(block);
    await shops.content.saveHomePageBlock({ ...block, position: 20 });
    const point = { code: 'PP1', name: 'Point', latitude: '51', longitude: '4', active: false };
    await shops.pickup.savePickupPoint(point);
    await shops.pickup.savePickupPoint({ ...point, name: 'Point 2' });
    await shops.shops.saveShopDetails([
      { locationCode: 'SHOPONLY', pickup: false, phone: '+32 3 123 45 67' },
    ]);
    for (const operation of ['B2C_GetShopAssistants', 'B2C_GetHomePages', 'B2C_GetPickUpLocations']) {
      expect(await feed(operation, since), operation).toEqual({ shown: [], deleted: [] });
    }
    // Shown, then hidden: retail saw each, so each comes under DELETED.
    await shops.shops.saveAssistant({ ...assistant, active: true });
    await shops.content.saveHomePageBlock({ ...block, active: true });
    await shops.pickup.savePickupPoint({ ...point, active: true });
    await shops.shops.saveShopDetails([{ locationCode: 'SHOPONLY', pickup: true }]);
    const shown = await currentScn(t.database.db);
    await shops.shops.saveAssistant(assistant);
    await shops.content.saveHomePageBlock(block);
    await shops.pickup.savePickupPoint(point);
    await shops.shops.saveShopDetails([{ locationCode: 'SHOPONLY', pickup: false }]);
    expect((await feed('B2C_GetShopAssistants', shown)).deleted).toHaveLength(1);
    expect((await feed('B2C_GetHomePages', shown)).deleted).toHaveLength(1);
    expect((await feed('B2C_GetPickUpLocations', shown)).deleted).toHaveLength(2);
  });
});
