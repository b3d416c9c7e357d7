import { beforeAll, describe, expect, it } from 'vitest';
import { AMSTERDAM, customersContext } from './customers-context.ts';

const ctx = customersContext();
const { get, post, customer, scnNow } = ctx;

describe('B2B_PostDeliveryAddress', () => {
  it('adds with the next number, changes by number, and moves the customer SCN', async () => {
    const before = (await customer(10001)).SCN;
    const added = await post('B2B_PostDeliveryAddress', {
      DELIVERYADDRESSDATA: { CUSTOMER: '10001', ...AMSTERDAM },
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().B2BPOSTDELIVERYADDRESS).toMatchObject({
      CUSTOMER: 10001,
      EXTRAADDRESSNO: 1,
      CREATED: true,
      CHANGED: true,
      'DELIVERY ADDRESSES': [{ EXTRAADDRESSNO: '1', POSTALCODE: '1012 AB', COUNTRYPOST: 'NL' }],
    });
    const second = await post('B2B_PostDeliveryAddress', {
      DELIVERYADDRESSDATA: {
        CUSTOMER: 10001,
        ADDRESS: 'Meir',
        HOUSENUMBER: '1',
        POSTALCODE: '2000',
        CITY: 'Antwerpen',
        COUNTRYPOST: 'BE',
      },
    });
    expect(second.json().B2BPOSTDELIVERYADDRESS.EXTRAADDRESSNO).toBe(2);
    const changed = await post('B2B_PostDeliveryAddress', {
      DELIVERYADDRESSDATA: { CUSTOMER: 10001, EXTRAADDRESSNO: '1', ...AMSTERDAM, HOUSENUMBER: '14' },
    });
    expect(changed.json().B2BPOSTDELIVERYADDRESS).toMatchObject({
      EXTRAADDRESSNO: 1,
      CREATED: false,
      CHANGED: true,
    });
    const c = await customer(10001);
    expect(c.SCN).toBeGreaterThan(before);
    expect(c['DELIVERY ADDRESSES'].map((a: { HOUSENUMBER: string }) => a.HOUSENUMBER)).toEqual(['14', '1']);
    const feed = await get('B2B_GetAllCustomers', { strscn: String(before) });
    expect(feed.B2BGETALLCUSTOMERS.CUSTOMERS.map((x: { CUSTOMER: number }) => x.CUSTOMER)).toContain(10001);
  });

  it('adding an address equal to a live one answers that one', async () => {
    const again = await post('B2B_PostDeliveryAddress', {
      DELIVERYADDRESSDATA: { CUSTOMER: 10001, ...AMSTERDAM, HOUSENUMBER: '14' },
    });
    expect(again.json().B2BPOSTDELIVERYADDRESS).toMatchObject({
      EXTRAADDRESSNO: 1,
      CREATED: false,
      CHANGED: false,
    });
  });

  it('a retry with the same Idempotency-Key is replayed and adds nothing', async () => {
    const body = {
      DELIVERYADDRESSDATA: {
        CUSTOMER: 10002,
        ADDRESS: 'Herestraat',
        HOUSENUMBER: '3',
        POSTALCODE: '9711 LM',
        CITY: 'Groningen',
        COUNTRYPOST: 'NL',
      },
    };
    const headers = { 'idempotency-key': 'add-groningen-1' };
    const first = await post('B2B_PostDeliveryAddress', body, headers);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const retry = await post('B2B_PostDeliveryAddress', body, headers);
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    expect((await customer(10002))['DELIVERY ADDRESSES']).toHaveLength(1);
  });

  it('404 for an unknown number or customer; 400 for number 0 and bad fields', async () => {
    const unknown = await post('B2B_PostDeliveryAddress', {
      DELIVERYADDRESSDATA: { CUSTOMER: 10001, EXTRAADDRESSNO: 9, ...AMSTERDAM },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('ADDRESS_NOT_FOUND');
    const noCustomer = await post('B2B_PostDeliveryAddress', {
      DELIVERYADDRESSDATA: { CUSTOMER: 99999, ...AMSTERDAM },
    });
    expect(noCustomer.json().code).toBe('CUSTOMER_NOT_FOUND');
    const invoice = await post('B2B_PostDeliveryAddress', {
      DELIVERYADDRESSDATA: { CUSTOMER: 10001, EXTRAADDRESSNO: 0, ...AMSTERDAM },
    });
    expect(invoice.statusCode).toBe(400);
    expect(invoice.json().errors[0].name).toBe('/DELIVERYADDRESSDATA/EXTRAADDRESSNO');
    const bad = await post('B2B_PostDeliveryAddress', {
      DELIVERYADDRESSDATA: { CUSTOMER: 10001, POSTALCODE: '1012', COUNTRYPOST: 'NL' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.map((e: { name: string }) => e.name)).toEqual(
      expect.arrayContaining([
        '/DELIVERYADDRESSDATA/CITY',
        '/DELIVERYADDRESSDATA/ADDRESS',
        '/DELIVERYADDRESSDATA/POSTALCODE',
      ]),
    );
    const noNumber = await post('B2B_PostDeliveryAddress', { DELIVERYADDRESSDATA: AMSTERDAM });
    expect(noNumber.statusCode).toBe(400);
    expect(noNumber.json().errors[0].name).toBe('/DELIVERYADDRESSDATA/CUSTOMER');
  });

  it('numbers of deleted addresses are not given out again', async () => {
    await ctx.t.services.customers.customers.deleteDeliveryAddress(10001, 2);
    const added = await post('B2B_PostDeliveryAddress', {
      DELIVERYADDRESSDATA: {
        CUSTOMER: 10001,
        ADDRESS: 'Veldstraat',
        HOUSENUMBER: '5',
        POSTALCODE: '9000',
        CITY: 'Gent',
        COUNTRYPOST: 'BE',
      },
    });
    expect(added.json().B2BPOSTDELIVERYADDRESS.EXTRAADDRESSNO).toBe(3);
    const c = await customer(10001);
    expect(c['DELIVERY ADDRESSES'].map((a: { EXTRAADDRESSNO: string }) => a.EXTRAADDRESSNO)).toEqual([
      '1',
      '3',
    ]);
  });
});

describe('customer-article links', () => {
  beforeAll(async () => {
    await ctx.t.services.customers.articleLinks.saveArticleLinks([
      {
        customerNo: 10001,
        articleNo: 'C100-010',
        customerArticleNo: 'MJ-1',
        customerDescription: 'Jeans blauw',
      },
      {
        customerNo: 10001,
        articleNo: 'C100-020',
        customerArticleNo: 'MJ-2',
        customerBarcode: '2000000000015',
      },
      { customerNo: 10002, articleNo: 'C100-010', customerArticleNo: '4711' },
    ]);
  });

  it('pages all links in customer and article order', async () => {
    const first = (await get('B2B_GetAllCustomerArticleLink', { strlimit: '2' }))
      .B2BGETALLCUSTOMERARTICLELINK;
    expect(first.ARTICLELINKS).toEqual([
      {
        CUSTOMER: 10001,
        ARTICLE: 'C100-010',
        CUSTOMERARTICLE: 'MJ-1',
        CUSTOMERDESCRIPTION: 'Jeans blauw',
        CUSTOMERBARCODE: null,
        SCN: expect.any(Number),
      },
      expect.objectContaining({ ARTICLE: 'C100-020', CUSTOMERBARCODE: '2000000000015' }),
    ]);
    const second = (
      await get('B2B_GetAllCustomerArticleLink', { strlimit: '2', stroffset: String(first.NEXTOFFSET) })
    ).B2BGETALLCUSTOMERARTICLELINK;
    expect(second.ARTICLELINKS.map((l: { CUSTOMER: number }) => l.CUSTOMER)).toEqual([10002]);
    expect(second.NEXTOFFSET).toBeNull();
    const one = (await get('B2B_GetAllCustomerArticleLink', { strcustomer: '10002' }))
      .B2BGETALLCUSTOMERARTICLELINK;
    expect(one.ARTICLELINKS).toHaveLength(1);
  });

  it("finds a customer's link by our article or by its own article number", async () => {
    const mine = (await get('B2B_GetCustomerArticleLink', { strcustomer: '10001' }))
      .B2BGETCUSTOMERARTICLELINK;
    expect(mine.CUSTOMER).toBe(10001);
    expect(mine.ARTICLELINKS).toHaveLength(2);
    const byOwn = (
      await get('B2B_GetCustomerArticleLink', { strcustomer: '10001', strcustomerarticle: 'MJ-2' })
    ).B2BGETCUSTOMERARTICLELINK;
    expect(byOwn.ARTICLELINKS.map((l: { ARTICLE: string }) => l.ARTICLE)).toEqual(['C100-020']);
    const byOurs = (await get('B2B_GetCustomerArticleLink', { strcustomer: '10001', strarticle: 'C200-010' }))
      .B2BGETCUSTOMERARTICLELINK;
    expect(byOurs.ARTICLELINKS).toEqual([]);
    const unknown = await ctx.t.call('GET', 'B2B_GetCustomerArticleLink', {
      token: ctx.b2b,
      query: { strcustomer: '99999' },
    });
    expect(unknown.json().code).toBe('CUSTOMER_NOT_FOUND');
  });

  it("refuses a customer's own article number for a second article; deletions are in the feed", async () => {
    await expect(
      ctx.t.services.customers.articleLinks.saveArticleLinks([
        { customerNo: 10001, articleNo: 'C200-010', customerArticleNo: 'MJ-1' },
      ]),
    ).rejects.toMatchObject({ code: 'CUSTOMER_ARTICLE_TAKEN' });
    await expect(
      ctx.t.services.customers.articleLinks.saveArticleLinks([
        { customerNo: 10001, articleNo: 'NOPE', customerArticleNo: 'MJ-9' },
      ]),
    ).rejects.toMatchObject({ errors: [{ name: '/0/ARTICLE' }] });
    const since = await scnNow();
    expect(
      await ctx.t.services.customers.articleLinks.saveArticleLinks([
        { customerNo: 10002, articleNo: 'C100-010', customerArticleNo: '4711' },
      ]),
    ).toEqual({ scn: null, changed: 0 });
    await ctx.t.services.customers.articleLinks.deleteArticleLinks([
      { customerNo: 10001, articleNo: 'C100-020' },
    ]);
    const feed = (await get('B2B_GetAllCustomerArticleLink', { strscn: String(since) }))
      .B2BGETALLCUSTOMERARTICLELINK;
    expect(feed.ARTICLELINKS).toEqual([]);
    expect(feed.DELETED).toEqual([{ CUSTOMER: 10001, ARTICLE: 'C100-020' }]);
    // The number is free again.
    await ctx.t.services.customers.articleLinks.saveArticleLinks([
      { customerNo: 10001, articleNo: 'C200-010', customerArticleNo: 'MJ-2' },
    ]);
  });
});

describe('customer numbers beyond the stored range', () => {
  it('are a 400 naming the parameter, not a database error', async () => {
    for (const [op, query] of [
      ['B2B_GetCustomer', { strcustomer: '99999999999' }],
      ['B2B_GetAllCustomerArticleLink', { strcustomer: '99999999999' }],
      ['B2B_GetCustomerArticleLink', { strcustomer: '99999999999' }],
    ] as const) {
      const res = await ctx.t.call('GET', op, { token: ctx.b2b, query });
      expect(res.statusCode, `${op} ${res.body}`).toBe(400);
      expect(res.json().errors[0].name).toBe('strcustomer');
    }
    const posted = await post('B2B_PostCustomer', {
      CUSTOMERDATA: { CUSTOMER: 99999999999, NAME: 'X', PRICEGROUP: 2, CURRENCY: 'EUR' },
    });
    expect(posted.statusCode).toBe(400);
    expect(posted.json().errors[0].name).toBe('/CUSTOMERDATA/CUSTOMER');
    const address = await post('B2B_PostDeliveryAddress', {
      DELIVERYADDRESSDATA: { CUSTOMER: '99999999999', ...AMSTERDAM },
    });
    expect(address.statusCode).toBe(400);
    expect(address.json().errors[0].name).toBe('/DELIVERYADDRESSDATA/CUSTOMER');
  });
});
