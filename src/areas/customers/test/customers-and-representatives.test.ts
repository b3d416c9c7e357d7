import { describe, expect, it } from 'vitest';
import { expectScnStep } from '../../../../test/helpers/scn.ts';
import { AMSTERDAM, customersContext } from './customers-context.ts';

const ctx = customersContext();
const { get, post, customer, scnNow } = ctx;

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
    const missing = await ctx.t.call('GET', 'B2B_GetCustomer', {
      token: ctx.b2b,
      query: { strcustomer: '99999' },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('CUSTOMER_NOT_FOUND');
    const none = await ctx.t.call('GET', 'B2B_GetCustomer', { token: ctx.b2b });
    expect(none.statusCode).toBe(400);
    expect(none.json().errors[0].name).toBe('strcustomer');
    const retail = await ctx.t.call('GET', 'B2B_GetCustomer', {
      token: ctx.b2c,
      query: { strcustomer: '10001' },
    });
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
    expect(await ctx.t.services.pricing.customers.customer(10003)).toMatchObject({
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
    expectScnStep(before, await scnNow(), 0);
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
    await ctx.t.services.pricing.customers.saveCustomer({
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
    const unknown = await ctx.t.call('GET', 'B2B_GetRepresentativeCustomers', {
      token: ctx.b2b,
      query: { strrepresentative: 'NOPE' },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('REPRESENTATIVE_NOT_FOUND');
  });

  it('a representative that customers have cannot be deleted; a deleted one is in the feed', async () => {
    await expect(ctx.t.services.customers.representatives.deleteRepresentative('SPE')).rejects.toMatchObject({
      code: 'REPRESENTATIVE_IN_USE',
    });
    const since = await scnNow();
    await ctx.t.services.customers.representatives.saveRepresentative({ code: 'OLD', name: 'Oud' });
    await ctx.t.services.customers.representatives.deleteRepresentative('old');
    const feed = (await get('B2B_GetRepresentatives', { strscn: String(since) })).B2BGETREPRESENTATIVES;
    expect(feed.REPRESENTATIVES).toEqual([]);
    expect(feed.DELETED).toEqual(['OLD']);
  });
});

describe('sync', () => {
  it('pages customers and reports a deleted customer in the feed', async () => {
    const page = (await get('B2B_GetAllCustomers', { strlimit: '2' })).B2BGETALLCUSTOMERS;
    expect(page.CUSTOMERS.map((c: { CUSTOMER: number }) => c.CUSTOMER)).toEqual([10001, 10002]);
    // NEXTOFFSET is the position of the next customer: the next page starts with it.
    const next = (await get('B2B_GetAllCustomers', { strlimit: '1', stroffset: String(page.NEXTOFFSET) }))
      .B2BGETALLCUSTOMERS;
    expect(next.CUSTOMERS).toHaveLength(1);
    expect([10001, 10002]).not.toContain(next.CUSTOMERS[0].CUSTOMER);
    const since = page.SCN;
    await post('B2B_PostCustomer', {
      CUSTOMERDATA: { NAME: 'Kort Bestaan', PRICEGROUP: 2, CURRENCY: 'EUR' },
    });
    await ctx.t.services.customers.customers.deleteCustomer(10004);
    const feed = (await get('B2B_GetAllCustomers', { strscn: String(since) })).B2BGETALLCUSTOMERS;
    expect(feed.DELETED).toEqual([10004]);
    expect(feed.CUSTOMERS.map((c: { CUSTOMER: number }) => c.CUSTOMER)).not.toContain(10004);
    const gone = await ctx.t.call('GET', 'B2B_GetCustomer', {
      token: ctx.b2b,
      query: { strcustomer: '10004' },
    });
    expect(gone.statusCode).toBe(404);
  });
});
