import { describe, expect, it } from 'vitest';
import { expectScnStep } from '../../../../test/helpers/scn.ts';
import { pricesOf, pricingContext } from './pricing-context.ts';

const ctx = pricingContext();
const { get, scnNow } = ctx;

describe('B2B_GetAllPrices', () => {
  it('answers the documented B2BGETPRICE shape exactly', async () => {
    const body = await get('B2B_GetAllPrices');
    expect(Object.keys(body)).toEqual(['B2BGETPRICE']);
    const root = body.B2BGETPRICE;
    expect(Object.keys(root)).toEqual(['SCN', 'NEXTOFFSET', 'ARTICLES', 'DELETED']);
    expect(root.ARTICLES.map((a: { ARTICLE: string }) => a.ARTICLE)).toEqual([
      'P100-010',
      'P100-020',
      'P200-010',
    ]);
    expect(root.ARTICLES[2]).toEqual({
      ARTICLE: 'P200-010',
      RECOMMENDED: [
        {
          PRICEGROUP: 1,
          'PRICE PER CURRENCY': [
            {
              CURRENCY: 'EUR',
              'PRICE PER SIZE': [
                { PRICE: 39.95, SIZEX: 'S' },
                { PRICE: 39.95, SIZEX: 'M' },
              ],
            },
          ],
        },
        {
          PRICEGROUP: 2,
          'PRICE PER CURRENCY': [{ CURRENCY: 'EUR', 'PRICE PER SIZE': [{ PRICE: 39.95, SIZEX: 'M' }] }],
        },
      ],
      SELLING: [
        {
          PRICEGROUP: 2,
          'PRICE PER CURRENCY': [
            {
              CURRENCY: 'EUR',
              'PRICE PER SIZE': [
                { PRICE: 17.5, SIZEX: 'S' },
                { PRICE: 17.5, SIZEX: 'M' },
              ],
            },
            { CURRENCY: 'GBP', 'PRICE PER SIZE': [{ PRICE: 15.5, SIZEX: 'M' }] },
          ],
        },
        {
          PRICEGROUP: 3,
          'PRICE PER CURRENCY': [{ CURRENCY: 'EUR', 'PRICE PER SIZE': [{ PRICE: 16, SIZEX: 'S' }] }],
        },
      ],
    });
    expect(root.NEXTOFFSET).toBeNull();
    expect(root.DELETED).toEqual([]);
  });

  it('pages by article', async () => {
    const first = (await get('B2B_GetAllPrices', { strlimit: '2' })).B2BGETPRICE;
    expect(first.ARTICLES.map((a: { ARTICLE: string }) => a.ARTICLE)).toEqual(['P100-010', 'P100-020']);
    // NEXTOFFSET is the position of the next article (P200-010, the third saved), not offset + limit
    expect(first.NEXTOFFSET).toBe(3);
    const second = (await get('B2B_GetAllPrices', { strlimit: '2', stroffset: '3' })).B2BGETPRICE;
    expect(second.ARTICLES.map((a: { ARTICLE: string }) => a.ARTICLE)).toEqual(['P200-010']);
    expect(second.NEXTOFFSET).toBeNull();
    const tooMany = await ctx.t.call('GET', 'B2B_GetAllPrices', {
      token: ctx.b2b,
      query: { strlimit: '1001' },
    });
    expect(tooMany.statusCode).toBe(400);
  });

  it('with strscn returns the complete price set of changed articles and lists articles left without prices', async () => {
    const before = await scnNow();
    await ctx.t.services.pricing.listPrices.setListPrices([
      {
        articleNo: 'P100-010',
        priceType: 'SELLING',
        priceGroup: 2,
        currency: 'EUR',
        sizex: 'M',
        priceMinor: 2600,
      },
    ]);
    await ctx.t.services.pricing.listPrices.deleteListPrices(
      pricesOf('P100-020', 0, 0).map(({ priceMinor, ...key }) => key),
    );
    const feed = (await get('B2B_GetAllPrices', { strscn: String(before) })).B2BGETPRICE;
    expectScnStep(before, feed.SCN, 2);
    expect(feed.ARTICLES).toHaveLength(1);
    expect(feed.ARTICLES[0].ARTICLE).toBe('P100-010');
    expect(feed.ARTICLES[0].SELLING[0]['PRICE PER CURRENCY'][0]['PRICE PER SIZE']).toEqual([
      { PRICE: 25, SIZEX: 'S' },
      { PRICE: 26, SIZEX: 'M' },
    ]);
    expect(feed.ARTICLES[0].RECOMMENDED).toHaveLength(1);
    expect(feed.DELETED).toEqual(['P100-020']);
    // the full list skips the article without prices
    const all = (await get('B2B_GetAllPrices')).B2BGETPRICE;
    expect(all.ARTICLES.map((a: { ARTICLE: string }) => a.ARTICLE)).toEqual(['P100-010', 'P200-010']);
    // prices again: the article is back
    await ctx.t.services.pricing.listPrices.setListPrices(pricesOf('P100-020', 5995, 2500));
  });
});

