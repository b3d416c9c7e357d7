import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { article, sizeTable } from '../../../../test/helpers/fixtures.ts';
import { startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';

let t: TestApp;
let b2b: string;
let b2c: string;

const get = async (op: string, query: Record<string, string> = {}, token = b2b) => {
  const res = await t.call('GET', op, { token, query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const post = (op: string, body: unknown, headers: Record<string, string> = {}, token = b2b) =>
  t.call('POST', op, { token, body, headers });
const customer = async (no: number) =>
  (await get('B2B_GetCustomer', { strcustomer: String(no) })).B2BGETCUSTOMER.CUSTOMERS[0];
const scnNow = async () =>
  (await get('B2B_GetAllCustomers', { strlimit: '1' })).B2BGETALLCUSTOMERS.SCN as number;

const AMSTERDAM = {
  ADDRESS: 'Kalverstraat',
  HOUSENUMBER: '12a',
  POSTALCODE: '1012ab',
  CITY: 'Amsterdam',
  COUNTRYPOST: 'nl',
};

beforeAll(async () => {
  t = await startTestApp();
  b2b = await t.tokenFor(['B2B']);
  b2c = await t.tokenFor(['B2C']);
  await t.services.catalog.saveSizeTable(sizeTable('CONF', ['S', 'M', 'L']));
  await t.services.catalog.saveArticles([article('C100-010'), article('C100-020'), article('C200-010')]);
  await t.services.pricing.customers.saveCustomers([
    { customerNo: 10001, name: 'Mode Jansen', priceGroup: 2, customerGroup: 'SHOPS', currency: 'EUR' },
    { customerNo: 10002, name: 'Kledinghuis De Vries', priceGroup: 2, currency: 'EUR', discountBp: 300 },
  ]);
  await t.services.customers.representatives.saveRepresentatives([
    { code: 'JDV', name: 'Jan de Vries', email: 'jan@example.com', phone: '+31 6 12345678' },
    { code: 'spe', name: 'Sanne Peeters' },
  ]);
});
afterAll(() => t.close());

describe('B2B_GetAllCustomers and B2B_GetCustomer', () => {
  it('lists the customers pricing created, with the defaults of the new fields', async () => {
    const body = await get('B2B_GetAllCustomers');
    expect(Object.keys(body.B2BGETALLCUSTOMERS)).toEqual(['SCN', 'NEXTOFFSET', 'CUSTOMERS', 'DELETED']);
    const c = body.B2BGETALLCUSTOMERS.CUSTOMERS.find((x: { CUSTOMER: number }) => x.CUSTOMER === 10002);
    expect(c).toEqual({
      CUSTOMER: 10002,
      EXTERNALKEY: null,
      NAME: 'Kledinghuis De Vries',
      NAME2: '',
      VATNO: '',
      LANGUAGE: 'LANGUAGE_1',
      CURRENCY: 'EUR',
      PRICEGROUP: 2,
      CUSTOMERGROUP: null,
      DISCOUNTPERC: 3,
      PAYMENTDAYS: 30,
      CREDITLIMIT: 0,
      REPRESENTATIVE: null,
      ACTIVE: true,
      'INVOICE ADDRESSES': [],
      'DELIVERY ADDRESSES': [],
      SCN: expect.any(Number),
    });
  });

  it('answers one customer; 404 for an unknown one; 400 without strcustomer; 403 for a B2C token', async () => {
    expect((await customer(10001)).NAME).toBe('Mode Jansen');
    const missing = await t.call('GET', 'B2B_GetCustomer', { token: b2b, query: { strcustomer: '99999' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('CUSTOMER_NOT_FOUND');
    const none = await t.call('GET', 'B2B_GetCustomer', { token: b2b });
    expect(none.statusCode).toBe(400);
    expect(none.json().errors[0].name).toBe('strcustomer');
    const retail = await t.call('GET', 'B2B_GetCustomer', { token: b2c, query: { strcustomer: '10001' } });
    expect(retail.statusCode).toBe(403);
  });
});

describe('B2B_PostCustomer', () => {
  it('creates a customer with the next number, numbers given as strings, VAT and addresses normalised', async () => {
    const res = await post('B2B_PostCustomer', {
      CUSTOMERDATA: {
        EXTERNALKEY: 'CRM-42',
        NAME: 'Boutique Bakker',
        NAME2: 'Bakker Mode',
        VATNO: 'nl 1234.567.82 b01',
        LANGUAGE: 'LANGUAGE_2',
        CURRENCY: 'EUR',
        PRICEGROUP: '2',
        DISCOUNTPERC: '2.5',
        PAYMENTDAYS: '14',
        CREDITLIMIT: '12500.50',
        REPRESENTATIVE: 'jdv',
        'INVOICE ADDRESSES': [{ ...AMSTERDAM, MAPAREA: 'Noord-Holland' }],
        'DELIVERY ADDRESSES': [
          {
            ADDRESS: 'Oudegracht',
            HOUSENUMBER: 7,
            POSTALCODE: '3511 AE',
            CITY: 'Utrecht',
            COUNTRYPOST: 'NL',
          },
          { POSTBOX: 1234, POSTALCODE: '2000', CITY: 'Antwerpen', COUNTRYPOST: 'BE' },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const root = res.json().B2BPOSTCUSTOMER;
    expect(root).toMatchObject({ CUSTOMER: 10003, CREATED: true, CHANGED: true });
    expect(root.CUSTOMERS[0]).toMatchObject({
      CUSTOMER: 10003,
      EXTERNALKEY: 'CRM-42',
      NAME2: 'Bakker Mode',
      VATNO: 'NL123456782B01',
      LANGUAGE: 'LANGUAGE_2',
      PRICEGROUP: 2,
      DISCOUNTPERC: 2.5,
      PAYMENTDAYS: 14,
      CREDITLIMIT: 12500.5,
      REPRESENTATIVE: 'JDV',
      'INVOICE ADDRESSES': [
        {
          ADDRESS: 'Kalverstraat',
          CITY: 'Amsterdam',
          COUNTRYPOST: 'NL',
          EXTRAADDRESSNO: '0',
          HOUSENUMBER: '12a',
          MAPAREA: 'Noord-Holland',
          POSTALCODE: '1012 AB',
          POSTBOX: '',
          VATNO: 'NL123456782B01',
        },
      ],
      'DELIVERY ADDRESSES': [
        { EXTRAADDRESSNO: '1', CITY: 'Utrecht', HOUSENUMBER: '7' },
        { EXTRAADDRESSNO: '2', CITY: 'Antwerpen', POSTBOX: '1234', ADDRESS: '' },
      ],
    });
    // Pricing sees the customer and its terms.
    expect(await t.services.pricing.customers.customer(10003)).toMatchObject({
      price_group: 2,
      discount_bp: 250,
    });
  });

  it('posting what is stored changes nothing: CHANGED false and the SCN stays', async () => {
    const before = await scnNow();
    const stored = await customer(10003);
    const res = await post('B2B_PostCustomer', { CUSTOMERDATA: stored });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().B2BPOSTCUSTOMER).toMatchObject({ CUSTOMER: 10003, CREATED: false, CHANGED: false });
    expect(await scnNow()).toBe(before);
  });

  it('changes by external key, leaving out fields keeps them, and moves the SCN', async () => {
    const before = (await customer(10003)).SCN;
    const res = await post('B2B_PostCustomer', { CUSTOMERDATA: { EXTERNALKEY: 'CRM-42', PAYMENTDAYS: 60 } });
    expect(res.statusCode, res.body).toBe(200);
    const c = res.json().B2BPOSTCUSTOMER.CUSTOMERS[0];
    expect(c).toMatchObject({
      CUSTOMER: 10003,
      PAYMENTDAYS: 60,
      NAME: 'Boutique Bakker',
      CREDITLIMIT: 12500.5,
    });
    expect(c['DELIVERY ADDRESSES']).toHaveLength(2);
    expect(c.SCN).toBeGreaterThan(before);
    const byKey = await get('B2B_GetCustomer', { strexternalkey: 'CRM-42' });
    expect(byKey.B2BGETCUSTOMER.CUSTOMERS[0].CUSTOMER).toBe(10003);
  });

  it('names every bad field as a JSON pointer in one answer', async () => {
    const res = await post('B2B_PostCustomer', {
      CUSTOMERDATA: {
        CUSTOMER: 10001,
        VATNO: 'NL123456789B01',
        LANGUAGE: 'LANGUAGE_1',
        CURRENCY: 'EURO',
        CREDITLIMIT: '10.005',
        DISCOUNTPERC: 120,
        'INVOICE ADDRESSES': [{ ADDRESS: 'Meir', POSTALCODE: '12345', CITY: 'Antwerpen', COUNTRYPOST: 'BE' }],
        'DELIVERY ADDRESSES': [{ ADDRESS: 'Demer', CITY: '', COUNTRYPOST: 'XQ' }],
      },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
    const names = res.json().errors.map((e: { name: string }) => e.name);
    expect(names).toEqual(
      expect.arrayContaining([
        '/CUSTOMERDATA/VATNO',
        '/CUSTOMERDATA/CURRENCY',
        '/CUSTOMERDATA/CREDITLIMIT',
        '/CUSTOMERDATA/DISCOUNTPERC',
        '/CUSTOMERDATA/INVOICE ADDRESSES/0/POSTALCODE',
        '/CUSTOMERDATA/DELIVERY ADDRESSES/0/CITY',
        '/CUSTOMERDATA/DELIVERY ADDRESSES/0/COUNTRYPOST',
      ]),
    );
  });

  it('refuses wrong types and unknown fields by the schema, naming them', async () => {
    const res = await post('B2B_PostCustomer', {
      CUSTOMERDATA: { CUSTOMER: 10001, PRICEGROUP: 'two', COLOUR: 'red' },
    });
    expect(res.statusCode).toBe(400);
    const names = res.json().errors.map((e: { name: string }) => e.name);
    expect(names).toEqual(expect.arrayContaining(['/CUSTOMERDATA/PRICEGROUP', '/CUSTOMERDATA/COLOUR']));
  });

  it('a new customer needs name, price group and currency', async () => {
    const res = await post('B2B_PostCustomer', { CUSTOMERDATA: { NAME2: 'Nameless' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { name: string }) => e.name)).toEqual([
      '/CUSTOMERDATA/NAME',
      '/CUSTOMERDATA/PRICEGROUP',
      '/CUSTOMERDATA/CURRENCY',
    ]);
  });

  it('an unknown representative is a 400 naming it; a taken external key is 409', async () => {
    const rep = await post('B2B_PostCustomer', {
      CUSTOMERDATA: { CUSTOMER: 10001, REPRESENTATIVE: 'NOBODY' },
    });
    expect(rep.statusCode).toBe(400);
    expect(rep.json().errors[0].name).toBe('/CUSTOMERDATA/REPRESENTATIVE');
    const key = await post('B2B_PostCustomer', { CUSTOMERDATA: { CUSTOMER: 10001, EXTERNALKEY: 'CRM-42' } });
    expect(key.statusCode).toBe(409);
    expect(key.json().code).toBe('EXTERNAL_KEY_TAKEN');
  });

  it("pricing's own customer writes keep the details", async () => {
    await t.services.pricing.customers.saveCustomer({
      customerNo: 10003,
      name: 'Boutique Bakker',
      priceGroup: 3,
      currency: 'EUR',
    });
    const c = await customer(10003);
    expect(c).toMatchObject({
      PRICEGROUP: 3,
      DISCOUNTPERC: 0,
      VATNO: 'NL123456782B01',
      REPRESENTATIVE: 'JDV',
    });
    expect(c['DELIVERY ADDRESSES']).toHaveLength(2);
  });
});

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
    await t.services.customers.customers.deleteDeliveryAddress(10001, 2);
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

describe('representatives', () => {
  it('lists representatives in code order, codes upper case', async () => {
    const body = await get('B2B_GetRepresentatives');
    expect(body.B2BGETREPRESENTATIVES.REPRESENTATIVES).toEqual([
      {
        REPRESENTATIVE: 'JDV',
        NAME: 'Jan de Vries',
        EMAIL: 'jan@example.com',
        PHONE: '+31612345678',
        ACTIVE: true,
        SCN: expect.any(Number),
      },
      {
        REPRESENTATIVE: 'SPE',
        NAME: 'Sanne Peeters',
        EMAIL: '',
        PHONE: '',
        ACTIVE: true,
        SCN: expect.any(Number),
      },
    ]);
  });

  it("lists a representative's customers; one that moves away comes under DELETED in the feed", async () => {
    const jdv = await get('B2B_GetRepresentativeCustomers', { strrepresentative: 'jdv' });
    expect(jdv.B2BGETREPRESENTATIVECUSTOMERS.REPRESENTATIVE).toBe('JDV');
    expect(jdv.B2BGETREPRESENTATIVECUSTOMERS.CUSTOMERS.map((c: { CUSTOMER: number }) => c.CUSTOMER)).toEqual([
      10003,
    ]);
    const since = jdv.B2BGETREPRESENTATIVECUSTOMERS.SCN;
    await post('B2B_PostCustomer', { CUSTOMERDATA: { CUSTOMER: 10003, REPRESENTATIVE: 'SPE' } });
    await post('B2B_PostCustomer', { CUSTOMERDATA: { CUSTOMER: 10002, REPRESENTATIVE: 'JDV' } });
    const feed = (
      await get('B2B_GetRepresentativeCustomers', { strrepresentative: 'JDV', strscn: String(since) })
    ).B2BGETREPRESENTATIVECUSTOMERS;
    expect(feed.CUSTOMERS.map((c: { CUSTOMER: number }) => c.CUSTOMER)).toEqual([10002]);
    expect(feed.DELETED).toEqual([10003]);
    const spe = (await get('B2B_GetRepresentativeCustomers', { strrepresentative: 'SPE' }))
      .B2BGETREPRESENTATIVECUSTOMERS;
    expect(spe.CUSTOMERS.map((c: { CUSTOMER: number }) => c.CUSTOMER)).toEqual([10003]);
    const unknown = await t.call('GET', 'B2B_GetRepresentativeCustomers', {
      token: b2b,
      query: { strrepresentative: 'NOPE' },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('REPRESENTATIVE_NOT_FOUND');
  });

  it('a representative that customers have cannot be deleted; a deleted one is in the feed', async () => {
    await expect(t.services.customers.representatives.deleteRepresentative('SPE')).rejects.toMatchObject({
      code: 'REPRESENTATIVE_IN_USE',
    });
    const since = await scnNow();
    await t.services.customers.representatives.saveRepresentative({ code: 'OLD', name: 'Oud' });
    await t.services.customers.representatives.deleteRepresentative('old');
    const feed = (await get('B2B_GetRepresentatives', { strscn: String(since) })).B2BGETREPRESENTATIVES;
    expect(feed.REPRESENTATIVES).toEqual([]);
    expect(feed.DELETED).toEqual(['OLD']);
  });
});

describe('customer-article links', () => {
  beforeAll(async () => {
    await t.services.customers.articleLinks.saveArticleLinks([
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
    expect(first.NEXTOFFSET).toBe(3);
    const second = (await get('B2B_GetAllCustomerArticleLink', { strlimit: '2', stroffset: '3' }))
      .B2BGETALLCUSTOMERARTICLELINK;
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
    const unknown = await t.call('GET', 'B2B_GetCustomerArticleLink', {
      token: b2b,
      query: { strcustomer: '99999' },
    });
    expect(unknown.json().code).toBe('CUSTOMER_NOT_FOUND');
  });

  it("refuses a customer's own article number for a second article; deletions are in the feed", async () => {
    await expect(
      t.services.customers.articleLinks.saveArticleLinks([
        { customerNo: 10001, articleNo: 'C200-010', customerArticleNo: 'MJ-1' },
      ]),
    ).rejects.toMatchObject({ code: 'CUSTOMER_ARTICLE_TAKEN' });
    await expect(
      t.services.customers.articleLinks.saveArticleLinks([
        { customerNo: 10001, articleNo: 'NOPE', customerArticleNo: 'MJ-9' },
      ]),
    ).rejects.toMatchObject({ errors: [{ name: '/0/ARTICLE' }] });
    const since = await scnNow();
    expect(
      await t.services.customers.articleLinks.saveArticleLinks([
        { customerNo: 10002, articleNo: 'C100-010', customerArticleNo: '4711' },
      ]),
    ).toEqual({ scn: null, changed: 0 });
    await t.services.customers.articleLinks.deleteArticleLinks([
      { customerNo: 10001, articleNo: 'C100-020' },
    ]);
    const feed = (await get('B2B_GetAllCustomerArticleLink', { strscn: String(since) }))
      .B2BGETALLCUSTOMERARTICLELINK;
    expect(feed.ARTICLELINKS).toEqual([]);
    expect(feed.DELETED).toEqual([{ CUSTOMER: 10001, ARTICLE: 'C100-020' }]);
    // The number is free again.
    await t.services.customers.articleLinks.saveArticleLinks([
      { customerNo: 10001, articleNo: 'C200-010', customerArticleNo: 'MJ-2' },
    ]);
  });
});

describe('sync', () => {
  it('pages customers and reports a deleted customer in the feed', async () => {
    const page = (await get('B2B_GetAllCustomers', { strlimit: '2' })).B2BGETALLCUSTOMERS;
    expect(page.CUSTOMERS.map((c: { CUSTOMER: number }) => c.CUSTOMER)).toEqual([10001, 10002]);
    expect(page.NEXTOFFSET).toBe(3);
    const since = page.SCN;
    await post('B2B_PostCustomer', {
      CUSTOMERDATA: { NAME: 'Kort Bestaan', PRICEGROUP: 2, CURRENCY: 'EUR' },
    });
    await t.services.customers.customers.deleteCustomer(10004);
    const feed = (await get('B2B_GetAllCustomers', { strscn: String(since) })).B2BGETALLCUSTOMERS;
    expect(feed.DELETED).toEqual([10004]);
    expect(feed.CUSTOMERS.map((c: { CUSTOMER: number }) => c.CUSTOMER)).not.toContain(10004);
    const gone = await t.call('GET', 'B2B_GetCustomer', { token: b2b, query: { strcustomer: '10004' } });
    expect(gone.statusCode).toBe(404);
  });
});

describe('customer numbers beyond the stored range', () => {
  it('are a 400 naming the parameter, not a database error', async () => {
    for (const [op, query] of [
      ['B2B_GetCustomer', { strcustomer: '99999999999' }],
      ['B2B_GetAllCustomerArticleLink', { strcustomer: '99999999999' }],
      ['B2B_GetCustomerArticleLink', { strcustomer: '99999999999' }],
    ] as const) {
      const res = await t.call('GET', op, { token: b2b, query });
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
