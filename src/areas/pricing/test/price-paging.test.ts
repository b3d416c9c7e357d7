import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { article, sizeTable } from '../../../../test/helpers/fixtures.ts';
import { ENGINE, startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { day, pricesOf } from './pricing-context.ts';

/**
 * Paging by stable position (docs/architecture.md, "Paging"; docs/pricing.md, "Sync") for every
 * pricing list and feed: a page of a list is full whenever enough records remain (deleted and
 * hidden ones use up no places), walking NEXTOFFSET gives every record exactly once, and a deletion
 * during a pass never shifts a live record into a page the client already read.
 */

let t: TestApp;
let b2b: string;
let b2c: string;

/** Saved one by one in this order, so their positions follow it (not the article numbers' order). */
const ARTICLES = [
  'Q900-010',
  'Q100-010',
  'Q500-010',
  'Q300-010',
  'Q800-010',
  'Q200-010',
  'Q700-010',
  'Q050-010',
  'Q600-010',
  'Q400-010',
];
/** Deleted before the tests: their records sit between live ones. */
const DELETED_FIRST = [1, 5];
const CUSTOMER = 30001;
const OTHER = 30002;

interface Op {
  name: string;
  root: string;
  list: string;
  key: (record: Record<string, unknown>) => string;
  token: () => string;
  query?: Record<string, string>;
}

const keyOf = (field: string) => (r: Record<string, unknown>) => String(r[field]);
const priceKey = (r: Record<string, unknown>) =>
  `${r.ARTICLE}|${r.PRICETYPE}|${r.PRICEGROUP}|${r.CURRENCY}|${r.SIZEX}`;

const OPS: Op[] = [
  {
    name: 'B2B_GetAllPrices',
    root: 'B2BGETPRICE',
    list: 'ARTICLES',
    key: keyOf('ARTICLE'),
    token: () => b2b,
  },
  {
    name: 'B2B_GetPriceChanges',
    root: 'B2BGETPRICECHANGES',
    list: 'PRICES',
    key: priceKey,
    token: () => b2b,
  },
  {
    name: 'B2B_GetAllPriceAgreements',
    root: 'B2BGETALLPRICEAGREEMENTS',
    list: 'AGREEMENTS',
    key: keyOf('AGREEMENT'),
    token: () => b2b,
  },
  {
    name: 'B2B_GetAllPriceAgreements',
    root: 'B2BGETALLPRICEAGREEMENTS',
    list: 'AGREEMENTS',
    key: keyOf('AGREEMENT'),
    token: () => b2b,
    query: { strcustomer: String(CUSTOMER) },
  },
  {
    name: 'B2B_GetCustomerLineDiscounts',
    root: 'B2BGETCUSTOMERLINEDISCOUNTS',
    list: 'LINEDISCOUNTS',
    key: keyOf('LINEDISCOUNT'),
    token: () => b2b,
    query: { strcustomer: '0' },
  },
  {
    name: 'B2B_GetCustomerLineDiscounts',
    root: 'B2BGETCUSTOMERLINEDISCOUNTS',
    list: 'LINEDISCOUNTS',
    key: keyOf('LINEDISCOUNT'),
    token: () => b2b,
    query: { strcustomer: String(CUSTOMER) },
  },
  {
    name: 'B2C_GetAllActionPrice',
    root: 'B2CGETALLACTIONPRICE',
    list: 'ACTIONPRICES',
    key: keyOf('ACTIONPRICE'),
    token: () => b2c,
  },
  {
    name: 'B2C_GetAllActionPrice',
    root: 'B2CGETALLACTIONPRICE',
    list: 'ACTIONPRICES',
    key: keyOf('ACTIONPRICE'),
    token: () => b2c,
    query: { strall: '1' },
  },
];

const label = (op: Op) => `${op.name}${op.query ? ` ${new URLSearchParams(op.query)}` : ''}`;

interface PageBody {
  SCN: number;
  NEXTOFFSET: number | null;
  DELETED: unknown[];
  [list: string]: unknown;
}

async function page(op: Op, query: Record<string, string>): Promise<PageBody> {
  const res = await t.call('GET', op.name, { token: op.token(), query: { ...op.query, ...query } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json()[op.root];
}

/** Every page of a pass from stroffset 1, following NEXTOFFSET; `between` runs after each page. */
async function walk(
  op: Op,
  query: Record<string, string>,
  between: (read: number) => Promise<void> = async () => {},
): Promise<PageBody[]> {
  const pages: PageBody[] = [];
  for (let offset: number | null = 1; offset !== null; ) {
    const body = await page(op, { ...query, stroffset: String(offset) });
    if (body.NEXTOFFSET !== null) expect(body.NEXTOFFSET).toBeGreaterThan(offset);
    pages.push(body);
    offset = body.NEXTOFFSET;
    await between(pages.length);
  }
  return pages;
}

const items = (op: Op, p: PageBody) => (p[op.list] as Array<Record<string, unknown>>).map(op.key);

beforeAll(async () => {
  t = await startTestApp();
  b2b = await t.tokenFor(['B2B']);
  b2c = await t.tokenFor(['B2C']);
  const { catalog, pricing } = t.services;
  await catalog.saveSizeTable(sizeTable('CONF', ['S', 'M']));
  for (const no of ARTICLES) await catalog.saveArticles([article(no)]);
  await catalog.saveArticles([article('Q999-010', { retail: false })]);
  await pricing.listPrices.setListPrices(ARTICLES.flatMap((no) => pricesOf(no, 5995, 2500)));
  await pricing.customers.saveCustomers([
    { customerNo: CUSTOMER, name: 'Paging', priceGroup: 2, customerGroup: 'PAGERS', currency: 'EUR' },
    { customerNo: OTHER, name: 'Other', priceGroup: 2, currency: 'EUR' },
  ]);
  for (const [i, no] of ARTICLES.entries()) {
    const party =
      i % 3 === 2
        ? { customerNo: OTHER }
        : i % 3 === 1
          ? { customerGroup: 'PAGERS' }
          : { customerNo: CUSTOMER };
    await pricing.agreements.createAgreement({
      ...party,
      scope: 'ARTICLE',
      scopeValue: no,
      validFrom: day(-10),
      discountBp: 500 + i,
    });
    await pricing.agreements.createLineDiscount({
      customerNo: i % 2 === 0 ? CUSTOMER : OTHER,
      scope: 'MODEL',
      scopeValue: no.split('-')[0] ?? no,
      discountBp: 300 + i,
      validFrom: day(-10),
    });
    await pricing.actionPrices.createActionPrice({
      articleNo: no,
      currency: 'EUR',
      priceMinor: 1995,
      // every third one runs later: hidden from the list of today
      startDate: i % 3 === 2 ? day(5) : day(-1),
      endDate: day(20),
    });
  }
  // hidden from B2C: an action price of an article not published for retail
  await pricing.actionPrices.createActionPrice({
    articleNo: 'Q999-010',
    currency: 'EUR',
    priceMinor: 995,
    startDate: day(-1),
    endDate: day(20),
  });
  // deleted records in between: they use up no places in a list
  await deleteSome(DELETED_FIRST);
});
afterAll(() => t.close());

/** Deletes, for the articles at these indexes of ARTICLES, their prices, agreement, line discount and action price. */
async function deleteSome(indexes: number[]): Promise<void> {
  const { pricing } = t.services;
  for (const i of indexes) {
    const no = ARTICLES[i] ?? '';
    await pricing.listPrices.deleteListPrices(pricesOf(no, 0, 0).map(({ priceMinor, ...key }) => key));
    const agreements = (await pricing.agreements.listAgreements({ sinceScn: 0, offset: 1, limit: 1000 }))
      .items;
    const agreement = agreements.find((a) => a.ARTICLE === no);
    if (agreement) await pricing.agreements.deleteAgreement(agreement.AGREEMENT);
    const discounts = (await pricing.agreements.listLineDiscounts({ sinceScn: 0, offset: 1, limit: 1000 }))
      .items;
    const discount = discounts.find((d) => d.MODEL === no.split('-')[0]);
    if (discount) await pricing.agreements.deleteLineDiscount(discount.LINEDISCOUNT);
    const actions = (
      await pricing.actionPrices.listActionPrices({ sinceScn: 0, offset: 1, limit: 1000 }, { all: true })
    ).items;
    const action = actions.find((a) => a.ARTICLE === no);
    if (action) await pricing.actionPrices.deleteActionPrice(action.ACTIONPRICE);
  }
}

describe(`paging by stable position (${ENGINE})`, () => {
  it('B2B_GetAllPrices lists articles in the catalogue’s article order (their positions)', async () => {
    const all = await page(OPS[0] as Op, { strlimit: '1000' });
    expect(items(OPS[0] as Op, all)).toEqual(ARTICLES.filter((_, i) => !DELETED_FIRST.includes(i)));
  });

  for (const op of OPS) {
    it(`${label(op)}: every page of a list is full while records remain, and the pass gives each record once`, async () => {
      const everything = items(op, await page(op, { strlimit: '1000' }));
      expect(everything.length).toBeGreaterThan(2);
      for (const limit of [1, 2, 3]) {
        const pages = await walk(op, { strlimit: String(limit) });
        const seen = pages.flatMap((p) => items(op, p));
        expect(seen).toEqual(everything);
        expect(pages.length).toBe(Math.ceil(everything.length / limit));
        for (const p of pages.slice(0, -1)) expect(items(op, p)).toHaveLength(limit);
        for (const p of pages) expect(p.DELETED).toEqual([]);
      }
    });
  }

  it('a feed walked by NEXTOFFSET gives every change since strscn once, deletions under DELETED', async () => {
    const op = OPS[1] as Op;
    const before = (await page(op, { strlimit: '1' })).SCN;
    await t.services.pricing.listPrices.setListPrices(pricesOf(ARTICLES[0] ?? '', 6995, 2900));
    await t.services.pricing.listPrices.setListPrices(pricesOf(ARTICLES[1] ?? '', 6995, 2900));
    await deleteSome([2]);
    const whole = await page(op, { strscn: String(before), strlimit: '1000' });
    const changed = [
      ...items(op, whole),
      ...whole.DELETED.map((k) => priceKey(k as Record<string, unknown>)),
    ];
    expect(changed).toHaveLength(12);
    const pages = await walk(op, { strscn: String(before), strlimit: '5' });
    const seen = pages.flatMap((p) => [
      ...items(op, p),
      ...p.DELETED.map((k) => priceKey(k as Record<string, unknown>)),
    ]);
    expect([...seen].sort()).toEqual([...changed].sort());
    expect(new Set(seen).size).toBe(seen.length);
    for (const p of pages.slice(0, -1)) expect(items(op, p).length + p.DELETED.length).toBe(5);
    // the per-article feed: the three articles changed, the one left without prices under DELETED
    const articles = await walk(OPS[0] as Op, { strscn: String(before), strlimit: '1' });
    expect(articles.flatMap((p) => items(OPS[0] as Op, p))).toEqual([ARTICLES[0], ARTICLES[1]]);
    expect(articles.flatMap((p) => p.DELETED)).toEqual([ARTICLES[2]]);
    expect(articles).toHaveLength(3);
  });

  it('a deletion during a pass never shifts a live record into a page already read', async () => {
    for (const op of [OPS[0], OPS[2], OPS[4], OPS[6]] as Op[]) {
      const everything = items(op, await page(op, { strlimit: '1000' }));
      expect(everything.length, label(op)).toBeGreaterThan(2);
      const [first, second] = everything;
      // after the first page (two records) the first of them is deleted: the third record must not
      // move up into the first page, where the client would never read it
      const pages = await walk(op, { strlimit: '2' }, async (read) => {
        if (read === 1) await deleteSome([ARTICLES.indexOf(articleOf(op, first ?? ''))]);
      });
      const seen = pages.flatMap((p) => items(op, p));
      // every record live for the whole pass is read once; the deleted one was read before it went
      expect(seen, label(op)).toEqual(everything);
      expect(seen.slice(0, 2)).toEqual([first, second]);
    }
  });
});

/** The article a record of `op` (by its key) is about: the key itself for B2B_GetAllPrices. */
function articleOf(op: Op, key: string): string {
  if (op.name === 'B2B_GetAllPrices') return key;
  const found = articleByRecord.get(`${op.name}:${key}`);
  if (!found) throw new Error(`no article for ${op.name} ${key}`);
  return found;
}
const articleByRecord = new Map<string, string>();
beforeAll(async () => {
  const { pricing } = t.services;
  const all = { sinceScn: 0, offset: 1, limit: 1000 };
  for (const a of (await pricing.agreements.listAgreements(all)).items) {
    articleByRecord.set(`B2B_GetAllPriceAgreements:${a.AGREEMENT}`, a.ARTICLE ?? '');
  }
  for (const d of (await pricing.agreements.listLineDiscounts(all)).items) {
    articleByRecord.set(`B2B_GetCustomerLineDiscounts:${d.LINEDISCOUNT}`, `${d.MODEL}-010`);
  }
  for (const a of (await pricing.actionPrices.listActionPrices(all, { all: true })).items) {
    articleByRecord.set(`B2C_GetAllActionPrice:${a.ACTIONPRICE}`, a.ARTICLE);
  }
});
