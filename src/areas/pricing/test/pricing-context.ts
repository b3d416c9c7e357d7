import { afterAll, beforeAll, expect } from 'vitest';
import { article, sizeTable } from '../../../../test/helpers/fixtures.ts';
import { startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import type { ListPriceInput } from '../list-price-service.ts';

/** The date `offset` days from today (UTC), as YYYY-MM-DD. */
export function day(offset: number): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
}
export const TODAY = day(0);

/** Prices for every size of an article: RECOMMENDED in group 1, SELLING in group 2 (EUR). */
export function pricesOf(
  articleNo: string,
  recommended: number,
  selling: number,
  sizes = ['S', 'M'],
): ListPriceInput[] {
  return sizes.flatMap((sizex) => [
    {
      articleNo,
      priceType: 'RECOMMENDED' as const,
      priceGroup: 1,
      currency: 'EUR',
      sizex,
      priceMinor: recommended,
    },
    { articleNo, priceType: 'SELLING' as const, priceGroup: 2, currency: 'EUR', sizex, priceMinor: selling },
  ]);
}

/**
 * The shared set-up of the pricing tests (list-prices, net-prices-and-agreements,
 * action-prices-and-customers): call it once at the top of a test file. It registers the file's
 * beforeAll/afterAll (a fresh app with articles P100-010 to P400-010, their list prices and customers
 * 10001 to 10004, a B2B and a B2C token) and answers the app, the tokens and the small helpers; `t`,
 * `b2b` and `b2c` are there from beforeAll on.
 */
export function pricingContext() {
  let app: TestApp | undefined;
  let b2bToken = '';
  let b2cToken = '';

  beforeAll(async () => {
    app = await startTestApp();
    b2bToken = await app.tokenFor(['B2B']);
    b2cToken = await app.tokenFor(['B2C']);
    await app.services.catalog.saveSizeTable(sizeTable('CONF', ['S', 'M', 'L', 'XL']));
    await app.services.catalog.saveArticles([
      article('P100-010', { articleGroup: 'JEANS' }),
      article('P100-020', { articleGroup: 'JEANS' }),
      article('P200-010', { articleGroup: 'SHIRTS' }),
      article('P300-010', { articleGroup: 'SHIRTS', retail: false }),
      article('P400-010', { articleGroup: 'SHIRTS' }),
    ]);
    await app.services.pricing.listPrices.setListPrices([
      ...pricesOf('P100-010', 5995, 2500),
      ...pricesOf('P100-020', 5995, 2500),
      ...pricesOf('P200-010', 3995, 1750),
      {
        articleNo: 'P200-010',
        priceType: 'RECOMMENDED',
        priceGroup: 2,
        currency: 'EUR',
        sizex: 'M',
        priceMinor: 3995,
      },
      {
        articleNo: 'P200-010',
        priceType: 'SELLING',
        priceGroup: 2,
        currency: 'GBP',
        sizex: 'M',
        priceMinor: 1550,
      },
      {
        articleNo: 'P200-010',
        priceType: 'SELLING',
        priceGroup: 3,
        currency: 'EUR',
        sizex: 'S',
        priceMinor: 1600,
      },
    ]);
    await app.services.pricing.customers.saveCustomers([
      { customerNo: 10001, name: 'Mode Jansen', priceGroup: 2, customerGroup: 'SHOPS', currency: 'EUR' },
      { customerNo: 10002, name: 'Kledinghuis De Vries', priceGroup: 2, currency: 'EUR', discountBp: 300 },
      { customerNo: 10003, name: 'Fashion Ltd', priceGroup: 2, customerGroup: 'SHOPS', currency: 'GBP' },
      { customerNo: 10004, name: 'Gesloten', priceGroup: 2, currency: 'EUR', active: false },
    ]);
  });
  afterAll(() => app?.close());

  const t = (): TestApp => {
    if (!app) throw new Error('the pricing test app is there from beforeAll on');
    return app;
  };
  const get = async (op: string, query: Record<string, string> = {}, token = b2bToken) => {
    const res = await t().call('GET', op, { token, query });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  return {
    get t(): TestApp {
      return t();
    },
    get b2b(): string {
      return b2bToken;
    },
    get b2c(): string {
      return b2cToken;
    },
    get,
    scnNow: async () => (await get('B2B_GetAllPrices', { strlimit: '1' })).B2BGETPRICE.SCN as number,
  };
}
