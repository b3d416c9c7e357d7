import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { article, sizeTable, toEan13 } from '../../../../test/helpers/fixtures.ts';
import { ENGINE, startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import type { StockLine } from '../stock-rules.ts';

/**
 * Paging the stock lists and feeds by stable position (docs/stock.md, "Paging"): levels that one
 * audience does not see sit between the ones it sees (a shop only retail sees, a showroom only
 * wholesale sees, an article not published for retail), so a page counted in records would come
 * back short, and a page counted from the start would shift when a record leaves the list.
 */

let t: TestApp;
let token: string;

const SIZES = ['S', 'M', 'L'];
const ARTICLES = ['P001-1', 'P002-1', 'P003-1', 'P004-1', 'P005-1', 'P006-1'];
/** Not published for retail: wholesale sees its stock, retail does not. */
const UNPUBLISHED = 'P003-1';
const LOCATIONS = ['WH', 'SHOP', 'SHOW'];

function articleInput(articleNo: string, retail = articleNo !== UNPUBLISHED) {
  const n = ARTICLES.indexOf(articleNo);
  return article(articleNo, {
    retail,
    sizes: SIZES.map((sizex, i) => ({
      sizex,
      barcode: toEan13(`8740000${String(n * 10 + i).padStart(5, '0')}`),
    })),
  });
}

beforeAll(async () => {
  t = await startTestApp();
  token = await t.tokenFor(['B2B', 'B2C']);
  await t.services.catalog.saveSizeTable(sizeTable('CONF', SIZES));
  await t.services.catalog.saveArticles(ARTICLES.map((no) => articleInput(no)));
  const locations = t.services.stock.locations;
  await locations.createLocation({
    code: 'WH',
    name: 'Warehouse',
    kind: 'WAREHOUSE',
    servesWholesale: true,
    servesRetail: true,
  });
  await locations.createLocation({
    code: 'SHOP',
    name: 'Shop',
    kind: 'SHOP',
    servesWholesale: false,
    servesRetail: true,
  });
  await locations.createLocation({
    code: 'SHOW',
    name: 'Showroom',
    kind: 'SHOP',
    servesWholesale: true,
    servesRetail: false,
  });
  // Every article, size and location, in that order: positions interleave what each audience sees.
  const lines: StockLine[] = ARTICLES.flatMap((articleNo, a) =>
    SIZES.flatMap((sizex, s) =>
      LOCATIONS.map((locationCode, l) => ({ articleNo, sizex, locationCode, quantity: 1 + a + s + l })),
    ),
  );
  await t.services.stock.ledger.receiveAll(lines);
});
afterAll(() => t.close());

type Audience = 'B2B' | 'B2C';
type Key = { ARTICLE: string; SIZEX: string; LOCATION: string };
const keyOf = (s: Key) => `${s.ARTICLE}|${s.SIZEX}|${s.LOCATION}`;

interface Page {
  SCN: number;
  NEXTOFFSET: number | null;
  STOCKS: Key[];
  DELETED: Key[];
}

async function page(operation: string, query: Record<string, string>): Promise<Page> {
  const res = await t.call('GET', operation, { token, query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json()[operation.replaceAll('_', '').toUpperCase()];
}

/** Every page of a pass from stroffset 1, following NEXTOFFSET. */
async function pass(operation: string, query: Record<string, string>): Promise<Page[]> {
  const pages: Page[] = [];
  let offset: number | null = 1;
  while (offset !== null) {
    const p = await page(operation, { ...query, stroffset: String(offset) });
    if (p.NEXTOFFSET !== null) expect(p.NEXTOFFSET).toBeGreaterThan(offset);
    pages.push(p);
    offset = p.NEXTOFFSET;
  }
  return pages;
}

/** The keys of the levels `audience` sees (optionally at one location), read straight from the tables. */
async function visible(audience: Audience, location?: string): Promise<string[]> {
  const rows = await t.database.db
    .selectFrom('stock_level as l')
    .innerJoin('stock_location as loc', 'loc.code', 'l.location_code')
    .innerJoin('article as a', 'a.article_no', 'l.article_no')
    .select(['l.article_no', 'l.sizex', 'l.location_code'])
    .where('loc.deleted', '=', 0)
    .where('loc.active', '=', 1)
    .where('a.deleted', '=', 0)
    .$if(location !== undefined, (qb) => qb.where('l.location_code', '=', location ?? ''))
    .$if(audience === 'B2B', (qb) => qb.where('loc.serves_wholesale', '=', 1))
    .$if(audience === 'B2C', (qb) =>
      qb.where('loc.serves_retail', '=', 1).where('a.retail', '=', 1).where('a.active', '=', 1),
    )
    .execute();
  return rows.map((r) => `${r.article_no}|${r.sizex}|${r.location_code}`).sort();
}

describe(`stock lists paged by stable position (${ENGINE})`, () => {
  it('fill every page but the last, and a pass following NEXTOFFSET gives every level exactly once', async () => {
    for (const audience of ['B2B', 'B2C'] as const) {
      for (const location of [undefined, 'WH', audience === 'B2B' ? 'SHOW' : 'SHOP']) {
        const truth = await visible(audience, location);
        expect(truth.length).toBeGreaterThan(10);
        for (const limit of [1, 4, 7, truth.length]) {
          const said = `${audience} ${location ?? 'all'} strlimit ${limit}`;
          const query = { strlimit: String(limit), ...(location ? { strlocation: location } : {}) };
          const pages = await pass(`${audience}_GetStocks`, query);
          for (const p of pages.slice(0, -1)) expect(p.STOCKS.length, said).toBe(limit);
          expect(pages.at(-1)?.STOCKS.length, said).toBeGreaterThan(0);
          const seen = pages.flatMap((p) => p.STOCKS.map(keyOf));
          expect(seen.length, said).toBe(new Set(seen).size);
          expect([...seen].sort(), said).toEqual(truth);
          // the whole list in one page when it fits: no NEXTOFFSET
          if (limit === truth.length) expect(pages.length, said).toBe(1);
        }
      }
    }
  });

  it('answer the position of the first level not shown as NEXTOFFSET, not stroffset + strlimit', async () => {
    // Retail's first two levels are P001-1 S at WH and SHOP (positions 1, 2); P001-1 S at SHOW
    // (position 3) is wholesale's only, so retail's next level has position 4.
    const first = await page('B2C_GetStocks', { strlimit: '2' });
    expect(first.STOCKS.map(keyOf)).toEqual(['P001-1|S|WH', 'P001-1|S|SHOP']);
    expect(first.NEXTOFFSET).not.toBeNull();
    expect(first.NEXTOFFSET).toBeGreaterThan(3);
    const next = await page('B2C_GetStocks', { strlimit: '1', stroffset: String(first.NEXTOFFSET) });
    expect(next.STOCKS.map(keyOf)).toEqual(['P001-1|M|WH']);
    // a stroffset inside a gap starts at the next level after it
    const inGap = await page('B2C_GetStocks', {
      strlimit: '1',
      stroffset: String((first.NEXTOFFSET ?? 0) - 1),
    });
    expect(inGap.STOCKS.map(keyOf)).toEqual(['P001-1|M|WH']);
  });

  it('never shift a level into a page already read when levels leave the list during a pass', async () => {
    const before = await visible('B2C');
    const first = await page('B2C_GetStocks', { strlimit: '4' });
    const seen = first.STOCKS.map(keyOf);
    expect(seen).toHaveLength(4);
    // During the pass: the first article (four of whose levels were on the page read) is taken off
    // retail, and a level further on leaves with it (the showroom does not count for retail: the
    // shop stops serving retail, taking its levels out of the list).
    await t.services.catalog.saveArticle(articleInput('P001-1', false));
    await t.services.stock.locations.changeLocation('SHOP', { servesRetail: false });
    try {
      let offset = first.NEXTOFFSET;
      while (offset !== null) {
        const p = await page('B2C_GetStocks', { strlimit: '4', stroffset: String(offset) });
        seen.push(...p.STOCKS.map(keyOf));
        offset = p.NEXTOFFSET;
      }
      const after = await visible('B2C');
      expect(after.length).toBeLessThan(before.length);
      // every level listed from start to end of the pass was read, and none twice
      const throughout = before.filter((k) => after.includes(k));
      expect(seen.filter((k) => throughout.includes(k)).sort()).toEqual(throughout);
      expect(seen.length).toBe(new Set(seen).size);
    } finally {
      await t.services.catalog.saveArticle(articleInput('P001-1'));
      await t.services.stock.locations.changeLocation('SHOP', { servesRetail: true });
    }
  });

  it('fill every feed page with changes, live or DELETED, and a pass gives each change exactly once', async () => {
    const since = (await page('B2C_GetStockChanges', { strscn: '0', strlimit: '1' })).SCN;
    const ledger = t.services.stock.ledger;
    // changes spread over the positions: receipts, an article unpublished, a shop no longer retail's
    await ledger.receive({ articleNo: 'P002-1', sizex: 'M', locationCode: 'WH', quantity: 2 });
    await ledger.receive({ articleNo: 'P006-1', sizex: 'L', locationCode: 'SHOW', quantity: 2 });
    await ledger.receive({ articleNo: 'P005-1', sizex: 'S', locationCode: 'SHOP', quantity: 2 });
    await t.services.catalog.saveArticle(articleInput('P004-1', false));
    try {
      for (const audience of ['B2B', 'B2C'] as const) {
        const truth = new Set(await visible(audience));
        const all = await pass(`${audience}_GetStockChanges`, { strscn: String(since) });
        const expected = all.flatMap((p) => [...p.STOCKS, ...p.DELETED].map(keyOf));
        // Of P002-1 M WH, P006-1 L SHOW, P005-1 S SHOP and the nine levels of P004-1, each audience
        // is told of the levels at the locations it ever saw (issue 14): wholesale never saw SHOP,
        // retail never SHOW, so 2 + 6 for each.
        expect(expected.length, audience).toBe(8);
        for (const limit of [1, 5]) {
          const pages = await pass(`${audience}_GetStockChanges`, {
            strscn: String(since),
            strlimit: String(limit),
          });
          for (const p of pages.slice(0, -1)) expect(p.STOCKS.length + p.DELETED.length).toBe(limit);
          const live = pages.flatMap((p) => p.STOCKS.map(keyOf));
          const gone = pages.flatMap((p) => p.DELETED.map(keyOf));
          expect([...live, ...gone].sort()).toEqual([...expected].sort());
          for (const k of live) expect(truth.has(k), `${audience} ${k}`).toBe(true);
          for (const k of gone) expect(truth.has(k), `${audience} ${k}`).toBe(false);
        }
      }
    } finally {
      await t.services.catalog.saveArticle(articleInput('P004-1'));
    }
  });
});
