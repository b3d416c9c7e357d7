import type { FastifyInstance } from 'fastify';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryId,
  QueryResult,
  UnknownRow,
} from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AREAS } from '../src/areas.ts';
import { loadConfig } from '../src/config.ts';
import { buildApp } from '../src/http/server.ts';
import { type Database, openDatabase } from '../src/kernel/db/database.ts';
import { createServices } from '../src/services.ts';
import { article, barcode, sizeTable } from './helpers/fixtures.ts';
import { ENGINE, startTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * A change feed page reads the SCN before its rows (src/kernel/feed-page.ts): a write committed
 * after the rows were read then has an SCN above the page's, and the next page (strscn = that SCN)
 * brings it. Read the other way round, that write is in neither page: lost for good.
 *
 * Each test makes that commit happen at the one moment that matters, every time: the feed is served
 * by a second server (built by buildApp from AREAS, as start-up builds it) over its own connection,
 * whose queries pass through a plugin that holds the feed's row query, once it has run, until a
 * writer (the test app, another connection) has committed a change. Then the client's next page,
 * from the SCN it was given, must bring the change.
 */

/** The tables a query names, anywhere in it (joins and subqueries too). */
function tablesOf(node: unknown, into: string[] = []): string[] {
  if (Array.isArray(node)) {
    for (const n of node) tablesOf(n, into);
  } else if (node !== null && typeof node === 'object') {
    const n = node as { kind?: string; table?: { identifier?: { name?: string } } };
    if (n.kind === 'TableNode' && n.table?.identifier?.name) into.push(n.table.identifier.name);
    for (const value of Object.values(node)) tablesOf(value, into);
  }
  return into;
}

/** Holds the first query on `table`, after it has run, until `during` is done (once per arming). */
class HoldAfterRead implements KyselyPlugin {
  readonly #tables = new WeakMap<QueryId, string[]>();
  #armed: { table: string; during: () => Promise<void> } | undefined;
  held = 0;

  arm(table: string, during: () => Promise<void>): void {
    this.#armed = { table, during };
  }

  transformQuery({ queryId, node }: PluginTransformQueryArgs) {
    if (this.#armed) this.#tables.set(queryId, tablesOf(node));
    return node;
  }

  async transformResult({ queryId, result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const armed = this.#armed;
    if (armed && (this.#tables.get(queryId) ?? []).includes(armed.table)) {
      this.#armed = undefined;
      this.held++;
      await armed.during();
    }
    return result;
  }
}

let t: TestApp;
let reader: FastifyInstance;
let readerDatabase: Database;
const hold = new HoldAfterRead();
let b2b: string;
let b2c: string;
let clientNo: number;

beforeAll(async () => {
  t = await startTestApp();
  b2b = await t.tokenFor(['B2B']);
  b2c = await t.tokenFor(['B2C']);
  await t.services.catalog.saveSizeTable(sizeTable('CONF', ['S', 'M']));
  await t.services.catalog.saveArticles(
    ['F100-010', 'F200-010', 'F300-010'].map((no) =>
      article(no, { sizes: ['S', 'M'].map((sizex) => ({ sizex, barcode: barcode() })) }),
    ),
  );
  await t.services.stock.locations.createLocation({
    code: 'AMS',
    name: 'Amsterdam',
    kind: 'SHOP',
    servesWholesale: true,
    servesRetail: true,
  });
  await t.services.stock.ledger.receive({
    locationCode: 'AMS',
    articleNo: 'F100-010',
    sizex: 'S',
    quantity: 3,
  });
  await t.services.pricing.listPrices.setListPrices([price('F100-010', 1000)]);
  ({ clientNo } = await t.services.clients.profiles.saveClient({
    email: 'feed@example.nl',
    firstName: 'Fee',
    lastName: 'Reader',
  }));
  await t.services.clients.purchases.recordPurchase(purchase('R-1'));

  const base = openDatabase(t.databaseUrl);
  readerDatabase = { ...base, db: base.db.withPlugin(hold) };
  const config = loadConfig({}, { databaseUrl: t.databaseUrl, demo: false });
  reader = await buildApp(createServices(config, readerDatabase), { areas: AREAS });
  await reader.ready();
});
afterAll(async () => {
  await reader?.close();
  await readerDatabase?.close();
  await t.close();
});

function price(articleNo: string, priceMinor: number) {
  return { articleNo, priceType: 'SELLING' as const, priceGroup: 2, currency: 'EUR', sizex: 'M', priceMinor };
}

function purchase(reference: string) {
  return {
    clientNo,
    source: 'SHOP' as const,
    shopCode: 'AMS',
    reference,
    purchasedAt: '2026-03-01T10:15:00Z',
    currency: 'EUR',
    lines: [{ articleNo: 'F100-010', sizex: 'M', quantity: 1, unitPriceMinor: 1999, amountMinor: 1999 }],
  };
}

interface Feed {
  operation: string;
  token: () => string;
  query?: () => Record<string, string>;
  /** The table its rows come from. */
  table: string;
  /** The items of an answer, as keys to compare. */
  keys: (root: Record<string, unknown>) => string[];
  /** Commits one change the feed must bring, and returns its key. */
  change: () => Promise<string>;
}

/** Reads a page from the reader server; the root object of the answer. */
async function page(feed: Feed, scn: number): Promise<Record<string, unknown> & { SCN: number }> {
  const res = await reader.inject({
    method: 'GET',
    url: `/TV2/Execute/APIPACK.${feed.operation}`,
    query: { ...feed.query?.(), strscn: String(scn) },
    headers: { authorization: `Bearer ${feed.token()}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  return Object.values(res.json())[0] as Record<string, unknown> & { SCN: number };
}

/**
 * Syncs once, then reads a page while a change commits right after the page's rows were read, and
 * follows with the next page from the SCN that page gave: the change must be in one of them.
 */
async function changeBetweenReads(feed: Feed) {
  const start = await page(feed, 0);
  let key = '';
  hold.arm(feed.table, async () => {
    key = await feed.change();
  });
  const heldBefore = hold.held;
  const first = await page(feed, start.SCN);
  expect(hold.held, 'the change was committed while the page was being read').toBe(heldBefore + 1);
  // It committed after the rows were read: this page cannot hold it ...
  expect(feed.keys(first)).not.toContain(key);
  // ... so the page's SCN must be below it, and the next page brings it.
  const next = await page(feed, first.SCN);
  expect(feed.keys(next), `the change committed after the rows of the page at SCN ${first.SCN}`).toContain(
    key,
  );
}

const list = (root: Record<string, unknown>, name: string) =>
  (root[name] ?? []) as Array<Record<string, unknown>>;

describe(`a change committed while a feed page is read is never lost (${ENGINE})`, () => {
  it('the article feed (B2B_GetAllArticles)', async () => {
    let n = 0;
    await changeBetweenReads({
      operation: 'B2B_GetAllArticles',
      token: () => b2b,
      table: 'article',
      keys: (root) => list(root, 'ARTICLES').map((a) => String(a.ARTICLE)),
      change: async () => {
        const no = `F9${String(++n).padStart(2, '0')}-010`;
        await t.services.catalog.saveArticles([article(no)]);
        return no;
      },
    });
  });

  it('the stock feed (B2B_GetStockChanges)', async () => {
    await changeBetweenReads({
      operation: 'B2B_GetStockChanges',
      token: () => b2b,
      table: 'stock_level',
      keys: (root) => list(root, 'STOCKS').map((s) => `${s.ARTICLE}|${s.SIZEX}|${s.LOCATION}`),
      change: async () => {
        await t.services.stock.ledger.receive({
          locationCode: 'AMS',
          articleNo: 'F200-010',
          sizex: 'M',
          quantity: 2,
        });
        return 'F200-010|M|AMS';
      },
    });
  });

  it('the price feed (B2B_GetPriceChanges)', async () => {
    await changeBetweenReads({
      operation: 'B2B_GetPriceChanges',
      token: () => b2b,
      table: 'list_price',
      keys: (root) => list(root, 'PRICES').map((p) => `${p.ARTICLE}|${p.PRICE}`),
      change: async () => {
        await t.services.pricing.listPrices.setListPrices([price('F300-010', 2500)]);
        return 'F300-010|25';
      },
    });
  });

  it('the client purchase feed (B2C_GetClient_Purchase)', async () => {
    await changeBetweenReads({
      operation: 'B2C_GetClient_Purchase',
      token: () => b2c,
      query: () => ({ strclient: String(clientNo) }),
      table: 'client_purchase',
      keys: (root) => list(root, 'PURCHASES').map((p) => String(p.REFERENCE)),
      change: async () => {
        await t.services.clients.purchases.recordPurchase(purchase('R-2'));
        return 'R-2';
      },
    });
  });
});
