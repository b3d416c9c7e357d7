import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { article, sizeTable, toEan13 } from '../../../../test/helpers/fixtures.ts';
import { seededRandom, testSeed } from '../../../../test/helpers/seed.ts';
import { ENGINE, startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { currentScn, inWriteTransaction } from '../../../kernel/db/unit-of-work.ts';

/**
 * The stock change feeds under concurrent writers, modelled on scn-sync.test.ts: writers take
 * their SCN, hold the transaction open a moment, then receive, transfer, reserve, release, ship,
 * and now and then change who sees a location or an article. Clients follow B2B_GetStockChanges
 * and B2C_GetStockChanges by strscn with small pages; their copies must end equal to the database.
 */

let t: TestApp;
let token: string;
const SIZES = ['S', 'M', 'L'];
const ARTICLES = Array.from({ length: 8 }, (_, i) => `F${String(i).padStart(3, '0')}-1`);
const LOCATIONS = ['WH', 'AMS', 'UTR', 'ANT'];

function articleInput(no: string, retail: boolean) {
  const n = ARTICLES.indexOf(no);
  return article(no, {
    retail,
    sizes: SIZES.map((sizex, i) => ({
      sizex,
      barcode: toEan13(`8730000${String(n * 10 + i).padStart(5, '0')}`),
    })),
  });
}

beforeAll(async () => {
  t = await startTestApp();
  token = await t.tokenFor(['B2B', 'B2C']);
  await t.services.catalog.saveSizeTable(sizeTable('CONF', SIZES));
  await t.services.catalog.saveArticles(ARTICLES.map((no) => articleInput(no, true)));
  for (const code of LOCATIONS) {
    await t.services.stock.locations.createLocation({
      code,
      name: code,
      kind: code === 'WH' ? 'WAREHOUSE' : 'SHOP',
      servesWholesale: code === 'WH' || code === 'ANT',
      servesRetail: code !== 'ANT',
    });
  }
  await t.services.stock.stockTake.setLevels(
    ARTICLES.flatMap((articleNo) =>
      SIZES.map((sizex) => ({ articleNo, sizex, locationCode: 'WH', onHand: 20 })),
    ),
  );
});
afterAll(() => t.close());

type Copy = Map<string, string>;
const keyOf = (s: { ARTICLE: string; SIZEX: string; LOCATION: string }) =>
  `${s.ARTICLE}|${s.SIZEX}|${s.LOCATION}`;

/** A client following a stock change feed as the wire conventions tell it to. */
class FeedClient {
  readonly copy: Copy = new Map();
  scn = 0;
  rounds = 0;
  readonly operation: 'B2B_GetStockChanges' | 'B2C_GetStockChanges';
  readonly value: (s: Record<string, number>) => string;

  constructor(
    operation: 'B2B_GetStockChanges' | 'B2C_GetStockChanges',
    value: (s: Record<string, number>) => string,
  ) {
    this.operation = operation;
    this.value = value;
  }

  async syncOnce(): Promise<void> {
    const root = this.operation.replaceAll('_', '').toUpperCase();
    let offset: number | null = 1;
    let firstPageScn: number | undefined;
    while (offset !== null) {
      const res = await t.call('GET', this.operation, {
        token,
        query: { strscn: String(this.scn), stroffset: String(offset), strlimit: '7' },
      });
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json()[root];
      firstPageScn ??= page.SCN as number;
      for (const s of page.STOCKS) this.copy.set(keyOf(s), this.value(s));
      for (const gone of page.DELETED) this.copy.delete(keyOf(gone));
      offset = page.NEXTOFFSET;
    }
    this.scn = firstPageScn ?? this.scn;
    this.rounds++;
  }
}

/** What each audience should hold, read straight from the tables. */
async function truth(audience: 'B2B' | 'B2C'): Promise<Copy> {
  const rows = await t.database.db
    .selectFrom('stock_level as l')
    .innerJoin('stock_location as loc', 'loc.code', 'l.location_code')
    .innerJoin('article as a', 'a.article_no', 'l.article_no')
    .select(['l.article_no', 'l.sizex', 'l.location_code', 'l.on_hand', 'l.reserved'])
    .where('loc.deleted', '=', 0)
    .where('loc.active', '=', 1)
    .where('a.deleted', '=', 0)
    .$if(audience === 'B2B', (qb) => qb.where('loc.serves_wholesale', '=', 1))
    .$if(audience === 'B2C', (qb) =>
      qb.where('loc.serves_retail', '=', 1).where('a.retail', '=', 1).where('a.active', '=', 1),
    )
    .execute();
  return new Map(
    rows.map((r) => [
      `${r.article_no}|${r.sizex}|${r.location_code}`,
      audience === 'B2B'
        ? `${Number(r.on_hand)}/${Number(r.reserved)}`
        : String(Number(r.on_hand) - Number(r.reserved)),
    ]),
  );
}

const sorted = (m: Copy) => Object.fromEntries([...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

describe('stock change feeds', () => {
  it(`never let a client following strscn miss a stock change by concurrent writers (${ENGINE})`, async () => {
    const stock = t.services.stock;
    const wholesale = new FeedClient('B2B_GetStockChanges', (s) => `${s.ONHAND}/${s.RESERVED}`);
    const retail = new FeedClient('B2C_GetStockChanges', (s) => String(s.AVAILABLE));
    const writers = 5;
    const transactionsPerWriter = 30;
    let running = writers;
    const outcomes: Record<string, number> = {};

    // Each writer draws its work from its own generator of the test's seed (printed on failure).
    const seed = testSeed();
    const writer = async (w: number) => {
      const random = seededRandom(seed + w);
      for (let i = 0; i < transactionsPerWriter || wholesale.rounds < 5 || retail.rounds < 5; i++) {
        const articleNo = random.pick(ARTICLES);
        const sizex = random.pick(SIZES);
        const locationCode = random.pick(LOCATIONS);
        const quantity = 1 + random.int(0, 3);
        const line = { articleNo, sizex, locationCode, quantity };
        const roll = random.next();
        try {
          if (roll < 0.04) {
            // who sees a shop changes: all its levels move in the feeds
            const l = await stock.locations.location('UTR');
            await stock.locations.changeLocation('UTR', { servesRetail: !l.servesRetail });
          } else if (roll < 0.07) {
            const published = random.next() < 0.5;
            await t.services.catalog.saveArticle(articleInput(articleNo, published));
          } else {
            await inWriteTransaction(t.database, async (uow) => {
              // take the SCN first and hold the transaction open: commit order != start order
              await uow.scn();
              await sleep(random.int(0, 3));
              if (roll < 0.25) await stock.ledger.receiveIn(uow, line);
              else if (roll < 0.45) {
                const to = random.pick(LOCATIONS.filter((l) => l !== locationCode));
                await stock.ledger.transferIn(uow, { articleNo, sizex, from: locationCode, to, quantity });
              } else if (roll < 0.75) await stock.ledger.reserveIn(uow, line);
              else if (roll < 0.9) await stock.ledger.releaseIn(uow, line);
              else await stock.ledger.shipIn(uow, line);
            });
          }
          outcomes.ok = (outcomes.ok ?? 0) + 1;
        } catch (error) {
          const code = (error as { code?: string }).code ?? String(error);
          outcomes[code] = (outcomes[code] ?? 0) + 1;
        }
      }
      running--;
    };

    const reader = async (client: FeedClient) => {
      while (running > 0) {
        await client.syncOnce();
        await sleep(1);
      }
      await client.syncOnce();
    };

    await Promise.all([
      ...Array.from({ length: writers }, (_, w) => writer(w)),
      reader(wholesale),
      reader(retail),
    ]);

    for (const code of Object.keys(outcomes)) {
      expect(['ok', 'INSUFFICIENT_STOCK', 'INSUFFICIENT_RESERVATION']).toContain(code);
    }
    expect(outcomes.ok).toBeGreaterThan(writers * transactionsPerWriter * 0.3);
    expect(wholesale.rounds).toBeGreaterThan(5);
    expect(retail.rounds).toBeGreaterThan(5);
    expect(sorted(wholesale.copy)).toEqual(sorted(await truth('B2B')));
    expect(sorted(retail.copy)).toEqual(sorted(await truth('B2C')));
    expect(wholesale.copy.size).toBeGreaterThan(0);
    // the followers' last SCNs cover every committed change, and no reader was ever ahead of them
    const highest = await t.database.db
      .selectFrom('stock_level')
      .select((eb) => eb.fn.max('scn').as('scn'))
      .executeTakeFirstOrThrow();
    expect(Math.min(wholesale.scn, retail.scn)).toBeGreaterThanOrEqual(Number(highest.scn));
    expect(Math.max(wholesale.scn, retail.scn)).toBeLessThanOrEqual(await currentScn(t.database.db));
    expect(await stock.ledger.verifyLedger()).toEqual([]);
  });
});
