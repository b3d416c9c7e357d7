import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoIfEmpty } from '../src/app.ts';
import { ENGINE, startTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * The back office takes exactly what its schemas say (issue 14). Its bodies are closed: the
 * read-only keys of an answer (SCN, CREATED, IMAGES, ...) are declared, so a record read with a GET
 * can be PUT back as it is, and any other unknown key (a misspelled optional field above all) is a
 * 400 VALIDATION_FAILED naming it, the problem operations give for an unknown field. Before, these
 * bodies were `additionalProperties: true` and a misspelled field was silently dropped.
 */
let t: TestApp;
let admin: string;
let reader: string;

beforeAll(async () => {
  t = await startTestApp();
  await loadDemoIfEmpty(t.services);
  admin = await t.tokenFor(['ADMIN']);
  reader = await t.tokenFor(['B2B', 'B2C']);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

type Rec = Record<string, unknown>;

/** The first record of a TV2 answer's list (the answer has one root key). */
async function firstOf(
  operation: string,
  list: string,
  query: Record<string, string> = {},
  pick?: (r: Rec) => boolean,
) {
  const res = await t.call('GET', operation, { token: reader, query });
  expect(res.statusCode, res.body).toBe(200);
  const records = (Object.values(res.json())[0] as Record<string, Rec[]>)[list] ?? [];
  const record = pick ? records.find(pick) : records[0];
  expect(record, `${operation} answers a ${list} record`).toBeDefined();
  return record as Rec;
}

interface Resource {
  name: string;
  /** The record as a GET answers it, and the admin path to PUT it back to. */
  read(): Promise<{ record: Rec; url: string }>;
  /** A key a client could misspell (an optional field's name, misspelled). */
  misspelled: string;
}

const RESOURCES: Resource[] = [
  {
    name: 'an article',
    misspelled: 'ACTIV',
    async read() {
      const record = await firstOf('B2B_GetAllArticles', 'ARTICLES');
      return { record, url: `/TV2/Admin/articles/${encodeURIComponent(String(record.ARTICLE))}` };
    },
  },
  {
    name: 'a shop',
    misspelled: 'TIMEZOME',
    async read() {
      const record = await firstOf('B2C_GetAllShops', 'SHOPS');
      return { record, url: `/TV2/Admin/shops/${record.LOCATION}` };
    },
  },
  {
    name: 'a shop assistant',
    misspelled: 'ROLLE',
    async read() {
      const record = await firstOf('B2C_GetShopAssistants', 'ASSISTANTS');
      return { record, url: `/TV2/Admin/shops/${record.LOCATION}/assistants/${record.ASSISTANT}` };
    },
  },
  {
    name: 'an external pickup point',
    misspelled: 'DESCRIPTON',
    async read() {
      const record = await firstOf('B2C_GetPickUpLocations', 'LOCATIONS', {}, (r) => r.TYPE !== 'SHOP');
      return { record, url: `/TV2/Admin/pickuppoints/${record.LOCATION}` };
    },
  },
  {
    name: 'a content block',
    misspelled: 'TITEL',
    async read() {
      const record = await firstOf('B2C_GetHomePages', 'BLOCKS');
      return { record, url: `/TV2/Admin/homepages/${record.PAGE}/blocks/${record.BLOCK}` };
    },
  },
  {
    name: 'a validation pattern',
    misspelled: 'DESCRIPTON',
    async read() {
      const record = await firstOf('B2C_GetCompanyRegEx', 'REGEXES', {}, (r) => r.SERVER === false);
      const country = record.COUNTRY ? `/${record.COUNTRY}` : '';
      return { record, url: `/TV2/Admin/regexes/${record.NAME}${country}` };
    },
  },
  {
    name: "a customer's pricing terms",
    misspelled: 'DISCOUNTPERCENT',
    async read() {
      const record = await firstOf('B2B_GetAllCustomers', 'CUSTOMERS');
      return { record, url: `/TV2/Admin/customers/${record.CUSTOMER}` };
    },
  },
  {
    name: 'a price agreement',
    misspelled: 'MINQTY',
    async read() {
      const record = await firstOf('B2B_GetAllPriceAgreements', 'AGREEMENTS', { strcustomer: '0' });
      return { record, url: `/TV2/Admin/agreements/${record.AGREEMENT}` };
    },
  },
  {
    name: 'a line discount',
    misspelled: 'VALIDUNTIL',
    async read() {
      const record = await firstOf('B2B_GetCustomerLineDiscounts', 'LINEDISCOUNTS', { strcustomer: '0' });
      return { record, url: `/TV2/Admin/linediscounts/${record.LINEDISCOUNT}` };
    },
  },
  {
    name: 'an action price',
    misspelled: 'SIZE',
    async read() {
      const record = await firstOf('B2C_GetAllActionPrice', 'ACTIONPRICES');
      return { record, url: `/TV2/Admin/actionprices/${record.ACTIONPRICE}` };
    },
  },
  {
    name: 'a stock location',
    misspelled: 'ACTIF',
    async read() {
      // no TV2 operation lists locations: the admin PUT answers the location it wrote
      const body = { LOCATION: 'STRICT1', NAME: 'Strict', KIND: 'WAREHOUSE', WHOLESALE: true, RETAIL: false };
      const res = await t.send(admin, 'PUT', '/TV2/Admin/locations/STRICT1', body);
      expect(res.statusCode, res.body).toBe(200);
      return { record: res.json().LOCATION as Rec, url: '/TV2/Admin/locations/STRICT1' };
    },
  },
  {
    name: 'a client',
    misspelled: 'FIRSTNAM',
    async read() {
      const created = await t.services.clients.profiles.saveClient({
        email: 'strict@example.nl',
        lastName: 'Strict',
      });
      const record = await firstOf('B2C_GetClient', 'CLIENTS', { strclient: String(created.clientNo) });
      // CONSENTS answers {GIVEN, GIVENAT} per consent and is written as booleans: not sent back
      const { CONSENTS: _consents, ...rest } = record;
      return { record: rest, url: `/TV2/Admin/clients/${record.CLIENT}` };
    },
  },
];

describe(`admin bodies are closed, answers can be written back (${ENGINE})`, () => {
  for (const resource of RESOURCES) {
    it(`takes ${resource.name} as a GET answers it, and names a misspelled field`, async () => {
      const { record, url } = await resource.read();
      const back = await t.send(admin, 'PUT', url, record);
      expect([200, 204], `${url}: ${back.body}`).toContain(back.statusCode);

      const misspelled = await t.send(admin, 'PUT', url, { ...record, [resource.misspelled]: 1 });
      expect(misspelled.statusCode, misspelled.body).toBe(400);
      const problem = misspelled.json();
      expect(problem.code).toBe('VALIDATION_FAILED');
      expect(problem.errors).toContainEqual({
        name: `/${resource.misspelled}`,
        message: 'is not a field of this object',
      });
    });
  }

  it('names a misspelled field of a list price, of a size and of a member card', async () => {
    const price = {
      ARTICLE: 'M10002-410',
      PRICETYPE: 'SELLING',
      PRICEGROUP: 1,
      CURRENCY: 'EUR',
      SIZEX: 'M',
      PRICE: 10,
      PRISE: 9,
    };
    const res = await t.send(admin, 'PUT', '/TV2/Admin/prices', { PRICES: [price] });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toContainEqual({
      name: '/PRICES/0/PRISE',
      message: 'is not a field of this object',
    });

    const article = await firstOf('B2B_GetAllArticles', 'ARTICLES');
    const sizes = (article.SIZES as Rec[]).map((s, i) => (i === 0 ? { ...s, BARCODES: [] } : s));
    const url = `/TV2/Admin/articles/${encodeURIComponent(String(article.ARTICLE))}`;
    const size = await t.send(admin, 'PUT', url, { ...article, SIZES: sizes });
    expect(size.statusCode).toBe(400);
    expect(size.json().errors).toContainEqual({
      name: '/SIZES/0/BARCODES',
      message: 'is not a field of this object',
    });

    const card = {
      CARDNO: 'STRICT-1',
      LEVEL: 'GOLD',
      VALIDFROM: '2026-01-01',
      VALIDTO: '2027-01-01',
      VALIDUNTIL: '2027-01-01',
    };
    const client = await t.send(admin, 'PUT', '/TV2/Admin/clients/424242', {
      CLIENT: 424242,
      EMAIL: 'card@example.nl',
      LASTNAME: 'Card',
      MEMBERCARD: card,
    });
    expect(client.statusCode).toBe(400);
    expect(client.json().errors).toContainEqual({
      name: '/MEMBERCARD/VALIDUNTIL',
      message: 'is not a field of this object',
    });
  });
});
