import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { article, sizeTable } from '../../../../test/helpers/fixtures.ts';
import { startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';

/** A token confined to customer 10001 sees and changes only that customer, on every operation. */
let t: TestApp;
let mine: string;
let any: string;

const call = (
  method: 'GET' | 'POST',
  op: string,
  options: { query?: Record<string, string>; body?: unknown } = {},
) => t.call(method, op, { token: mine, ...options });
const ok = async (
  method: 'GET' | 'POST',
  op: string,
  options: { query?: Record<string, string>; body?: unknown } = {},
) => {
  const res = await call(method, op, options);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const forbidden = async (
  method: 'GET' | 'POST',
  op: string,
  options: { query?: Record<string, string>; body?: unknown },
) => {
  const res = await call(method, op, options);
  expect(res.statusCode, res.body).toBe(403);
  expect(res.json().code).toBe('OUTSIDE_SCOPE');
  return res.json();
};

const ADDRESS = {
  ADDRESS: 'Oudegracht',
  HOUSENUMBER: '7',
  POSTALCODE: '3511 AE',
  CITY: 'Utrecht',
  COUNTRYPOST: 'NL',
};

beforeAll(async () => {
  t = await startTestApp();
  mine = await t.tokenFor(['B2B'], { customerNo: 10001 });
  any = await t.tokenFor(['B2B']);
  await t.services.catalog.saveSizeTable(sizeTable('CONF', ['S', 'M']));
  await t.services.catalog.saveArticles([article('K100-010'), article('K100-020')]);
  await t.services.pricing.customers.saveCustomers([
    { customerNo: 10001, name: 'Mode Jansen', priceGroup: 2, currency: 'EUR' },
    { customerNo: 10002, name: 'Kledinghuis De Vries', priceGroup: 2, currency: 'EUR' },
  ]);
  await t.services.customers.representatives.saveRepresentatives([
    { code: 'JDV', name: 'Jan de Vries' },
    { code: 'SPE', name: 'Sanne Peeters' },
  ]);
  await t.services.customers.customers.postCustomer({
    customerNo: 10001,
    representative: 'JDV',
    externalKey: 'MJ',
  });
  await t.services.customers.customers.postCustomer({
    customerNo: 10002,
    representative: 'SPE',
    externalKey: 'KDV',
  });
  await t.services.customers.articleLinks.saveArticleLinks([
    { customerNo: 10001, articleNo: 'K100-010', customerArticleNo: 'A1' },
    { customerNo: 10002, articleNo: 'K100-010', customerArticleNo: 'B1' },
    { customerNo: 10002, articleNo: 'K100-020', customerArticleNo: 'B2' },
  ]);
});
afterAll(() => t.close());

describe('a token confined to one customer', () => {
  it('B2B_GetAllCustomers: only its own customer', async () => {
    const body = await ok('GET', 'B2B_GetAllCustomers');
    expect(body.B2BGETALLCUSTOMERS.CUSTOMERS.map((c: { CUSTOMER: number }) => c.CUSTOMER)).toEqual([10001]);
    const all = await t.call('GET', 'B2B_GetAllCustomers', { token: any });
    expect(all.json().B2BGETALLCUSTOMERS.CUSTOMERS).toHaveLength(2);
  });

  it('B2B_GetCustomer: its own (also without strcustomer); 403 for another, also an unknown one or by key', async () => {
    expect((await ok('GET', 'B2B_GetCustomer')).B2BGETCUSTOMER.CUSTOMERS[0].CUSTOMER).toBe(10001);
    expect(
      (await ok('GET', 'B2B_GetCustomer', { query: { strcustomer: '10001' } })).B2BGETCUSTOMER.CUSTOMERS,
    ).toHaveLength(1);
    expect(
      (await ok('GET', 'B2B_GetCustomer', { query: { strexternalkey: 'MJ' } })).B2BGETCUSTOMER.CUSTOMERS[0]
        .CUSTOMER,
    ).toBe(10001);
    const other = await forbidden('GET', 'B2B_GetCustomer', { query: { strcustomer: '10002' } });
    expect(JSON.stringify(other)).not.toContain('Kledinghuis');
    await forbidden('GET', 'B2B_GetCustomer', { query: { strcustomer: '99999' } });
    await forbidden('GET', 'B2B_GetCustomer', { query: { strexternalkey: 'KDV' } });
    await forbidden('GET', 'B2B_GetCustomer', { query: { strexternalkey: 'NOSUCHKEY' } });
  });

  it('B2B_PostCustomer: changes its own names and addresses, not another customer nor its terms', async () => {
    const own = await ok('POST', 'B2B_PostCustomer', {
      body: {
        CUSTOMERDATA: { NAME2: 'Jansen Mode', VATNO: 'NL123456782B01', 'INVOICE ADDRESSES': [ADDRESS] },
      },
    });
    expect(own.B2BPOSTCUSTOMER).toMatchObject({ CUSTOMER: 10001, CREATED: false, CHANGED: true });
    expect(own.B2BPOSTCUSTOMER.CUSTOMERS[0]).toMatchObject({ NAME2: 'Jansen Mode', VATNO: 'NL123456782B01' });
    // Its record posted back as it is, terms included, is fine.
    const back = await ok('POST', 'B2B_PostCustomer', {
      body: { CUSTOMERDATA: own.B2BPOSTCUSTOMER.CUSTOMERS[0] },
    });
    expect(back.B2BPOSTCUSTOMER.CHANGED).toBe(false);
    await forbidden('POST', 'B2B_PostCustomer', {
      body: { CUSTOMERDATA: { CUSTOMER: 10002, NAME2: 'Overgenomen' } },
    });
    await forbidden('POST', 'B2B_PostCustomer', {
      body: { CUSTOMERDATA: { CUSTOMER: '10003', NAME: 'New', PRICEGROUP: 2, CURRENCY: 'EUR' } },
    });
    const terms = await forbidden('POST', 'B2B_PostCustomer', {
      body: { CUSTOMERDATA: { PRICEGROUP: 1, CREDITLIMIT: 99999 } },
    });
    expect(terms.detail).toMatch(/priceGroup|creditLimit/);
    await forbidden('POST', 'B2B_PostCustomer', { body: { CUSTOMERDATA: { EXTERNALKEY: 'KDV' } } });
    const other = await t.call('GET', 'B2B_GetCustomer', { token: any, query: { strcustomer: '10002' } });
    expect(other.json().B2BGETCUSTOMER.CUSTOMERS[0].NAME2).toBe('');
  });

  it('B2B_PostDeliveryAddress: its own customer only', async () => {
    const added = await ok('POST', 'B2B_PostDeliveryAddress', { body: { DELIVERYADDRESSDATA: ADDRESS } });
    expect(added.B2BPOSTDELIVERYADDRESS).toMatchObject({ CUSTOMER: 10001, EXTRAADDRESSNO: 1, CREATED: true });
    await ok('POST', 'B2B_PostDeliveryAddress', {
      body: { DELIVERYADDRESSDATA: { CUSTOMER: 10001, EXTRAADDRESSNO: 1, ...ADDRESS, HOUSENUMBER: '9' } },
    });
    await forbidden('POST', 'B2B_PostDeliveryAddress', {
      body: { DELIVERYADDRESSDATA: { CUSTOMER: 10002, ...ADDRESS } },
    });
    const other = await t.call('GET', 'B2B_GetCustomer', { token: any, query: { strcustomer: '10002' } });
    expect(other.json().B2BGETCUSTOMER.CUSTOMERS[0]['DELIVERY ADDRESSES']).toEqual([]);
  });

  it('B2B_GetRepresentatives: only its own representative; a change of representative shows in the feed', async () => {
    const first = (await ok('GET', 'B2B_GetRepresentatives')).B2BGETREPRESENTATIVES;
    expect(first.REPRESENTATIVES.map((r: { REPRESENTATIVE: string }) => r.REPRESENTATIVE)).toEqual(['JDV']);
    await t.services.customers.customers.postCustomer({ customerNo: 10001, representative: 'SPE' });
    const feed = (await ok('GET', 'B2B_GetRepresentatives', { query: { strscn: String(first.SCN) } }))
      .B2BGETREPRESENTATIVES;
    expect(feed.REPRESENTATIVES.map((r: { REPRESENTATIVE: string }) => r.REPRESENTATIVE)).toEqual(['SPE']);
    expect(feed.DELETED).toEqual(['JDV']);
    const all = await t.call('GET', 'B2B_GetRepresentatives', { token: any });
    expect(all.json().B2BGETREPRESENTATIVES.REPRESENTATIVES).toHaveLength(2);
  });

  it("B2B_GetRepresentativeCustomers: only its own representative's list, holding only itself", async () => {
    const own = (await ok('GET', 'B2B_GetRepresentativeCustomers', { query: { strrepresentative: 'SPE' } }))
      .B2BGETREPRESENTATIVECUSTOMERS;
    expect(own.CUSTOMERS.map((c: { CUSTOMER: number }) => c.CUSTOMER)).toEqual([10001]);
    await forbidden('GET', 'B2B_GetRepresentativeCustomers', { query: { strrepresentative: 'JDV' } });
    await forbidden('GET', 'B2B_GetRepresentativeCustomers', { query: { strrepresentative: 'NOBODY' } });
    const all = await t.call('GET', 'B2B_GetRepresentativeCustomers', {
      token: any,
      query: { strrepresentative: 'SPE' },
    });
    expect(all.json().B2BGETREPRESENTATIVECUSTOMERS.CUSTOMERS).toHaveLength(2);
  });

  it('B2B_GetAllCustomerArticleLink: its own links only; naming another customer is 403', async () => {
    const own = (await ok('GET', 'B2B_GetAllCustomerArticleLink')).B2BGETALLCUSTOMERARTICLELINK;
    expect(own.ARTICLELINKS.map((l: { CUSTOMERARTICLE: string }) => l.CUSTOMERARTICLE)).toEqual(['A1']);
    expect(
      (await ok('GET', 'B2B_GetAllCustomerArticleLink', { query: { strcustomer: '10001' } }))
        .B2BGETALLCUSTOMERARTICLELINK.ARTICLELINKS,
    ).toHaveLength(1);
    await forbidden('GET', 'B2B_GetAllCustomerArticleLink', { query: { strcustomer: '10002' } });
  });

  it('B2B_GetCustomerArticleLink: its own links (also without strcustomer); another customer is 403', async () => {
    const own = (await ok('GET', 'B2B_GetCustomerArticleLink')).B2BGETCUSTOMERARTICLELINK;
    expect(own.CUSTOMER).toBe(10001);
    expect(own.ARTICLELINKS).toHaveLength(1);
    await forbidden('GET', 'B2B_GetCustomerArticleLink', { query: { strcustomer: '10002' } });
    await forbidden('GET', 'B2B_GetCustomerArticleLink', {
      query: { strcustomer: '10002', strcustomerarticle: 'B1' },
    });
  });
});
