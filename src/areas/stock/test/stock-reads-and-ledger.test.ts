import { beforeAll, describe, expect, it } from 'vitest';
import { article } from '../../../../test/helpers/fixtures.ts';
import { expectScnStep } from '../../../../test/helpers/scn.ts';
import { seededRandom } from '../../../../test/helpers/seed.ts';
import { A100_SIZES, location, stockContext } from './stock-context.ts';

const ctx = stockContext();
const { get, ok } = ctx;

// Location UTR as locations-and-movements.test.ts leaves it: a shop serving retail only.
beforeAll(async () => {
  await ctx.t.services.stock.locations.createLocation(location('UTR', { name: 'Utrecht Centrum' }));
});

describe('B2B_GetArticleStock and B2C_GetArticleStock', () => {
  beforeAll(async () => {
    const stock = ctx.t.services.stock;
    await stock.ledger.receiveAll([
      { locationCode: 'WH', articleNo: 'A100-010', sizex: 'S', quantity: 10 },
      { locationCode: 'WH', articleNo: 'A100-010', sizex: 'M', quantity: 20 },
      { locationCode: 'AMS', articleNo: 'A100-010', sizex: 'M', quantity: 3 },
      { locationCode: 'SHOWROOM', articleNo: 'A100-010', sizex: 'L', quantity: 1 },
      { locationCode: 'WH', articleNo: 'A100-020', sizex: 'S', quantity: 4 },
    ]);
    await stock.ledger.reserve({ locationCode: 'WH', articleNo: 'A100-010', sizex: 'M', quantity: 5 });
  });

  it('shows wholesale on hand, reserved and available per wholesale location and size, with totals', async () => {
    const body = (await ok('B2B_GetArticleStock', { strarticle: 'A100-010' })).B2BGETARTICLESTOCK;
    expect(body.ARTICLE).toBe('A100-010');
    expect(body.SCN).toBeGreaterThan(0);
    expect(body.LOCATIONS.map((l: { LOCATION: string }) => l.LOCATION)).toEqual(['SHOWROOM', 'WH']);
    const wh = body.LOCATIONS[1];
    expect(wh).toEqual({
      LOCATION: 'WH',
      NAME: 'Central warehouse',
      KIND: 'WAREHOUSE',
      SIZES: [
        { SIZEX: 'S', ONHAND: 10, RESERVED: 0, AVAILABLE: 10 },
        { SIZEX: 'M', ONHAND: 20, RESERVED: 5, AVAILABLE: 15 },
        { SIZEX: 'L', ONHAND: 0, RESERVED: 0, AVAILABLE: 0 },
      ],
    });
    expect(body.TOTALS).toEqual([
      { SIZEX: 'S', ONHAND: 10, RESERVED: 0, AVAILABLE: 10 },
      { SIZEX: 'M', ONHAND: 20, RESERVED: 5, AVAILABLE: 15 },
      { SIZEX: 'L', ONHAND: 1, RESERVED: 0, AVAILABLE: 1 },
    ]);
  });

  it('shows retail only AVAILABLE, at the locations serving retail', async () => {
    const body = (await ok('B2C_GetArticleStock', { strarticle: 'A100-010' })).B2CGETARTICLESTOCK;
    expect(body.LOCATIONS.map((l: { LOCATION: string }) => l.LOCATION)).toEqual(['AMS', 'UTR', 'WH']);
    expect(body.LOCATIONS[0].SIZES).toEqual([
      { SIZEX: 'S', AVAILABLE: 0 },
      { SIZEX: 'M', AVAILABLE: 3 },
      { SIZEX: 'L', AVAILABLE: 0 },
    ]);
    expect(body.TOTALS).toEqual([
      { SIZEX: 'S', AVAILABLE: 10 },
      { SIZEX: 'M', AVAILABLE: 18 },
      { SIZEX: 'L', AVAILABLE: 0 },
    ]);
  });

  it('narrows to one location with strlocation', async () => {
    const body = (await ok('B2C_GetArticleStock', { strarticle: 'A100-010', strlocation: 'AMS' }))
      .B2CGETARTICLESTOCK;
    expect(body.LOCATIONS.map((l: { LOCATION: string }) => l.LOCATION)).toEqual(['AMS']);
    expect(body.TOTALS[1]).toEqual({ SIZEX: 'M', AVAILABLE: 3 });
    // a location retail does not see is not found for retail
    const hidden = await get('B2C_GetArticleStock', { strarticle: 'A100-010', strlocation: 'SHOWROOM' });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().code).toBe('LOCATION_NOT_FOUND');
  });

  it('answers 404 for unknown or unpublished articles and 400 naming bad parameters', async () => {
    const unknown = await get('B2B_GetArticleStock', { strarticle: 'NOPE' });
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, 'ARTICLE_NOT_FOUND']);
    expect((await get('B2B_GetArticleStock', { strarticle: 'A100-020' })).statusCode).toBe(200);
    const unpublished = await get('B2C_GetArticleStock', { strarticle: 'A100-020' });
    expect([unpublished.statusCode, unpublished.json().code]).toEqual([404, 'ARTICLE_NOT_FOUND']);

    const missing = await get('B2B_GetArticleStock', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.map((e: { name: string }) => e.name)).toContain('strarticle');
    const extra = await get('B2B_GetArticleStock', { strarticle: 'A100-010', strsize: 'M' });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().errors.map((e: { name: string }) => e.name)).toContain('strsize');
    expect((await get('B2C_GetArticleStock', { strarticle: 'A100-010' }, ctx.wholesaleOnly)).statusCode).toBe(
      403,
    );
  });
});

