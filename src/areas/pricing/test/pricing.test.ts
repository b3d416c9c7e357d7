import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { article, sizeTable } from '../../../../test/helpers/fixtures.ts';
import { startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import type { ListPriceInput } from '../list-price-service.ts';

let t: TestApp;
let b2b: string;
let b2c: string;

function day(offset: number): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
}
const TODAY = day(0);

/** Prices for every size of an article: RECOMMENDED in group 1, SELLING in group 2 (EUR). */
function pricesOf(
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

beforeAll(async () => {
  t = await startTestApp();
  b2b = await t.tokenFor(['B2B']);
  b2c = await t.tokenFor(['B2C']);
  await t.services.catalog.saveSizeTable(sizeTable('CONF', ['S', 'M', 'L', 'XL']));
  await t.services.catalog.saveArticles([
    article('P100-010', { articleGroup: 'JEANS' }),
    article('P100-020', { articleGroup: 'JEANS' }),
    article('P200-010', { articleGroup: 'SHIRTS' }),
    article('P300-010', { articleGroup: 'SHIRTS', retail: false }),
    article('P400-010', { articleGroup: 'SHIRTS' }),
  ]);
  await t.services.pricing.listPrices.setListPrices([
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
  await t.services.pricing.customers.saveCustomers([
    { customerNo: 10001, name: 'Mode Jansen', priceGroup: 2, customerGroup: 'SHOPS', currency: 'EUR' },
    { customerNo: 10002, name: 'Kledinghuis De Vries', priceGroup: 2, currency: 'EUR', discountBp: 300 },
    { customerNo: 10003, name: 'Fashion Ltd', priceGroup: 2, customerGroup: 'SHOPS', currency: 'GBP' },
    { customerNo: 10004, name: 'Gesloten', priceGroup: 2, currency: 'EUR', active: false },
  ]);
});
afterAll(() => t.close());

const get = async (op: string, query: Record<string, string> = {}, token = b2b) => {
  const res = await t.call('GET', op, { token, query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const scnNow = async () => (await get('B2B_GetAllPrices', { strlimit: '1' })).B2BGETPRICE.SCN as number;

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
    expect(first.NEXTOFFSET).toBe(3);
    const second = (await get('B2B_GetAllPrices', { strlimit: '2', stroffset: '3' })).B2BGETPRICE;
    expect(second.ARTICLES.map((a: { ARTICLE: string }) => a.ARTICLE)).toEqual(['P200-010']);
    expect(second.NEXTOFFSET).toBeNull();
    const tooMany = await t.call('GET', 'B2B_GetAllPrices', { token: b2b, query: { strlimit: '1001' } });
    expect(tooMany.statusCode).toBe(400);
  });

  it('with strscn returns the complete price set of changed articles and lists articles left without prices', async () => {
    const before = await scnNow();
    await t.services.pricing.listPrices.setListPrices([
      {
        articleNo: 'P100-010',
        priceType: 'SELLING',
        priceGroup: 2,
        currency: 'EUR',
        sizex: 'M',
        priceMinor: 2600,
      },
    ]);
    await t.services.pricing.listPrices.deleteListPrices(
      pricesOf('P100-020', 0, 0).map(({ priceMinor, ...key }) => key),
    );
    const feed = (await get('B2B_GetAllPrices', { strscn: String(before) })).B2BGETPRICE;
    expect(feed.SCN).toBe(before + 2);
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
    await t.services.pricing.listPrices.setListPrices(pricesOf('P100-020', 5995, 2500));
  });
});

describe('list price writes', () => {
  it('saving the same prices twice does not move the SCN the second time', async () => {
    const rows = pricesOf('P400-010', 2995, 1200);
    const first = await t.services.pricing.listPrices.setListPrices(rows);
    expect(first.changed).toBe(4);
    const scn = await scnNow();
    expect(await t.services.pricing.listPrices.setListPrices(rows)).toEqual({ scn: null, changed: 0 });
    expect(await scnNow()).toBe(scn);
    // one changed row among unchanged ones: only that row gets the new SCN
    const changed = rows.map((r) =>
      r.sizex === 'M' && r.priceType === 'SELLING' ? { ...r, priceMinor: 1300 } : r,
    );
    const second = await t.services.pricing.listPrices.setListPrices(changed);
    expect(second).toEqual({ scn: scn + 1, changed: 1 });
    const feed = (await get('B2B_GetPriceChanges', { strscn: String(scn) })).B2BGETPRICECHANGES;
    expect(feed.PRICES).toEqual([
      {
        ARTICLE: 'P400-010',
        PRICETYPE: 'SELLING',
        PRICEGROUP: 2,
        CURRENCY: 'EUR',
        SIZEX: 'M',
        PRICE: 13,
        SCN: scn + 1,
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
    expect(await t.services.pricing.listPrices.deleteListPrices([key])).toEqual({ scn: null, changed: 0 });
  });

  it('refuses unknown articles, sizes outside the article and bad amounts; a bad row leaves nothing behind', async () => {
    const scn = await scnNow();
    const good = pricesOf('P400-010', 100, 100)[0]!;
    await expect(
      t.services.pricing.listPrices.setListPrices([good, { ...good, articleNo: 'NOPE-1' }]),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ name: '/1/ARTICLE' }] });
    await expect(
      t.services.pricing.listPrices.setListPrices([good, { ...good, sizex: 'XL' }]),
    ).rejects.toMatchObject({
      errors: [{ name: '/1/SIZEX' }],
    });
    await expect(
      t.services.pricing.listPrices.setListPrices([{ ...good, priceMinor: 12.5 }]),
    ).rejects.toMatchObject({
      errors: [{ name: '/0/PRICE' }],
    });
    // a currency that is no ISO code is the schema's: admin-pricing.test.ts sends it over HTTP
    await expect(t.services.pricing.listPrices.setListPrices([good, good])).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ name: '/1' }],
    });
    expect(await scnNow()).toBe(scn);
  });
});

