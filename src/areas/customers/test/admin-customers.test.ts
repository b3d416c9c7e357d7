import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { article, sizeTable } from '../../../../test/helpers/fixtures.ts';
import { startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { IMPORT_KINDS } from '../../../areas.ts';
import { runImport } from '../../../kernel/import/run-import.ts';

let t: TestApp;
let admin: string;
let b2b: string;
let app: FastifyInstance;
let dir: string;

const send = (method: 'PUT' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
  app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${admin}`,
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
  });

const customer = async (no: number) => {
  const res = await t.call('GET', 'B2B_GetCustomer', { token: b2b, query: { strcustomer: String(no) } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().B2BGETCUSTOMER.CUSTOMERS[0];
};

const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const DETAILS = {
  CUSTOMER: 30001,
  NAME: 'Modehaus Schneider',
  NAME2: 'Schneider Mode',
  VATNO: 'DE136695976',
  LANGUAGE: 'LANGUAGE_3',
  CURRENCY: 'EUR',
  PRICEGROUP: 2,
  PAYMENTDAYS: 30,
  CREDITLIMIT: 5000,
  REPRESENTATIVE: 'JDV',
  'INVOICE ADDRESSES': [
    { ADDRESS: 'Schildergasse', HOUSENUMBER: '1', POSTALCODE: '50667', CITY: 'Köln', COUNTRYPOST: 'DE' },
  ],
  'DELIVERY ADDRESSES': [
    { ADDRESS: 'Königsallee', HOUSENUMBER: '2', POSTALCODE: '40212', CITY: 'Düsseldorf', COUNTRYPOST: 'DE' },
    { ADDRESS: 'Ehrenstraße', HOUSENUMBER: '3', POSTALCODE: '50672', CITY: 'Köln', COUNTRYPOST: 'DE' },
  ],
};

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.tokenFor(['ADMIN']);
  b2b = await t.tokenFor(['B2B']);
  app = t.app;
  dir = mkdtempSync(join(tmpdir(), 'tv2-customers-'));
  await t.services.catalog.saveSizeTable(sizeTable('CONF', ['S', 'M']));
  await t.services.catalog.saveArticles([article('A100-010'), article('A100-020')]);
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('representatives in the admin area', () => {
  it('creates, changes nothing on a repeat, refuses a mismatching path, deletes', async () => {
    const body = {
      REPRESENTATIVE: 'JDV',
      NAME: 'Jan de Vries',
      EMAIL: 'jan@example.com',
      PHONE: '+31 6 12345678',
    };
    const created = await send('PUT', '/TV2/Admin/representatives/jdv', body);
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({ SCN: expect.any(Number), CHANGED: 1 });
    expect((await send('PUT', '/TV2/Admin/representatives/JDV', body)).json()).toEqual({
      SCN: null,
      CHANGED: 0,
    });
    const mismatch = await send('PUT', '/TV2/Admin/representatives/XYZ', body);
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().errors[0].name).toBe('/REPRESENTATIVE');
    const bad = await send('PUT', '/TV2/Admin/representatives/BAD', {
      REPRESENTATIVE: 'BAD',
      NAME: 'X',
      EMAIL: 'not-an-address',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].name).toBe('/EMAIL');
    const shapes = await send('PUT', '/TV2/Admin/representatives/J%20D', {
      REPRESENTATIVE: 'J D',
      NAME: ' ',
    });
    expect(shapes.statusCode).toBe(400);
    expect(
      shapes
        .json()
        .errors.map((e: { name: string }) => e.name)
        .sort(),
    ).toEqual(['/NAME', '/REPRESENTATIVE']);
    await send('PUT', '/TV2/Admin/representatives/TMP', { REPRESENTATIVE: 'TMP', NAME: 'Tijdelijk' });
    expect((await send('DELETE', '/TV2/Admin/representatives/tmp')).statusCode).toBe(204);
    expect((await send('DELETE', '/TV2/Admin/representatives/tmp')).json().code).toBe(
      'REPRESENTATIVE_NOT_FOUND',
    );
  });
});

describe('whole customers in the admin area', () => {
  it('creates a customer with addresses; a repeat changes nothing', async () => {
    const res = await send('PUT', '/TV2/Admin/customers/30001/details', DETAILS);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().CHANGED).toBe(1);
    expect((await send('PUT', '/TV2/Admin/customers/30001/details', DETAILS)).json()).toEqual({
      SCN: null,
      CHANGED: 0,
    });
    const c = await customer(30001);
    expect(c).toMatchObject({
      NAME2: 'Schneider Mode',
      VATNO: 'DE136695976',
      CREDITLIMIT: 5000,
      REPRESENTATIVE: 'JDV',
    });
    expect(c['DELIVERY ADDRESSES'].map((a: { EXTRAADDRESSNO: string }) => a.EXTRAADDRESSNO)).toEqual([
      '1',
      '2',
    ]);
  });

  it('a customer read through the API can be written back as it is', async () => {
    const c = await customer(30001);
    const res = await send('PUT', '/TV2/Admin/customers/30001/details', c);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ SCN: null, CHANGED: 0 });
  });

  it('replaces: fields left out take defaults, delivery addresses left out are deleted', async () => {
    const c = await customer(30001);
    const res = await send('PUT', '/TV2/Admin/customers/30001/details', {
      CUSTOMER: 30001,
      NAME: 'Modehaus Schneider',
      PRICEGROUP: 2,
      CURRENCY: 'EUR',
      'DELIVERY ADDRESSES': [c['DELIVERY ADDRESSES'][1]],
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = await customer(30001);
    expect(after).toMatchObject({
      NAME2: '',
      VATNO: '',
      REPRESENTATIVE: null,
      CREDITLIMIT: 0,
      'INVOICE ADDRESSES': [],
    });
    expect(after['DELIVERY ADDRESSES'].map((a: { EXTRAADDRESSNO: string }) => a.EXTRAADDRESSNO)).toEqual([
      '2',
    ]);
    expect(after.SCN).toBeGreaterThan(c.SCN);
  });

  it('names bad fields; the path must match', async () => {
    const bad = await send('PUT', '/TV2/Admin/customers/30001/details', {
      ...DETAILS,
      VATNO: 'DE136695975',
      'DELIVERY ADDRESSES': [{ ADDRESS: 'X', POSTALCODE: '123', CITY: 'Köln', COUNTRYPOST: 'DE' }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.map((e: { name: string }) => e.name)).toEqual([
      '/VATNO',
      '/DELIVERY ADDRESSES/0/POSTALCODE',
    ]);
    const mismatch = await send('PUT', '/TV2/Admin/customers/30002/details', DETAILS);
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().errors[0].name).toBe('/CUSTOMER');
  });

  it('the schema names wrong shapes: ranges, codes, blank names, the invoice address number, a missing number', async () => {
    // Moved from the unit test of checkPatch: these are the schema's now (customer-input.ts).
    const { CUSTOMER: _, ...noNumber } = DETAILS;
    const bad = await send('PUT', '/TV2/Admin/customers/30001/details', {
      ...noNumber,
      PRICEGROUP: 0,
      PAYMENTDAYS: 366,
      'INVOICE ADDRESSES': [{ ...DETAILS['INVOICE ADDRESSES'][0], EXTRAADDRESSNO: 3 }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('VALIDATION_FAILED');
    const names = new Set(bad.json().errors.map((e: { name: string }) => e.name));
    expect([...names].sort()).toEqual([
      '/CUSTOMER',
      '/INVOICE ADDRESSES/0/EXTRAADDRESSNO',
      '/PAYMENTDAYS',
      '/PRICEGROUP',
    ]);
    const codes = await send('PUT', '/TV2/Admin/customers/30001/details', {
      ...DETAILS,
      NAME: '  ',
      EXTERNALKEY: 'two words',
      CUSTOMERGROUP: '-SHOPS',
      REPRESENTATIVE: 'J D V',
      PRICEGROUP: '10000',
      'DELIVERY ADDRESSES': [{ ...DETAILS['DELIVERY ADDRESSES'][0], EXTRAADDRESSNO: 1000 }],
    });
    expect(codes.statusCode).toBe(400);
    expect(new Set(codes.json().errors.map((e: { name: string }) => e.name))).toEqual(
      new Set([
        '/NAME',
        '/EXTERNALKEY',
        '/CUSTOMERGROUP',
        '/REPRESENTATIVE',
        '/PRICEGROUP',
        '/DELIVERY ADDRESSES/0/EXTRAADDRESSNO',
      ]),
    );
    const kind = IMPORT_KINDS.customerdetails!;
    expect(() => kind.parse({ ...DETAILS, PRICEGROUP: '0', PAYMENTDAYS: '366' }, 'json')).toThrow(
      expect.objectContaining({
        errors: expect.arrayContaining([
          expect.objectContaining({ name: '/PRICEGROUP' }),
          expect.objectContaining({ name: '/PAYMENTDAYS' }),
        ]),
      }),
    );
    // Leading zeros and spaces around codes are fine: the same customer as without them.
    const padded = await send('PUT', '/TV2/Admin/customers/30009/details', {
      ...DETAILS,
      CUSTOMER: '030009',
      PRICEGROUP: '0002',
      PAYMENTDAYS: '030',
      REPRESENTATIVE: ' jdv ',
    });
    expect(padded.statusCode, padded.body).toBe(200);
    expect(padded.json().CHANGED).toBe(1);
    const plain = await send('PUT', '/TV2/Admin/customers/30009/details', { ...DETAILS, CUSTOMER: 30009 });
    expect(plain.json()).toEqual({ SCN: null, CHANGED: 0 });
    await t.services.customers.customers.deleteCustomer(30009);
  });

  it('deletes a delivery address', async () => {
    expect((await send('DELETE', '/TV2/Admin/customers/30001/addresses/2')).statusCode).toBe(204);
    expect((await customer(30001))['DELIVERY ADDRESSES']).toEqual([]);
    expect((await send('DELETE', '/TV2/Admin/customers/30001/addresses/2')).json().code).toBe(
      'ADDRESS_NOT_FOUND',
    );
  });
});

describe('customer-article links in the admin area', () => {
  it('sets links all or none and deletes them', async () => {
    const links = [
      { CUSTOMER: 30001, ARTICLE: 'A100-010', CUSTOMERARTICLE: 4711, CUSTOMERDESCRIPTION: 'Jeans' },
      { CUSTOMER: 30001, ARTICLE: 'A100-020', CUSTOMERARTICLE: '4712', CUSTOMERBARCODE: '4000000000017' },
    ];
    const res = await send('PUT', '/TV2/Admin/customerarticlelinks', { ARTICLELINKS: links });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().CHANGED).toBe(2);
    const bad = await send('PUT', '/TV2/Admin/customerarticlelinks', {
      ARTICLELINKS: [...links, { CUSTOMER: 30001, ARTICLE: 'NOPE', CUSTOMERARTICLE: '9' }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].name).toBe('/ARTICLELINKS/2/ARTICLE');
    const shapes = await send('PUT', '/TV2/Admin/customerarticlelinks', {
      ARTICLELINKS: [
        { CUSTOMER: 30001, ARTICLE: ' ', CUSTOMERARTICLE: ' ' },
        { CUSTOMER: 30001, ARTICLE: 'A100-010', CUSTOMERARTICLE: 'X', CUSTOMERBARCODE: '40 00' },
      ],
    });
    expect(shapes.statusCode).toBe(400);
    expect(new Set(shapes.json().errors.map((e: { name: string }) => e.name))).toEqual(
      new Set([
        '/ARTICLELINKS/0/ARTICLE',
        '/ARTICLELINKS/0/CUSTOMERARTICLE',
        '/ARTICLELINKS/1/CUSTOMERBARCODE',
      ]),
    );
    const repeated = await send('PUT', '/TV2/Admin/customerarticlelinks', {
      ARTICLELINKS: [links[0], links[0]],
    });
    expect(repeated.statusCode).toBe(400);
    expect(repeated.json().errors.map((e: { name: string }) => e.name)).toEqual([
      '/ARTICLELINKS/1/ARTICLE',
      '/ARTICLELINKS/1/CUSTOMERARTICLE',
    ]);
    const removed = await send('POST', '/TV2/Admin/customerarticlelinks/delete', {
      ARTICLELINKS: [{ CUSTOMER: 30001, ARTICLE: 'A100-020' }],
    });
    expect(removed.json().CHANGED).toBe(1);
    const list = await t.call('GET', 'B2B_GetCustomerArticleLink', {
      token: b2b,
      query: { strcustomer: '30001' },
    });
    expect(list.json().B2BGETCUSTOMERARTICLELINK.ARTICLELINKS).toEqual([
      expect.objectContaining({ ARTICLE: 'A100-010', CUSTOMERARTICLE: '4711' }),
    ]);
  });
});

describe('tv2 import of the customers area', () => {
  it('imports representatives, customer details (CSV address columns) and links; a second import changes nothing', async () => {
    const files = {
      representatives: file(
        'representatives.csv',
        'REPRESENTATIVE,NAME,EMAIL,PHONE,ACTIVE\nSPE,Sanne Peeters,sanne@example.com,+32 470 12 34 56,1\nTWR,Tom Wright,,,0\n',
      ),
      customerdetails: file(
        'customers.csv',
        'CUSTOMER,NAME,VATNO,CURRENCY,PRICEGROUP,REPRESENTATIVE,CREDITLIMIT,INVOICE_ADDRESS,INVOICE_HOUSENUMBER,INVOICE_POSTALCODE,INVOICE_CITY,INVOICE_COUNTRYPOST,DELIVERY1_ADDRESS,DELIVERY1_POSTALCODE,DELIVERY1_CITY,DELIVERY1_COUNTRYPOST,DELIVERY3_POSTBOX,DELIVERY3_POSTALCODE,DELIVERY3_CITY,DELIVERY3_COUNTRYPOST\n' +
          '40001,Mulder Mode,BE0403170701,EUR,2,SPE,2500.00,Meir,10,2000,Antwerpen,BE,Kammenstraat,2000,Antwerpen,BE,,,,\n' +
          '40002,Brighton Clothing,GB123456789,GBP,2,TWR,,North Street,5,BN1 1AE,Brighton,GB,,,,,77,LS1 6HW,Leeds,GB\n',
      ),
      customerarticlelinks: file(
        'links.json',
        JSON.stringify([
          { CUSTOMER: 40001, ARTICLE: 'A100-010', CUSTOMERARTICLE: 'MM-1', CUSTOMERDESCRIPTION: 'Jeans' },
        ]),
      ),
    };
    for (const [kind, records] of [
      ['representatives', 2],
      ['customerdetails', 2],
      ['customerarticlelinks', 1],
    ] as const) {
      const importKind = IMPORT_KINDS[kind]!;
      expect(await runImport(t.services, importKind, files[kind])).toMatchObject({
        records,
        written: records,
        rejected: [],
      });
      expect(await runImport(t.services, importKind, files[kind])).toMatchObject({
        written: 0,
        unchanged: records,
      });
    }
    const mulder = await customer(40001);
    expect(mulder).toMatchObject({ VATNO: 'BE0403170701', CREDITLIMIT: 2500, REPRESENTATIVE: 'SPE' });
    expect(mulder['INVOICE ADDRESSES'][0]).toMatchObject({
      ADDRESS: 'Meir',
      EXTRAADDRESSNO: '0',
      VATNO: 'BE0403170701',
    });
    const brighton = await customer(40002);
    expect(brighton['DELIVERY ADDRESSES']).toEqual([
      {
        ADDRESS: '',
        CITY: 'Leeds',
        COUNTRYPOST: 'GB',
        EXTRAADDRESSNO: '3',
        HOUSENUMBER: '',
        MAPAREA: '',
        POSTALCODE: 'LS1 6HW',
        POSTBOX: '77',
      },
    ]);
    expect(brighton.CURRENCY).toBe('GBP');
  });

  it('rejects only the bad records, with their reasons', async () => {
    const path = file(
      'bad.csv',
      'CUSTOMER,NAME,VATNO,CURRENCY,PRICEGROUP\n40003,Goed,,EUR,2\n40004,Fout,NL123456789B01,EUR,2\n',
    );
    const report = await runImport(t.services, IMPORT_KINDS.customerdetails!, path);
    expect(report).toMatchObject({ records: 2, written: 1 });
    expect(report.rejected).toEqual([{ position: 3, reasons: [expect.stringMatching(/^\/VATNO: /)] }]);
  });
});