describe('B2B_GetStocks, B2C_GetStocks and the change feeds', () => {
  it('lists every level the audience sees, paged, and only changes after strscn', async () => {
    const all = (await ok('B2B_GetStocks', { strlocation: 'WH' })).B2BGETSTOCKS;
    expect(all.DELETED).toEqual([]);
    expect(all.NEXTOFFSET).toBeNull();
    // in stable position order: the order the levels were first stocked (the receipts above)
    const keys = all.STOCKS.map((s: { ARTICLE: string; SIZEX: string }) => `${s.ARTICLE}/${s.SIZEX}`);
    expect(keys).toEqual(['A100-010/S', 'A100-010/M', 'A100-020/S']);
    expect(all.STOCKS[1]).toEqual({
      ARTICLE: 'A100-010',
      SIZEX: 'M',
      LOCATION: 'WH',
      ONHAND: 20,
      RESERVED: 5,
      AVAILABLE: 15,
      SCN: expect.any(Number),
    });

    const paged: string[] = [];
    let offset: number | null = 1;
    while (offset !== null) {
      const page: {
        STOCKS: Array<{ ARTICLE: string; SIZEX: string }>;
        SCN: number;
        NEXTOFFSET: number | null;
      } = (await ok('B2B_GetStocks', { strlocation: 'WH', strlimit: '2', stroffset: String(offset) }))
        .B2BGETSTOCKS;
      paged.push(...page.STOCKS.map((s) => `${s.ARTICLE}/${s.SIZEX}`));
      expectScnStep(all.SCN, page.SCN, 0);
      offset = page.NEXTOFFSET;
    }
    expect(paged).toEqual(keys);

    const retail = (await ok('B2C_GetStocks', {})).B2CGETSTOCKS;
    expect(retail.STOCKS.length).toBeGreaterThan(0);
    for (const s of retail.STOCKS) {
      expect(Object.keys(s).sort()).toEqual(['ARTICLE', 'AVAILABLE', 'LOCATION', 'SCN', 'SIZEX']);
      expect(s.LOCATION).not.toBe('SHOWROOM');
      expect(s.ARTICLE).not.toBe('A100-020');
    }

    const since = all.SCN;
    expect((await ok('B2B_GetStockChanges', { strscn: String(since) })).B2BGETSTOCKCHANGES.STOCKS).toEqual(
      [],
    );
    await ctx.t.services.stock.ledger.reserve({
      locationCode: 'WH',
      articleNo: 'A100-010',
      sizex: 'S',
      quantity: 1,
    });
    const changes = (await ok('B2B_GetStockChanges', { strscn: String(since) })).B2BGETSTOCKCHANGES;
    expect(changes.STOCKS).toEqual([
      expect.objectContaining({
        ARTICLE: 'A100-010',
        SIZEX: 'S',
        LOCATION: 'WH',
        RESERVED: 1,
      }),
    ]);
    // the reservation's SCN: the next on SQLite, above the reader's SCN on both
    const moved: number = changes.STOCKS[0].SCN;
    expectScnStep(since, moved, 1);
    expect(changes.SCN).toBeGreaterThanOrEqual(moved);
    expectScnStep(since, changes.SCN, 1);
    const retailChanges = (await ok('B2C_GetStockChanges', { strscn: String(since) })).B2CGETSTOCKCHANGES;
    expect(retailChanges.STOCKS).toEqual([
      { ARTICLE: 'A100-010', SIZEX: 'S', LOCATION: 'WH', AVAILABLE: 9, SCN: moved },
    ]);
  });

  it('reports levels under DELETED when a location stops serving an audience or an article is unpublished', async () => {
    const stock = ctx.t.services.stock;
    const since = (await ok('B2C_GetStocks', { strlimit: '1' })).B2CGETSTOCKS.SCN;
    await stock.locations.changeLocation('AMS', { servesRetail: false });
    const feed = (await ok('B2C_GetStockChanges', { strscn: String(since) })).B2CGETSTOCKCHANGES;
    expect(feed.STOCKS).toEqual([]);
    expect(feed.DELETED.length).toBeGreaterThan(0);
    expect(feed.DELETED.every((d: { LOCATION: string }) => d.LOCATION === 'AMS')).toBe(true);
    // a name change is not a change of anyone's stock
    const after = feed.SCN;
    await stock.locations.changeLocation('AMS', { name: 'Amsterdam Kalverstraat' });
    expect((await ok('B2C_GetStockChanges', { strscn: String(after) })).B2CGETSTOCKCHANGES.DELETED).toEqual(
      [],
    );
    await stock.locations.changeLocation('AMS', { servesRetail: true });
    const back = (await ok('B2C_GetStockChanges', { strscn: String(after) })).B2CGETSTOCKCHANGES;
    expect(back.STOCKS.length).toBe(feed.DELETED.length);

    const beforeUnpublish = back.SCN;
    await ctx.t.services.catalog.saveArticle(article('A100-010', { retail: false, sizes: A100_SIZES }));
    const unpublished = (await ok('B2C_GetStockChanges', { strscn: String(beforeUnpublish) }))
      .B2CGETSTOCKCHANGES;
    expect(unpublished.STOCKS).toEqual([]);
    expect(new Set(unpublished.DELETED.map((d: { ARTICLE: string }) => d.ARTICLE))).toEqual(
      new Set(['A100-010']),
    );
    // wholesale still sees it: the article's change re-sends its levels
    const wholesale = (await ok('B2B_GetStockChanges', { strscn: String(beforeUnpublish) }))
      .B2BGETSTOCKCHANGES;
    expect(new Set(wholesale.STOCKS.map((s: { LOCATION: string }) => s.LOCATION))).toEqual(
      new Set(['WH', 'SHOWROOM']),
    );
    // (its levels at shops that serve only retail are not wholesale's: they are reported as gone)
    expect(wholesale.DELETED.every((d: { LOCATION: string }) => d.LOCATION === 'AMS')).toBe(true);
  });

  it('answers 400 naming a missing strscn, a bad strlimit, and 404 for an unknown strlocation', async () => {
    const missing = await get('B2B_GetStockChanges', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.map((e: { name: string }) => e.name)).toContain('strscn');
    const bad = await get('B2C_GetStocks', { strscn: '12x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.map((e: { name: string }) => e.name)).toContain('strscn');
    const limit = await get('B2B_GetStocks', { strlimit: '5001' });
    expect(limit.json().errors).toEqual([{ name: 'strlimit', message: expect.any(String) }]);
    const unknown = await get('B2B_GetStocks', { strlocation: 'NOPE' });
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, 'LOCATION_NOT_FOUND']);
    const hidden = await get('B2C_GetStocks', { strlocation: 'SHOWROOM' });
    expect(hidden.statusCode).toBe(404);
  });
});

