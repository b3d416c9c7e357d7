import { beforeAll, describe, expect, it } from 'vitest';
import { day, pricingContext } from './pricing-context.ts';

const ctx = pricingContext();
const { get } = ctx;

describe('action prices', () => {
  let running: number;
  let sizeM: number;
  let future: number;

  beforeAll(async () => {
    running = (
      await ctx.t.services.pricing.actionPrices.createActionPrice({
        articleNo: 'P100-010',
        currency: 'EUR',
        priceMinor: 3995,
        startDate: day(-3),
        endDate: day(3),
      })
    ).id;
    sizeM = (
      await ctx.t.services.pricing.actionPrices.createActionPrice({
        articleNo: 'P100-010',
        sizex: 'M',
        currency: 'EUR',
        priceMinor: 3495,
        startDate: day(-3),
        endDate: day(3),
      })
    ).id;
    future = (
      await ctx.t.services.pricing.actionPrices.createActionPrice({
        articleNo: 'P200-010',
        currency: 'EUR',
        priceMinor: 2995,
        startDate: day(10),
        endDate: day(20),
      })
    ).id;
    // an article not published for retail never shows
    await ctx.t.services.pricing.actionPrices.createActionPrice({
      articleNo: 'P300-010',
      currency: 'EUR',
      priceMinor: 100,
      startDate: day(-3),
      endDate: day(3),
    });
  });

  it('lists only the action prices running today, unless strdate or strall say otherwise', async () => {
    const ids = async (query: Record<string, string>) =>
      (await get('B2C_GetAllActionPrice', query, ctx.b2c)).B2CGETALLACTIONPRICE.ACTIONPRICES.map(
        (a: { ACTIONPRICE: number }) => a.ACTIONPRICE,
      );
    expect(await ids({})).toEqual([running, sizeM]);
    expect(await ids({ strdate: day(15) })).toEqual([future]);
    expect(await ids({ strall: '1' })).toEqual([running, sizeM, future]);
    const body = (await get('B2C_GetAllActionPrice', {}, ctx.b2c)).B2CGETALLACTIONPRICE;
    expect(body.ACTIONPRICES[0]).toEqual({
      ACTIONPRICE: running,
      ARTICLE: 'P100-010',
      SIZEX: null,
      CURRENCY: 'EUR',
      PRICE: 39.95,
      STARTDATE: day(-3),
      ENDDATE: day(3),
      SCN: expect.any(Number),
    });
    const wholesale = await ctx.t.call('GET', 'B2C_GetAllActionPrice', { token: ctx.b2b });
    expect(wholesale.statusCode).toBe(403);
  });

  it('gives one article’s action prices; a size-specific one hides the every-size one', async () => {
    const of = async (query: Record<string, string>) =>
      (await get('B2C_GetArticleACTIONPrice', query, ctx.b2c)).B2CGETARTICLEACTIONPRICE.ACTIONPRICES.map(
        (a: { ACTIONPRICE: number }) => a.ACTIONPRICE,
      );
    expect(await of({ strarticle: 'P100-010' })).toEqual([running, sizeM]);
    expect(await of({ strarticle: 'P100-010', strsize: 'M' })).toEqual([sizeM]);
    expect(await of({ strarticle: 'P100-010', strsize: 'S' })).toEqual([running]);
    expect(await of({ strarticle: 'P200-010' })).toEqual([]);
    expect(await of({ strarticle: 'P200-010', strall: '1' })).toEqual([future]);
    const hidden = await ctx.t.call('GET', 'B2C_GetArticleACTIONPrice', {
      token: ctx.b2c,
      query: { strarticle: 'P300-010' },
    });
    expect(hidden.statusCode).toBe(404);
  });

  it('refuses an overlapping action price for the same article, size and currency', async () => {
    await expect(
      ctx.t.services.pricing.actionPrices.createActionPrice({
        articleNo: 'P100-010',
        currency: 'EUR',
        priceMinor: 3000,
        startDate: day(3),
        endDate: day(5),
      }),
    ).rejects.toMatchObject({ code: 'ACTION_PRICE_OVERLAP' });
    // the day after it ends is free
    const { id } = await ctx.t.services.pricing.actionPrices.createActionPrice({
      articleNo: 'P100-010',
      currency: 'EUR',
      priceMinor: 3000,
      startDate: day(4),
      endDate: day(5),
    });
    await expect(
      ctx.t.services.pricing.actionPrices.updateActionPrice(id, {
        articleNo: 'P100-010',
        currency: 'EUR',
        priceMinor: 3000,
        startDate: day(2),
        endDate: day(5),
      }),
    ).rejects.toMatchObject({ code: 'ACTION_PRICE_OVERLAP' });
    await ctx.t.services.pricing.actionPrices.deleteActionPrice(id);
  });

  it('reports in the feed what is deleted or no longer shown', async () => {
    const before = (await get('B2C_GetAllActionPrice', {}, ctx.b2c)).B2CGETALLACTIONPRICE.SCN;
    await ctx.t.services.pricing.actionPrices.deleteActionPrice(sizeM);
    await ctx.t.services.pricing.actionPrices.updateActionPrice(future, {
      articleNo: 'P200-010',
      currency: 'EUR',
      priceMinor: 2895,
      startDate: day(10),
      endDate: day(20),
    });
    const feed = (await get('B2C_GetAllActionPrice', { strscn: String(before) }, ctx.b2c))
      .B2CGETALLACTIONPRICE;
    expect(feed.ACTIONPRICES).toEqual([]);
    expect(feed.DELETED).toEqual([sizeM, future]);
    const all = (await get('B2C_GetAllActionPrice', { strscn: String(before), strall: '1' }, ctx.b2c))
      .B2CGETALLACTIONPRICE;
    expect(all.ACTIONPRICES.map((a: { PRICE: number }) => a.PRICE)).toEqual([28.95]);
    expect(all.DELETED).toEqual([sizeM]);
  });
});

describe('customers', () => {
  it('validates customers and skips unchanged ones', async () => {
    // the number, name, price group and currency code are the schema's: admin-pricing.test.ts
    const c = {
      customerNo: 10001,
      name: 'Mode Jansen',
      priceGroup: 2,
      customerGroup: 'SHOPS',
      currency: 'EUR',
    };
    await expect(
      ctx.t.services.pricing.customers.saveCustomer({ ...c, discountBp: -1 }),
    ).rejects.toMatchObject({
      errors: [{ name: '/0/DISCOUNTPERC' }],
    });
    await expect(
      ctx.t.services.pricing.customers.saveCustomers([c, { ...c, discountBp: 10_001 }, c]),
    ).rejects.toMatchObject({
      errors: [{ name: '/1/CUSTOMER' }, { name: '/1/DISCOUNTPERC' }, { name: '/2/CUSTOMER' }],
    });
    expect(await ctx.t.services.pricing.customers.saveCustomer(c)).toEqual({ scn: null, changed: 0 });
    const changed = await ctx.t.services.pricing.customers.saveCustomer({ ...c, discountBp: 100 });
    expect(changed.changed).toBe(1);
    await ctx.t.services.pricing.customers.saveCustomer(c);
  });
});
