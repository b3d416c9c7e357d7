import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { IMPORT_KINDS } from '../../../areas.ts';
import { runImport } from '../../../kernel/import/run-import.ts';
import { refusedFields } from '../../../kernel/refused-fields.ts';

let t: TestApp;
let admin: string;
let wholesale: string;

const send = (method: 'PUT' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
  t.send(admin, method, url, payload);
const names = (res: { json(): { errors?: Array<{ name: string }> } }) =>
  (res.json().errors ?? []).map((e) => e.name).sort();

const price = async (query: Record<string, string>) => {
  const res = await t.call('GET', 'B2B_GetArticlePrice', { token: wholesale, query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().B2BGETARTICLEPRICE;
};

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

describe('pricing through the import and the admin area', () => {
  it('imports customers, prices and agreements; a second import changes nothing', async () => {
    for (const [kind, records] of [
      ['customers', 2],
      ['prices', 6],
      ['agreements', 2],
    ] as const) {
      const file = `examples/${kind}.csv`;
      expect(await runImport(t.services, IMPORT_KINDS[kind]!, file)).toMatchObject({
        records,
        written: records,
        rejected: [],
      });
      expect(await runImport(t.services, IMPORT_KINDS[kind]!, file)).toMatchObject({
        written: 0,
        unchanged: records,
      });
    }
    const agreements = await t.call('GET', 'B2B_GetAllPriceAgreements', { token: wholesale });
    expect(agreements.json().B2BGETALLPRICEAGREEMENTS.AGREEMENTS).toHaveLength(2);
  });

  it('prices by the imported terms: agreement from its quantity break, customer discount below it', async () => {
    const agreed = await price({
      strcustomer: '20001',
      strarticle: 'T2001-100',
      strsize: 'S',
      strquantity: '12',
      strdate: '2026-06-01',
    });
    expect(agreed).toMatchObject({ RULE: 'AGREEMENT', NETPRICE: 8.5, LISTPRICE: 9.95, CURRENCY: 'EUR' });
    const single = await price({
      strcustomer: '20001',
      strarticle: 'T2001-100',
      strsize: 'S',
      strquantity: '1',
      strdate: '2026-06-01',
    });
    // 2.5 % of 9.95 is 0.24875, rounded half away from zero to 0.25
    expect(single).toMatchObject({ RULE: 'CUSTOMER_DISCOUNT', NETPRICE: 9.7 });
    const group = await price({
      strcustomer: '20001',
      strarticle: 'S3001-200',
      strsize: '42',
      strdate: '2026-06-01',
    });
    expect(group).toMatchObject({ RULE: 'AGREEMENT', NETPRICE: 40.05 });
  });

  it('sets list prices over HTTP, all or none, naming a bad price in the wire terms', async () => {
    const bad = await send('PUT', '/TV2/Admin/prices', {
      PRICES: [
        { ARTICLE: 'T2001-900', PRICETYPE: 'SELLING', PRICEGROUP: 2, CURRENCY: 'EUR', SIZEX: 'M', PRICE: 10 },
        {
          ARTICLE: 'T2001-900',
          PRICETYPE: 'SELLING',
          PRICEGROUP: 2,
          CURRENCY: 'EUR',
          SIZEX: 'L',
          PRICE: '10.999',
        },
      ],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([
      { name: '/PRICES/1/PRICE', message: expect.stringMatching(/two decimals/) },
    ]);
    const since = (
      await t.call('GET', 'B2B_GetPriceChanges', { token: wholesale, query: { strscn: '0' } })
    ).json().B2BGETPRICECHANGES.SCN;
    const ok = await send('PUT', '/TV2/Admin/prices', {
      PRICES: [
        {
          ARTICLE: 'T2001-900',
          PRICETYPE: 'SELLING',
          PRICEGROUP: 2,
          CURRENCY: 'EUR',
          SIZEX: 'M',
          PRICE: '10.50',
        },
      ],
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const feed = (
      await t.call('GET', 'B2B_GetPriceChanges', { token: wholesale, query: { strscn: String(since) } })
    ).json().B2BGETPRICECHANGES;
    expect(feed.PRICES).toEqual([expect.objectContaining({ ARTICLE: 'T2001-900', SIZEX: 'M', PRICE: 10.5 })]);

    const removed = await send('POST', '/TV2/Admin/prices/delete', {
      PRICES: [{ ARTICLE: 'T2001-900', PRICETYPE: 'SELLING', PRICEGROUP: 2, CURRENCY: 'EUR', SIZEX: 'M' }],
    });
    expect(removed.statusCode).toBe(200);
    const after = (
      await t.call('GET', 'B2B_GetPriceChanges', { token: wholesale, query: { strscn: String(since) } })
    ).json().B2BGETPRICECHANGES;
    expect(after.DELETED).toEqual([expect.objectContaining({ ARTICLE: 'T2001-900', SIZEX: 'M' })]);
  });

  it('creates, changes and deletes agreements and action prices', async () => {
    const created = await send('POST', '/TV2/Admin/agreements', {
      CUSTOMER: 20002,
      MODEL: 'T2001',
      VALIDFROM: '2026-01-01',
      DISCOUNTPERC: 20,
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().ID;
    expect(
      (await price({ strcustomer: '20002', strarticle: 'T2001-100', strsize: 'M', strdate: '2026-06-01' }))
        .NETPRICE,
    ).toBe(7.96);
    const changed = await send('PUT', `/TV2/Admin/agreements/${id}`, {
      CUSTOMER: 20002,
      MODEL: 'T2001',
      VALIDFROM: '2026-01-01',
      DISCOUNTPERC: 10,
    });
    expect(changed.json()).toMatchObject({ CHANGED: 1 });
    expect(
      (await price({ strcustomer: '20002', strarticle: 'T2001-100', strsize: 'M', strdate: '2026-06-01' }))
        .NETPRICE,
    ).toBe(8.95); // 0.995 rounds to 1.00
    expect((await send('DELETE', `/TV2/Admin/agreements/${id}`)).statusCode).toBe(204);
    expect(
      (await price({ strcustomer: '20002', strarticle: 'T2001-100', strsize: 'M', strdate: '2026-06-01' }))
        .RULE,
    ).toBe('LIST_PRICE');

    const both = await send('POST', '/TV2/Admin/agreements', {
      CUSTOMER: 20002,
      VALIDFROM: '2026-01-01',
      DISCOUNTPERC: 5,
    });
    expect(both.statusCode).toBe(400);

    const action = await send('POST', '/TV2/Admin/actionprices', {
      ARTICLE: 'T2001-100',
      CURRENCY: 'EUR',
      PRICE: 14.95,
      STARTDATE: '2026-01-01',
      ENDDATE: '2099-12-31',
    });
    expect(action.statusCode, action.body).toBe(200);
    const retail = await t.tokenFor(['B2C']);
    const res = await t.call('GET', 'B2C_GetArticleACTIONPrice', {
      token: retail,
      query: { strarticle: 'T2001-100' },
    });
    expect(res.json().B2CGETARTICLEACTIONPRICE.ACTIONPRICES).toEqual([
      expect.objectContaining({ ARTICLE: 'T2001-100', PRICE: 14.95, CURRENCY: 'EUR' }),
    ]);
  });

  it('keeps customers: a change is written once, the same data again is not', async () => {
    const body = {
      CUSTOMER: 20003,
      NAME: 'Boutique Anna',
      PRICEGROUP: 2,
      CURRENCY: 'EUR',
      DISCOUNTPERC: '1.5',
    };
    expect((await send('PUT', '/TV2/Admin/customers/20003', body)).json()).toMatchObject({ CHANGED: 1 });
    expect((await send('PUT', '/TV2/Admin/customers/20003', body)).json()).toEqual({ SCN: null, CHANGED: 0 });
    const bad = await send('PUT', '/TV2/Admin/customers/20003', { ...body, CURRENCY: 'EURO' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].name).toBe('/CURRENCY');
  });

  it('refuses the shape of each field by the schemas, over HTTP and in the import, naming it', async () => {
    const price = { ARTICLE: 'T2001-900', PRICETYPE: 'SELLING', PRICEGROUP: 2, CURRENCY: 'EUR', SIZEX: 'M' };
    const prices = await send('PUT', '/TV2/Admin/prices', {
      PRICES: [
        { ...price, PRICE: 1 },
        { ...price, CURRENCY: 'eur', PRICEGROUP: 10_000, PRICE: 1 },
      ],
    });
    expect(prices.statusCode).toBe(400);
    expect(names(prices)).toEqual(['/PRICES/1/CURRENCY', '/PRICES/1/PRICEGROUP']);
    const twice = await send('PUT', '/TV2/Admin/prices', {
      PRICES: [
        { ...price, PRICE: 1 },
        { ...price, PRICE: -1 },
        { ...price, PRICE: 2 },
      ],
    });
    expect(names(twice)).toEqual(['/PRICES/1', '/PRICES/1/PRICE', '/PRICES/2']);
    const removed = await send('POST', '/TV2/Admin/prices/delete', {
      PRICES: [{ ...price, ARTICLE: '', CURRENCY: 'eur', PRICEGROUP: 0, SIZEX: '' }],
    });
    expect(names(removed)).toEqual([
      '/PRICES/0/ARTICLE',
      '/PRICES/0/CURRENCY',
      '/PRICES/0/PRICEGROUP',
      '/PRICES/0/SIZEX',
    ]);

    const customer = await send('PUT', '/TV2/Admin/customers/0', {
      CUSTOMER: 0,
      NAME: ' ',
      PRICEGROUP: 0,
      CUSTOMERGROUP: 'no group!',
      CURRENCY: 'euro',
    });
    expect(customer.statusCode).toBe(400);
    expect(names(customer)).toEqual(['/CURRENCY', '/CUSTOMER', '/CUSTOMERGROUP', '/NAME', '/PRICEGROUP']);
    const discount = await send('PUT', '/TV2/Admin/customers/20003', {
      CUSTOMER: 20003,
      NAME: 'Boutique Anna',
      PRICEGROUP: 2,
      CURRENCY: 'EUR',
      DISCOUNTPERC: '-0.01',
    });
    expect(discount.json().errors).toEqual([
      { name: '/DISCOUNTPERC', message: 'must be 0 to 10000 basis points' },
    ]);

    const agreement = await send('POST', '/TV2/Admin/agreements', {
      CUSTOMER: 0,
      CUSTOMERGROUP: 'no group!',
      MODEL: 'P 100!',
      MINQUANTITY: 0,
      VALIDFROM: '2026-01-01',
      NETPRICES: [{ CURRENCY: 'eur', PRICE: 1 }],
    });
    expect(agreement.statusCode).toBe(400);
    expect(names(agreement)).toEqual([
      '/CUSTOMER',
      '/CUSTOMERGROUP',
      '/MINQUANTITY',
      '/MODEL',
      '/NETPRICES', // the list, or null: the union's other branch
      '/NETPRICES/0/CURRENCY',
    ]);
    const period = await send('POST', '/TV2/Admin/agreements', {
      CUSTOMER: 20002,
      MODEL: 'T2001',
      VALIDFROM: '2026-02-30',
      DISCOUNTPERC: 100.01,
    });
    expect(names(period)).toEqual(['/DISCOUNTPERC', '/VALIDFROM']);
    const noScope = await send('POST', '/TV2/Admin/linediscounts', {
      CUSTOMER: 20002,
      DISCOUNTPERC: 5,
      VALIDFROM: '2026-01-01',
    });
    expect(names(noScope)).toEqual(['/MODEL']);
    // a line discount has no ARTICLE scope: the key is refused, not dropped (issue 14)
    const articleScope = await send('POST', '/TV2/Admin/linediscounts', {
      CUSTOMER: 20002,
      ARTICLE: 'T2001-100',
      DISCOUNTPERC: 5,
      VALIDFROM: '2026-01-01',
    });
    expect(names(articleScope)).toEqual(['/ARTICLE']);
    const action = await send('POST', '/TV2/Admin/actionprices', {
      ARTICLE: '',
      CURRENCY: 'eur',
      PRICE: 1,
      STARTDATE: '2026-01-01',
      ENDDATE: '2026-01-31',
    });
    expect(names(action)).toEqual(['/ARTICLE', '/CURRENCY']);

    // CSV gives numbers as digit strings; their ranges hold in the import as over HTTP (the import
    // names a field once per branch of its union)
    const fields = (work: () => unknown) => [...new Set(refusedFields(work))].sort();
    const record = { CUSTOMER: '99999999999', NAME: 'X', PRICEGROUP: '10000', CURRENCY: 'EUR' };
    expect(fields(() => IMPORT_KINDS.customers!.parse(record, 'csv'))).toEqual(['/CUSTOMER', '/PRICEGROUP']);
    const http = await send('PUT', '/TV2/Admin/customers/20003', record);
    expect(names(http)).toEqual(['/CUSTOMER', '/PRICEGROUP']);
    expect(
      fields(() =>
        IMPORT_KINDS.agreements!.parse(
          { CUSTOMER: '0', MODEL: 'T2001', MINQUANTITY: '1000001', VALIDFROM: '2026-01-01' },
          'csv',
        ),
      ),
    ).toEqual(['/CUSTOMER', '/MINQUANTITY']);
  });

  it('creates an agreement once when the same import runs concurrently', async () => {
    const input = {
      customerNo: 20002,
      scope: 'ARTICLEGROUP' as const,
      scopeValue: 'TSHIRT',
      minQuantity: 6,
      validFrom: '2026-03-01',
      discountBp: 700,
    };
    const results = await Promise.all(
      Array.from({ length: 10 }, () => t.services.pricing.agreements.saveAgreement(input)),
    );
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    expect(results.filter((r) => r.changed === 1)).toHaveLength(1);
    const listed = await t.call('GET', 'B2B_GetAllPriceAgreements', {
      token: wholesale,
      query: { strcustomer: '20002' },
    });
    const same = listed
      .json()
      .B2BGETALLPRICEAGREEMENTS.AGREEMENTS.filter(
        (a: { ARTICLEGROUP: string | null; MINQUANTITY: number }) =>
          a.ARTICLEGROUP === 'TSHIRT' && a.MINQUANTITY === 6,
      );
    expect(same).toHaveLength(1);
  });
});