describe('list price writes', () => {
  it('saving the same prices twice does not move the SCN the second time', async () => {
    const rows = pricesOf('P400-010', 2995, 1200);
    const first = await ctx.t.services.pricing.listPrices.setListPrices(rows);
    expect(first.changed).toBe(4);
    const scn = await scnNow();
    expect(await ctx.t.services.pricing.listPrices.setListPrices(rows)).toEqual({ scn: null, changed: 0 });
    expectScnStep(scn, await scnNow(), 0);
    // one changed row among unchanged ones: only that row gets the new SCN
    const changed = rows.map((r) =>
      r.sizex === 'M' && r.priceType === 'SELLING' ? { ...r, priceMinor: 1300 } : r,
    );
    const second = await ctx.t.services.pricing.listPrices.setListPrices(changed);
    expect(second.changed).toBe(1);
    // SQLite: the next SCN; PostgreSQL: above it (other databases' transactions move the horizon).
    expectScnStep(scn, second.scn ?? 0, 1);
    const feed = (await get('B2B_GetPriceChanges', { strscn: String(scn) })).B2BGETPRICECHANGES;
    expect(feed.PRICES).toEqual([
      {
        ARTICLE: 'P400-010',
        PRICETYPE: 'SELLING',
        PRICEGROUP: 2,
        CURRENCY: 'EUR',
        SIZEX: 'M',
        PRICE: 13,
        SCN: second.scn,
      },
    ]);
    // deleting what is not there changes nothing either
    const key = {
      articleNo: 'P400-010',
      priceType: 'SELLING' as const,
      priceGroup: 9,
      currency: 'EUR',
      sizex: 'S',
    };
    expect(await ctx.t.services.pricing.listPrices.deleteListPrices([key])).toEqual({
      scn: null,
      changed: 0,
    });
  });

  it('refuses unknown articles, sizes outside the article and bad amounts; a bad row leaves nothing behind', async () => {
    const scn = await scnNow();
    const good = pricesOf('P400-010', 100, 100)[0]!;
    await expect(
      ctx.t.services.pricing.listPrices.setListPrices([good, { ...good, articleNo: 'NOPE-1' }]),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ name: '/1/ARTICLE' }] });
    await expect(
      ctx.t.services.pricing.listPrices.setListPrices([good, { ...good, sizex: 'XL' }]),
    ).rejects.toMatchObject({
      errors: [{ name: '/1/SIZEX' }],
    });
    await expect(
      ctx.t.services.pricing.listPrices.setListPrices([{ ...good, priceMinor: 12.5 }]),
    ).rejects.toMatchObject({
      errors: [{ name: '/0/PRICE' }],
    });
    // a currency that is no ISO code is the schema's: admin-pricing.test.ts sends it over HTTP
    await expect(ctx.t.services.pricing.listPrices.setListPrices([good, good])).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ name: '/1' }],
    });
    expectScnStep(scn, await scnNow(), 0);
  });
});

describe('B2B_GetPriceChanges', () => {
  it('reports new, changed and deleted price rows after strscn, in the order they were first written', async () => {
    const before = await scnNow();
    const key = {
      articleNo: 'P200-010',
      priceType: 'SELLING' as const,
      priceGroup: 3,
      currency: 'EUR',
      sizex: 'S',
    };
    await ctx.t.services.pricing.listPrices.setListPrices([
      {
        articleNo: 'P200-010',
        priceType: 'SELLING',
        priceGroup: 2,
        currency: 'GBP',
        sizex: 'S',
        priceMinor: 1550,
      },
      {
        articleNo: 'P200-010',
        priceType: 'SELLING',
        priceGroup: 2,
        currency: 'GBP',
        sizex: 'M',
        priceMinor: 1499,
      },
    ]);
    await ctx.t.services.pricing.listPrices.deleteListPrices([key]);
    const feed = (await get('B2B_GetPriceChanges', { strscn: String(before) })).B2BGETPRICECHANGES;
    expectScnStep(before, feed.SCN, 2);
    expect(feed.PRICES.map((p: { SIZEX: string; PRICE: number }) => [p.SIZEX, p.PRICE])).toEqual([
      ['M', 14.99],
      ['S', 15.5],
    ]);
    expect(feed.DELETED).toEqual([
      { ARTICLE: 'P200-010', PRICETYPE: 'SELLING', PRICEGROUP: 3, CURRENCY: 'EUR', SIZEX: 'S' },
    ]);
    // two rows a page: the first two (one of them the deletion), then from NEXTOFFSET the third
    const paged = (await get('B2B_GetPriceChanges', { strscn: String(before), strlimit: '2' }))
      .B2BGETPRICECHANGES;
    expect(paged.PRICES.length + paged.DELETED.length).toBe(2);
    expect(paged.NEXTOFFSET).toEqual(expect.any(Number));
    const rest = (
      await get('B2B_GetPriceChanges', {
        strscn: String(before),
        strlimit: '2',
        stroffset: String(paged.NEXTOFFSET),
      })
    ).B2BGETPRICECHANGES;
    expect(rest.NEXTOFFSET).toBeNull();
    expect([...paged.PRICES, ...rest.PRICES]).toEqual(feed.PRICES);
    expect([...paged.DELETED, ...rest.DELETED]).toEqual(feed.DELETED);
    // a full list has no deletions
    const all = (await get('B2B_GetPriceChanges')).B2BGETPRICECHANGES;
    expect(all.DELETED).toEqual([]);
    expect(all.PRICES.some((p: { PRICEGROUP: number }) => p.PRICEGROUP === 3)).toBe(false);
  });
});
