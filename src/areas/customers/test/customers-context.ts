import { afterAll, beforeAll, expect } from 'vitest';
import { article, sizeTable } from '../../../../test/helpers/fixtures.ts';
import { startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';

export const AMSTERDAM = {
  ADDRESS: 'Kalverstraat',
  HOUSENUMBER: '12a',
  POSTALCODE: '1012ab',
  CITY: 'Amsterdam',
  COUNTRYPOST: 'nl',
};

/**
 * The shared set-up of the customers tests (customers-and-representatives,
 * delivery-addresses-and-article-links): call it once at the top of a test file. It registers the
 * file's beforeAll/afterAll (a fresh app with three articles, customers 10001 and 10002 made by
 * pricing, representatives JDV and SPE, a B2B and a B2C token) and answers the app, the tokens and
 * the small helpers; `t`, `b2b` and `b2c` are there from beforeAll on.
 */
export function customersContext() {
  let app: TestApp | undefined;
  let b2bToken = '';
  let b2cToken = '';

  beforeAll(async () => {
    app = await startTestApp();
    b2bToken = await app.tokenFor(['B2B']);
    b2cToken = await app.tokenFor(['B2C']);
    await app.services.catalog.saveSizeTable(sizeTable('CONF', ['S', 'M', 'L']));
    await app.services.catalog.saveArticles([article('C100-010'), article('C100-020'), article('C200-010')]);
    await app.services.pricing.customers.saveCustomers([
      { customerNo: 10001, name: 'Mode Jansen', priceGroup: 2, customerGroup: 'SHOPS', currency: 'EUR' },
      { customerNo: 10002, name: 'Kledinghuis De Vries', priceGroup: 2, currency: 'EUR', discountBp: 300 },
    ]);
    await app.services.customers.representatives.saveRepresentatives([
      { code: 'JDV', name: 'Jan de Vries', email: 'jan@example.com', phone: '+31 6 12345678' },
      { code: 'spe', name: 'Sanne Peeters' },
    ]);
  });
  afterAll(() => app?.close());

  const t = (): TestApp => {
    if (!app) throw new Error('the customers test app is there from beforeAll on');
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
    post: (op: string, body: unknown, headers: Record<string, string> = {}, token = b2bToken) =>
      t().call('POST', op, { token, body, headers }),
    customer: async (no: number) =>
      (await get('B2B_GetCustomer', { strcustomer: String(no) })).B2BGETCUSTOMER.CUSTOMERS[0],
    scnNow: async () =>
      (await get('B2B_GetAllCustomers', { strlimit: '1' })).B2BGETALLCUSTOMERS.SCN as number,
  };
}
