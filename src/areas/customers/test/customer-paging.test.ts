import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { article, sizeTable } from '../../../../test/helpers/fixtures.ts';
import { startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';

/**
 * Paging by stable position (docs/customers.md, "Paging"): a page of a full list holds strlimit
 * records whenever that many remain (deleted customers, representatives, moved-away customers and
 * deleted links take no place), walking NEXTOFFSET gives every record exactly once, and a deletion
 * during a pass never shifts a live record into a page the client already read.
 */

let t: TestApp;
let token: string;

const CUSTOMERS = [20001, 20002, 20003, 20004, 20005, 20006, 20007, 20008, 20009, 20010];
const ARTICLES = ['P100-010', 'P100-020', 'P100-030', 'P200-010', 'P200-020'];

beforeAll(async () => {
  t = await startTestApp();
  token = await t.tokenFor(['B2B']);
  const { catalog, customers } = t.services;
  await catalog.saveSizeTable(sizeTable('CONF', ['S', 'M', 'L']));
  await catalog.saveArticles(ARTICLES.map((a) => article(a)));
  await customers.representatives.saveRepresentatives(
    ['R1', 'R2', 'R3', 'R4', 'R5'].map((code) => ({ code, name: `Rep ${code}` })),
  );
  // Created out of number order: the list is in position (creation) order, not number order.
  for (const customerNo of [...CUSTOMERS].reverse()) {
    await customers.customers.saveCustomerDetails({
      customerNo,
      name: `Customer ${customerNo}`,
      priceGroup: 1,
      currency: 'EUR',
      representative: 'R1',
    });
  }
  await customers.articleLinks.saveArticleLinks([
    ...ARTICLES.map((articleNo, i) => ({ customerNo: 20001, articleNo, customerArticleNo: `A-${i}` })),
    ...ARTICLES.slice(0, 3).map((articleNo, i) => ({
      customerNo: 20002,
      articleNo,
      customerArticleNo: `B-${i}`,
    })),
  ]);
});
afterAll(() => t.close());

interface Walked {
  /** The keys of the records in the order the pages gave them (DELETED after each page's list). */
  keys: unknown[];
  /** Records (live and deleted) per page. */
  sizes: number[];
}

/** Follows NEXTOFFSET from stroffset 1 to the end. */
async function walk(
  op: string,
  list: string,
  key: (record: Record<string, unknown>) => unknown,
  query: Record<string, string>,
  from = 1,
): Promise<Walked> {
  const out: Walked = { keys: [], sizes: [] };
  let offset: number | null = from;
  while (offset !== null) {
    const res = await t.call('GET', op, { token, query: { ...query, stroffset: String(offset) } });
    expect(res.statusCode, res.body).toBe(200);
    const body = Object.values(res.json())[0] as Record<string, unknown>;
    const records = body[list] as Array<Record<string, unknown>>;
    const deleted = body.DELETED as unknown[];
    out.keys.push(...records.map(key), ...deleted);
    out.sizes.push(records.length + deleted.length);
    const next = body.NEXTOFFSET as number | null;
    if (next !== null) expect(next).toBeGreaterThan(offset);
    offset = next;
  }
  return out;
}

/** The page sizes a walk over `total` records with `limit` gives when every page is full. */
const full = (total: number, limit: number) =>
  Array.from({ length: Math.max(1, Math.ceil(total / limit)) }, (_, i) => Math.min(limit, total - i * limit));

const customerNo = (c: Record<string, unknown>) => c.CUSTOMER;
const linkKey = (l: Record<string, unknown>) => `${l.CUSTOMER}/${l.ARTICLE}`;
const scnNow = async () =>
  (await t.call('GET', 'B2B_GetRepresentatives', { token, query: { strlimit: '1' } })).json()
    .B2BGETREPRESENTATIVES.SCN as number;

describe('paging by stable position', () => {
  it('a deletion during a pass never shifts a live record into a page already read', async () => {
    const first = (await t.call('GET', 'B2B_GetAllCustomers', { token, query: { strlimit: '3' } })).json()
      .B2BGETALLCUSTOMERS;
    // Positions follow creation: 20010 first.
    expect(first.CUSTOMERS.map(customerNo)).toEqual([20010, 20009, 20008]);
    // The client has read the first page; one of its customers is deleted.
    await t.services.customers.customers.deleteCustomer(20009);
    const rest = await walk(
      'B2B_GetAllCustomers',
      'CUSTOMERS',
      customerNo,
      { strlimit: '3' },
      first.NEXTOFFSET,
    );
    // 20007 was the next record and still is: nothing moved up into the page already read.
    expect(rest.keys).toEqual([20007, 20006, 20005, 20004, 20003, 20002, 20001]);
  });

  it('full lists hold strlimit records a page and give every live record once', async () => {
    const since = await scnNow();
    const { customers } = t.services;
    await customers.customers.deleteCustomer(20006);
    await customers.customers.deleteCustomer(20003);
    await customers.customers.saveCustomerDetails({
      customerNo: 20005,
      name: 'Customer 20005',
      priceGroup: 1,
      currency: 'EUR',
      representative: 'R3',
    });
    await customers.representatives.deleteRepresentative('R2');
    await customers.representatives.deleteRepresentative('R4');
    await customers.articleLinks.deleteArticleLinks([
      { customerNo: 20001, articleNo: 'P100-020' },
      { customerNo: 20002, articleNo: 'P100-010' },
    ]);

    const all = await walk('B2B_GetAllCustomers', 'CUSTOMERS', customerNo, { strlimit: '3' });
    const live = [20010, 20008, 20007, 20005, 20004, 20002, 20001];
    expect(all.keys).toEqual(live);
    expect(all.sizes).toEqual(full(live.length, 3));

    const ofR1 = await walk('B2B_GetRepresentativeCustomers', 'CUSTOMERS', customerNo, {
      strrepresentative: 'R1',
      strlimit: '2',
    });
    const members = live.filter((c) => c !== 20005);
    expect(ofR1.keys).toEqual(members);
    expect(ofR1.sizes).toEqual(full(members.length, 2));

    const reps = await walk('B2B_GetRepresentatives', 'REPRESENTATIVES', (r) => r.REPRESENTATIVE, {
      strlimit: '2',
    });
    expect(reps.keys).toEqual(['R1', 'R3', 'R5']);
    expect(reps.sizes).toEqual([2, 1]);

    const links = await walk('B2B_GetAllCustomerArticleLink', 'ARTICLELINKS', linkKey, { strlimit: '4' });
    const liveLinks = [
      '20001/P100-010',
      '20001/P100-030',
      '20001/P200-010',
      '20001/P200-020',
      '20002/P100-020',
      '20002/P100-030',
    ];
    expect(links.keys).toEqual(liveLinks);
    expect(links.sizes).toEqual([4, 2]);
    const own = await walk('B2B_GetCustomerArticleLink', 'ARTICLELINKS', linkKey, {
      strcustomer: '20001',
      strlimit: '3',
    });
    expect(own.keys).toEqual(liveLinks.slice(0, 4));
    expect(own.sizes).toEqual([3, 1]);

    // A feed walks the changes (tombstones under DELETED) once each, pages full as well.
    const feed = await walk('B2B_GetAllCustomers', 'CUSTOMERS', customerNo, {
      strscn: String(since),
      strlimit: '2',
    });
    expect(feed.keys).toEqual([20005, 20006, 20003]);
    expect(feed.sizes).toEqual([2, 1]);
    const repFeed = await walk('B2B_GetRepresentativeCustomers', 'CUSTOMERS', customerNo, {
      strrepresentative: 'R1',
      strscn: String(since),
      strlimit: '1',
    });
    expect(repFeed.keys).toEqual([20006, 20005, 20003]);
    expect(repFeed.sizes).toEqual([1, 1, 1]);
  });
});