describe('B2B_GetPriceChanges', () => {
  it('reports new, changed and deleted price rows after strscn, in key order', async () => {
    const before = await scnNow();
    const key = {
      articleNo: 'P200-010',
      priceType: 'SELLING' as const,
      priceGroup: 3,
      currency: 'EUR',
      sizex: 'S',
    };
    await t.services.pricing.listPrices.setListPrices([
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
    await t.services.pricing.listPrices.deleteListPrices([key]);
    const feed = (await get('B2B_GetPriceChanges', { strscn: String(before) })).B2BGETPRICECHANGES;
    expect(feed.SCN).toBe(before + 2);
    expect(feed.PRICES.map((p: { SIZEX: string; PRICE: number }) => [p.SIZEX, p.PRICE])).toEqual([
      ['M', 14.99],
      ['S', 15.5],
    ]);
    expect(feed.DELETED).toEqual([
      { ARTICLE: 'P200-010', PRICETYPE: 'SELLING', PRICEGROUP: 3, CURRENCY: 'EUR', SIZEX: 'S' },
    ]);
    const paged = (await get('B2B_GetPriceChanges', { strscn: String(before), strlimit: '2' }))
      .B2BGETPRICECHANGES;
    expect(paged.NEXTOFFSET).toBe(3);
    expect(paged.PRICES).toHaveLength(2);
    // a full list has no deletions
    const all = (await get('B2B_GetPriceChanges')).B2BGETPRICECHANGES;
    expect(all.DELETED).toEqual([]);
    expect(all.PRICES.some((p: { PRICEGROUP: number }) => p.PRICEGROUP === 3)).toBe(false);
  });
});

describe('B2B_GetArticlePrice', () => {
  let agreementId: number;
  let groupAgreementId: number;
  let lineId: number;

  beforeAll(async () => {
    agreementId = (
      await t.services.pricing.agreements.createAgreement({
        customerNo: 10001,
        scope: 'ARTICLE',
        scopeValue: 'P100-010',
        minQuantity: 10,
        validFrom: day(-30),
        validTo: day(30),
        netPrices: { EUR: 2199 },
      })
    ).id;
    groupAgreementId = (
      await t.services.pricing.agreements.createAgreement({
        customerGroup: 'SHOPS',
        scope: 'MODEL',
        scopeValue: 'P100',
        validFrom: day(-30),
        discountBp: 1250,
      })
    ).id;
    lineId = (
      await t.services.pricing.agreements.createLineDiscount({
        customerNo: 10002,
        scope: 'ARTICLEGROUP',
        scopeValue: 'SHIRTS',
        discountBp: 1500,
        validFrom: day(-1),
        validTo: day(1),
      })
    ).id;
    await t.services.pricing.agreements.createLineDiscount({
      customerNo: 10002,
      scope: 'ARTICLEGROUP',
      scopeValue: 'JEANS',
      discountBp: 4000,
      validFrom: day(-60),
      validTo: day(-1),
    });
  });

  const price = async (query: Record<string, string>) => {
    const body = await get('B2B_GetArticlePrice', { strsize: 'M', ...query });
    return body.B2BGETARTICLEPRICE;
  };

  it.each<{ name: string; query: Record<string, string>; expected: Record<string, unknown> }>([
    {
      name: 'quantity break reached: the customer agreement',
      query: { strcustomer: '10001', strarticle: 'P100-010', strquantity: '10' },
      expected: { RULE: 'AGREEMENT', NETPRICE: 21.99, LISTPRICE: 26, DISCOUNTPERC: null, LINEAMOUNT: 219.9 },
    },
    {
      name: 'below the break: the customer-group model agreement (12.5 % off 26.00 = 22.75)',
      query: { strcustomer: '10001', strarticle: 'P100-010', strquantity: '9' },
      expected: { RULE: 'AGREEMENT', NETPRICE: 22.75, DISCOUNTPERC: 12.5 },
    },
    {
      name: 'line discount on the article group',
      query: { strcustomer: '10002', strarticle: 'P200-010' },
      expected: {
        RULE: 'LINE_DISCOUNT',
        LISTPRICE: 17.5,
        NETPRICE: 14.87,
        DISCOUNTPERC: 15,
        AGREEMENT: null,
      },
    },
    {
      name: 'expired line discount: the customer discount (3 % off 25.00)',
      query: { strcustomer: '10002', strarticle: 'P100-020' },
      expected: { RULE: 'CUSTOMER_DISCOUNT', NETPRICE: 24.25, DISCOUNTPERC: 3, LINEDISCOUNT: null },
    },
    {
      name: 'the line discount on a date before it started is not there: customer discount',
      query: { strcustomer: '10002', strarticle: 'P200-010', strdate: day(-2) },
      expected: { RULE: 'CUSTOMER_DISCOUNT', NETPRICE: 16.97 },
    },
    {
      name: 'nothing else: the list price, with the recommended price for information',
      query: { strcustomer: '10001', strarticle: 'P200-010' },
      expected: {
        RULE: 'LIST_PRICE',
        NETPRICE: 17.5,
        LISTPRICE: 17.5,
        RECOMMENDEDPRICE: 39.95,
        PRICEGROUP: 2,
        CURRENCY: 'EUR',
      },
    },
    {
      name: "the customer's own currency by default",
      query: { strcustomer: '10003', strarticle: 'P200-010' },
      expected: { RULE: 'LIST_PRICE', CURRENCY: 'GBP', NETPRICE: 14.99, RECOMMENDEDPRICE: null },
    },
    {
      name: 'another currency on request',
      query: { strcustomer: '10003', strarticle: 'P200-010', strcurrency: 'EUR' },
      expected: { CURRENCY: 'EUR', NETPRICE: 17.5 },
    },
  ])('$name', async ({ query, expected }) => {
    const answer = await price(query);
    expect(answer).toMatchObject({ SIZEX: 'M', ...expected });
    if (answer.RULE === 'AGREEMENT') expect([agreementId, groupAgreementId]).toContain(answer.AGREEMENT);
    if (answer.RULE === 'LINE_DISCOUNT') expect(answer.LINEDISCOUNT).toBe(lineId);
  });

  it('names the agreement it applied', async () => {
    expect((await price({ strcustomer: '10001', strarticle: 'P100-010', strquantity: '12' })).AGREEMENT).toBe(
      agreementId,
    );
    expect((await price({ strcustomer: '10001', strarticle: 'P100-010' })).AGREEMENT).toBe(groupAgreementId);
  });

  it.each<{ query: Record<string, string>; status: number; code: string }>([
    {
      query: { strcustomer: '10001', strarticle: 'P200-010', strcurrency: 'CHF' },
      status: 404,
      code: 'PRICE_NOT_FOUND',
    },
    {
      query: { strcustomer: '10001', strarticle: 'P200-010', strsize: 'XL' },
      status: 404,
      code: 'SIZE_NOT_FOUND',
    },
    { query: { strcustomer: '10001', strarticle: 'NOPE' }, status: 404, code: 'ARTICLE_NOT_FOUND' },
    { query: { strcustomer: '99999', strarticle: 'P200-010' }, status: 404, code: 'CUSTOMER_NOT_FOUND' },
    { query: { strcustomer: '10004', strarticle: 'P200-010' }, status: 409, code: 'CUSTOMER_INACTIVE' },
    {
      query: { strcustomer: '10001', strarticle: 'P200-010', strdate: '2026-02-30' },
      status: 400,
      code: 'VALIDATION_FAILED',
    },
    {
      query: { strcustomer: '10001', strarticle: 'P200-010', strquantity: '0' },
      status: 400,
      code: 'VALIDATION_FAILED',
    },
    { query: { strcustomer: '0', strarticle: 'P200-010' }, status: 400, code: 'VALIDATION_FAILED' },
    {
      query: { strcustomer: '10001', strarticle: 'P200-010', strcurrency: 'eur' },
      status: 400,
      code: 'VALIDATION_FAILED',
    },
  ])('answers $status $code for $query', async ({ query, status, code }) => {
    const res = await t.call('GET', 'B2B_GetArticlePrice', { token: b2b, query: { strsize: 'M', ...query } });
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().code).toBe(code);
  });

  it('confines a token of one customer to that customer', async () => {
    const own = await t.tokenFor(['B2B'], { customerNo: 10002 });
    const ok = await t.call('GET', 'B2B_GetArticlePrice', {
      token: own,
      query: { strcustomer: '10002', strarticle: 'P200-010', strsize: 'M' },
    });
    expect(ok.statusCode).toBe(200);
    const other = await t.call('GET', 'B2B_GetArticlePrice', {
      token: own,
      query: { strcustomer: '10001', strarticle: 'P200-010', strsize: 'M' },
    });
    expect(other.statusCode).toBe(403);
    expect(other.json().code).toBe('OUTSIDE_SCOPE');
    // lists show only its own
    const lines = (await get('B2B_GetCustomerLineDiscounts', { strcustomer: '0' }, own))
      .B2BGETCUSTOMERLINEDISCOUNTS;
    expect(new Set(lines.LINEDISCOUNTS.map((l: { CUSTOMER: number }) => l.CUSTOMER))).toEqual(
      new Set([10002]),
    );
    const agreements = (await get('B2B_GetAllPriceAgreements', {}, own)).B2BGETALLPRICEAGREEMENTS;
    expect(agreements.AGREEMENTS).toEqual([]);
    const one = await t.call('GET', 'B2B_GetPriceAgreement', {
      token: own,
      query: { stragreement: String(agreementId) },
    });
    expect(one.statusCode).toBe(404);
  });
});

describe('price agreements', () => {
  it('lists agreements, filters by customer (with its group) and reports deletions in the feed', async () => {
    const all = (await get('B2B_GetAllPriceAgreements')).B2BGETALLPRICEAGREEMENTS;
    expect(all.AGREEMENTS.length).toBeGreaterThanOrEqual(2);
    const first = all.AGREEMENTS[0];
    expect(first).toEqual({
      AGREEMENT: expect.any(Number),
      CUSTOMER: 10001,
      CUSTOMERGROUP: null,
      ARTICLE: 'P100-010',
      MODEL: null,
      ARTICLEGROUP: null,
      MINQUANTITY: 10,
      VALIDFROM: day(-30),
      VALIDTO: day(30),
      TYPE: 'NETPRICE',
      DISCOUNTPERC: null,
      NETPRICES: [{ CURRENCY: 'EUR', PRICE: 21.99 }],
      SCN: expect.any(Number),
    });
    const of10003 = (await get('B2B_GetAllPriceAgreements', { strcustomer: '10003' }))
      .B2BGETALLPRICEAGREEMENTS;
    expect(of10003.AGREEMENTS.map((a: { CUSTOMERGROUP: string }) => a.CUSTOMERGROUP)).toEqual(['SHOPS']);

    const before = all.SCN as number;
    const { id } = await t.services.pricing.agreements.createAgreement({
      customerNo: 10002,
      scope: 'ARTICLEGROUP',
      scopeValue: 'SHIRTS',
      validFrom: TODAY,
      netPrices: { EUR: 1000, GBP: 900 },
    });
    const one = (await get('B2B_GetPriceAgreement', { stragreement: String(id) })).B2BGETPRICEAGREEMENT;
    expect(one.AGREEMENTS[0]).toMatchObject({
      AGREEMENT: id,
      ARTICLEGROUP: 'SHIRTS',
      NETPRICES: [
        { CURRENCY: 'EUR', PRICE: 10 },
        { CURRENCY: 'GBP', PRICE: 9 },
      ],
    });
    // the same terms again: no change, no SCN
    const same = {
      customerNo: 10002,
      scope: 'ARTICLEGROUP' as const,
      scopeValue: 'SHIRTS',
      validFrom: TODAY,
      netPrices: { GBP: 900, EUR: 1000 },
    };
    expect(await t.services.pricing.agreements.updateAgreement(id, same)).toEqual({ scn: null, changed: 0 });
    expect(
      (await t.services.pricing.agreements.updateAgreement(id, { ...same, minQuantity: 6 })).changed,
    ).toBe(1);
    await t.services.pricing.agreements.deleteAgreement(id);
    const feed = (await get('B2B_GetAllPriceAgreements', { strscn: String(before) }))
      .B2BGETALLPRICEAGREEMENTS;
    expect(feed.AGREEMENTS).toEqual([]);
    expect(feed.DELETED).toEqual([id]);
    const gone = await t.call('GET', 'B2B_GetPriceAgreement', {
      token: b2b,
      query: { stragreement: String(id) },
    });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().code).toBe('AGREEMENT_NOT_FOUND');
    await expect(t.services.pricing.agreements.deleteAgreement(id)).rejects.toMatchObject({
      code: 'AGREEMENT_NOT_FOUND',
    });
  });

  it('validates agreements', async () => {
    const base = {
      customerNo: 10001,
      scope: 'MODEL' as const,
      scopeValue: 'P100',
      validFrom: TODAY,
      discountBp: 500,
    };
    await expect(
      t.services.pricing.agreements.createAgreement({ ...base, customerGroup: 'SHOPS' }),
    ).rejects.toMatchObject({
      errors: [{ name: '/CUSTOMER' }],
    });
    await expect(
      t.services.pricing.agreements.createAgreement({ ...base, netPrices: { EUR: 100 } }),
    ).rejects.toMatchObject({
      errors: [{ name: '/DISCOUNTPERC' }],
    });
    await expect(
      t.services.pricing.agreements.createAgreement({ ...base, validTo: day(-1) }),
    ).rejects.toMatchObject({
      errors: [{ name: '/VALIDTO' }],
    });
    await expect(
      t.services.pricing.agreements.createAgreement({ ...base, discountBp: 10001 }),
    ).rejects.toMatchObject({
      errors: [{ name: '/DISCOUNTPERC' }],
    });
    await expect(
      t.services.pricing.agreements.createAgreement({ ...base, customerNo: 55555 }),
    ).rejects.toMatchObject({
      code: 'CUSTOMER_NOT_FOUND',
    });
    await expect(
      t.services.pricing.agreements.createAgreement({ ...base, scope: 'ARTICLE', scopeValue: 'NOPE-1' }),
    ).rejects.toMatchObject({ code: 'ARTICLE_NOT_FOUND' });
  });
});