describe('the ledger', () => {
  it('keeps every level equal to the sum of its movements, and available >= 0, after random work', async () => {
    const stock = ctx.t.services.stock;
    const random = seededRandom(); // the seed is printed on failure, TV2_TEST_SEED replays it
    const locations = ['WH', 'AMS', 'UTR', 'SHOWROOM'];
    const articles = ['A200-010', 'A300-010', 'R000-001'];
    const key = () => ({
      locationCode: random.pick(locations),
      articleNo: random.pick(articles),
      sizex: random.pick(['S', 'M', 'L']),
    });
    const outcomes = new Map<string, number>();
    for (let i = 0; i < 400; i++) {
      const roll = random.int(0, 6);
      const quantity = random.int(1, 6);
      let outcome = 'ok';
      try {
        if (roll === 0) await stock.ledger.receive({ ...key(), quantity });
        else if (roll === 1) await stock.ledger.reserve({ ...key(), quantity });
        else if (roll === 2) await stock.ledger.release({ ...key(), quantity });
        else if (roll === 3) await stock.ledger.ship({ ...key(), quantity });
        else if (roll === 4) {
          const k = key();
          await stock.ledger.transfer({ ...k, from: k.locationCode, to: random.pick(locations), quantity });
        } else if (roll === 5) await stock.stockTake.correct({ ...key(), setTo: random.int(0, 12) });
        else await stock.stockTake.setLevels([{ ...key(), onHand: random.int(0, 12) }]);
      } catch (error) {
        outcome = (error as { code?: string }).code ?? 'unexpected';
      }
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    }
    expect(outcomes.get('unexpected')).toBeUndefined();
    expect(outcomes.get('ok')).toBeGreaterThan(100);
    expect(outcomes.get('INSUFFICIENT_STOCK')).toBeGreaterThan(0);

    expect(await stock.ledger.verifyLedger()).toEqual([]);
    // and checked independently of the service's own query
    const levels = await ctx.t.database.db.selectFrom('stock_level').selectAll().execute();
    const movements = await ctx.t.database.db.selectFrom('stock_movement').selectAll().execute();
    const sums = new Map<string, { onHand: number; reserved: number }>();
    for (const m of movements) {
      const k = `${m.article_no}|${m.sizex}|${m.location_code}`;
      const sum = sums.get(k) ?? { onHand: 0, reserved: 0 };
      sum.onHand += Number(m.on_hand_delta);
      sum.reserved += Number(m.reserved_delta);
      sums.set(k, sum);
    }
    expect(levels.length).toBe(sums.size);
    expect(levels.length).toBeGreaterThan(0);
    for (const l of levels) {
      expect(sums.get(`${l.article_no}|${l.sizex}|${l.location_code}`)).toEqual({
        onHand: Number(l.on_hand),
        reserved: Number(l.reserved),
      });
      expect(Number(l.reserved)).toBeGreaterThanOrEqual(0);
      expect(Number(l.on_hand) - Number(l.reserved)).toBeGreaterThanOrEqual(0);
    }
  });
});
