import { beforeAll, describe, expect, it } from 'vitest';
import { day, pricingContext, TODAY } from './pricing-context.ts';

const ctx = pricingContext();
const { get } = ctx;

// The list prices these answers rest on, as list-prices.test.ts leaves them: P100-010 sells at 26.00
// in size M, P200-010 at 15.50 (S) and 14.99 (M) in GBP, and no longer in price group 3.
beforeAll(async () => {
  await ctx.t.services.pricing.listPrices.setListPrices([
    {
      articleNo: 'P100-010',
      priceType: 'SELLING',
      priceGroup: 2,
      currency: 'EUR',
      sizex: 'M',
      priceMinor: 2600,
    },
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
  await ctx.t.services.pricing.listPrices.deleteListPrices([
    { articleNo: 'P200-010', priceType: 'SELLING', priceGroup: 3, currency: 'EUR', sizex: 'S' },
  ]);
});

describe('B2B_GetArticlePrice', () => {
  let agreementId: number;
  let groupAgreementId: number;
  let lineId: number;

  beforeAll(async () => {
    agreementId = (
      await ctx.t.services.pricing.agreements.createAgreement({
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
      await ctx.t.services.pricing.agreements.createAgreement({
        customerGroup: 'SHOPS',
        scope: 'MODEL',
        scopeValue: 'P100',
        validFrom: day(-30),
        discountBp: 1250,
      })
    ).id;
    lineId = (
      await ctx.t.services.pricing.agreements.createLineDiscount({
        customerNo: 10002,
        scope: 'ARTICLEGROUP',
        scopeValue: 'SHIRTS',
        discountBp: 1500,
        validFrom: day(-1),
        validTo: day(1),
      })
    ).id;
    await ctx.t.services.pricing.agreements.createLineDiscount({
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
    const res = await ctx.t.call('GET', 'B2B_GetArticlePrice', {
      token: ctx.b2b,
      query: { strsize: 'M', ...query },
    });
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().code).toBe(code);
  });

  it('confines a token of one customer to that customer', async () => {
    const own = await ctx.t.tokenFor(['B2B'], { customerNo: 10002 });
    const ok = await ctx.t.call('GET', 'B2B_GetArticlePrice', {
      token: own,
      query: { strcustomer: '10002', strarticle: 'P200-010', strsize: 'M' },
    });
    expect(ok.statusCode).toBe(200);
    const other = await ctx.t.call('GET', 'B2B_GetArticlePrice', {
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
    const one = await ctx.t.call('GET', 'B2B_GetPriceAgreement', {
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
    const { id } = await ctx.t.services.pricing.agreements.createAgreement({
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
    expect(await ctx.t.services.pricing.agreements.updateAgreement(id, same)).toEqual({
      scn: null,
      changed: 0,
    });
    expect(
      (await ctx.t.services.pricing.agreements.updateAgreement(id, { ...same, minQuantity: 6 })).changed,
    ).toBe(1);
    await ctx.t.services.pricing.agreements.deleteAgreement(id);
    const feed = (await get('B2B_GetAllPriceAgreements', { strscn: String(before) }))
      .B2BGETALLPRICEAGREEMENTS;
    expect(feed.AGREEMENTS).toEqual([]);
    expect(feed.DELETED).toEqual([id]);
    const gone = await ctx.t.call('GET', 'B2B_GetPriceAgreement', {
      token: ctx.b2b,
      query: { stragreement: String(id) },
    });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().code).toBe('AGREEMENT_NOT_FOUND');
    await expect(ctx.t.services.pricing.agreements.deleteAgreement(id)).rejects.toMatchObject({
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
      ctx.t.services.pricing.agreements.createAgreement({ ...base, customerGroup: 'SHOPS' }),
    ).rejects.toMatchObject({
      errors: [{ name: '/CUSTOMER' }],
    });
    await expect(
      ctx.t.services.pricing.agreements.createAgreement({ ...base, netPrices: { EUR: 100 } }),
    ).rejects.toMatchObject({
      errors: [{ name: '/DISCOUNTPERC' }],
    });
    await expect(
      ctx.t.services.pricing.agreements.createAgreement({ ...base, validTo: day(-1) }),
    ).rejects.toMatchObject({
      errors: [{ name: '/VALIDTO' }],
    });
    await expect(
      ctx.t.services.pricing.agreements.createAgreement({ ...base, discountBp: 10001 }),
    ).rejects.toMatchObject({
      errors: [{ name: '/DISCOUNTPERC' }],
    });
    await expect(
      ctx.t.services.pricing.agreements.createAgreement({ ...base, customerNo: 55555 }),
    ).rejects.toMatchObject({
      code: 'CUSTOMER_NOT_FOUND',
    });
    await expect(
      ctx.t.services.pricing.agreements.createAgreement({ ...base, scope: 'ARTICLE', scopeValue: 'NOPE-1' }),
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
    const missing = await ctx.t.call('GET', 'B2B_GetCustomerLineDiscounts', { token: ctx.b2b });
    expect(missing.statusCode).toBe(400);
    const unknown = await ctx.t.call('GET', 'B2B_GetCustomerLineDiscounts', {
      token: ctx.b2b,
      query: { strcustomer: '4' },
    });
    expect(unknown.json().code).toBe('CUSTOMER_NOT_FOUND');
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
    const res = await ctx.t.call('GET', op, { token: ctx.b2b, query });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].name).toBe('strcustomer');
  });
});