describe('B2B_GetCustomerLineDiscounts', () => {
  it('lists the line discounts of one customer, and needs strcustomer', async () => {
    const body = (await get('B2B_GetCustomerLineDiscounts', { strcustomer: '10002' }))
      .B2BGETCUSTOMERLINEDISCOUNTS;
    expect(body.LINEDISCOUNTS).toHaveLength(2);
    expect(body.LINEDISCOUNTS[0]).toEqual({
      LINEDISCOUNT: expect.any(Number),
      CUSTOMER: 10002,
      MODEL: null,
      ARTICLEGROUP: 'SHIRTS',
      DISCOUNTPERC: 15,
      VALIDFROM: day(-1),
      VALIDTO: day(1),
      SCN: expect.any(Number),
    });
    expect(
      (await get('B2B_GetCustomerLineDiscounts', { strcustomer: '10001' })).B2BGETCUSTOMERLINEDISCOUNTS
        .LINEDISCOUNTS,
    ).toEqual([]);
    const missing = await t.call('GET', 'B2B_GetCustomerLineDiscounts', { token: b2b });
    expect(missing.statusCode).toBe(400);
    const unknown = await t.call('GET', 'B2B_GetCustomerLineDiscounts', {
      token: b2b,
      query: { strcustomer: '4' },
    });
    expect(unknown.json().code).toBe('CUSTOMER_NOT_FOUND');
  });
});

describe('action prices', () => {
  let running: number;
  let sizeM: number;
  let future: number;

  beforeAll(async () => {
    running = (
      await t.services.pricing.actionPrices.createActionPrice({
        articleNo: 'P100-010',
        currency: 'EUR',
        priceMinor: 3995,
        startDate: day(-3),
        endDate: day(3),
      })
    ).id;
    sizeM = (
      await t.services.pricing.actionPrices.createActionPrice({
        articleNo: 'P100-010',
        sizex: 'M',
        currency: 'EUR',
        priceMinor: 3495,
        startDate: day(-3),
        endDate: day(3),
      })
    ).id;
    future = (
      await t.services.pricing.actionPrices.createActionPrice({
        articleNo: 'P200-010',
        currency: 'EUR',
        priceMinor: 2995,
        startDate: day(10),
        endDate: day(20),
      })
    ).id;
    // an article not published for retail never shows
    await t.services.pricing.actionPrices.createActionPrice({
      articleNo: 'P300-010',
      currency: 'EUR',
      priceMinor: 100,
      startDate: day(-3),
      endDate: day(3),
    });
  });

  it('lists only the action prices running today, unless strdate or strall say otherwise', async () => {
    const ids = async (query: Record<string, string>) =>
      (await get('B2C_GetAllActionPrice', query, b2c)).B2CGETALLACTIONPRICE.ACTIONPRICES.map(
        (a: { ACTIONPRICE: number }) => a.ACTIONPRICE,
      );
    expect(await ids({})).toEqual([running, sizeM]);
    expect(await ids({ strdate: day(15) })).toEqual([future]);
    expect(await ids({ strall: '1' })).toEqual([running, sizeM, future]);
    const body = (await get('B2C_GetAllActionPrice', {}, b2c)).B2CGETALLACTIONPRICE;
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
    const wholesale = await t.call('GET', 'B2C_GetAllActionPrice', { token: b2b });
    expect(wholesale.statusCode).toBe(403);
  });

  it('gives one article’s action prices; a size-specific one hides the every-size one', async () => {
    const of = async (query: Record<string, string>) =>
      (await get('B2C_GetArticleACTIONPrice', query, b2c)).B2CGETARTICLEACTIONPRICE.ACTIONPRICES.map(
        (a: { ACTIONPRICE: number }) => a.ACTIONPRICE,
      );
    expect(await of({ strarticle: 'P100-010' })).toEqual([running, sizeM]);
    expect(await of({ strarticle: 'P100-010', strsize: 'M' })).toEqual([sizeM]);
    expect(await of({ strarticle: 'P100-010', strsize: 'S' })).toEqual([running]);
    expect(await of({ strarticle: 'P200-010' })).toEqual([]);
    expect(await of({ strarticle: 'P200-010', strall: '1' })).toEqual([future]);
    const hidden = await t.call('GET', 'B2C_GetArticleACTIONPrice', {
      token: b2c,
      query: { strarticle: 'P300-010' },
    });
    expect(hidden.statusCode).toBe(404);
  });

  it('refuses an overlapping action price for the same article, size and currency', async () => {
    await expect(
      t.services.pricing.actionPrices.createActionPrice({
        articleNo: 'P100-010',
        currency: 'EUR',
        priceMinor: 3000,
        startDate: day(3),
        endDate: day(5),
      }),
    ).rejects.toMatchObject({ code: 'ACTION_PRICE_OVERLAP' });
    // the day after it ends is free
    const { id } = await t.services.pricing.actionPrices.createActionPrice({
      articleNo: 'P100-010',
      currency: 'EUR',
      priceMinor: 3000,
      startDate: day(4),
      endDate: day(5),
    });
    await expect(
      t.services.pricing.actionPrices.updateActionPrice(id, {
        articleNo: 'P100-010',
        currency: 'EUR',
        priceMinor: 3000,
        startDate: day(2),
        endDate: day(5),
      }),
    ).rejects.toMatchObject({ code: 'ACTION_PRICE_OVERLAP' });
    await t.services.pricing.actionPrices.deleteActionPrice(id);
  });

  it('reports in the feed what is deleted or no longer shown', async () => {
    const before = (await get('B2C_GetAllActionPrice', {}, b2c)).B2CGETALLACTIONPRICE.SCN;
    await t.services.pricing.actionPrices.deleteActionPrice(sizeM);
    await t.services.pricing.actionPrices.updateActionPrice(future, {
      articleNo: 'P200-010',
      currency: 'EUR',
      priceMinor: 2895,
      startDate: day(10),
      endDate: day(20),
    });
    const feed = (await get('B2C_GetAllActionPrice', { strscn: String(before) }, b2c)).B2CGETALLACTIONPRICE;
    expect(feed.ACTIONPRICES).toEqual([]);
    expect(feed.DELETED).toEqual([sizeM, future]);
    const all = (await get('B2C_GetAllActionPrice', { strscn: String(before), strall: '1' }, b2c))
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
    await expect(t.services.pricing.customers.saveCustomer({ ...c, discountBp: -1 })).rejects.toMatchObject({
      errors: [{ name: '/0/DISCOUNTPERC' }],
    });
    await expect(
      t.services.pricing.customers.saveCustomers([c, { ...c, discountBp: 10_001 }, c]),
    ).rejects.toMatchObject({
      errors: [{ name: '/1/CUSTOMER' }, { name: '/1/DISCOUNTPERC' }, { name: '/2/CUSTOMER' }],
    });
    expect(await t.services.pricing.customers.saveCustomer(c)).toEqual({ scn: null, changed: 0 });
    const changed = await t.services.pricing.customers.saveCustomer({ ...c, discountBp: 100 });
    expect(changed.changed).toBe(1);
    await t.services.pricing.customers.saveCustomer(c);
  });
});

describe('customer numbers beyond the stored range', () => {
  it.each([
    'B2B_GetAllPriceAgreements',
    'B2B_GetCustomerLineDiscounts',
    'B2B_GetArticlePrice',
  ])('%s answers 400 naming strcustomer, not a database error', async (op) => {
    const query: Record<string, string> = { strcustomer: '99999999999' };
    if (op === 'B2B_GetArticlePrice') Object.assign(query, { strarticle: 'X', strsize: 'M' });
    const res = await t.call('GET', op, { token: b2b, query });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].name).toBe('strcustomer');
  });
});
