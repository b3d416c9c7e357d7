import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { article, sizeTable } from '../../../../test/helpers/fixtures.ts';
import { seededRandom, testSeed } from '../../../../test/helpers/seed.ts';
import { ENGINE, startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { currentScn, inWriteTransaction } from '../../../kernel/db/unit-of-work.ts';
import type { Random } from '../../../kernel/random.ts';
import type { ListPriceInput, ListPriceKey } from '../list-price-service.ts';
import { PricingRepository } from '../pricing-repository.ts';

let t: TestApp;
let token: string;

const ARTICLES = Array.from({ length: 20 }, (_, i) => `F${String(i).padStart(3, '0')}-1`);
const TYPES = ['RECOMMENDED', 'SELLING'] as const;
const GROUPS = [1, 2];
const CURRENCIES = ['EUR', 'GBP'];
const SIZES = ['S', 'M'];

const randomKey = (random: Random): ListPriceKey => ({
  articleNo: random.pick(ARTICLES),
  priceType: random.pick(TYPES),
  priceGroup: random.pick(GROUPS),
  currency: random.pick(CURRENCIES),
  sizex: random.pick(SIZES),
});
const keyText = (k: {
  ARTICLE: string;
  PRICETYPE: string;
  PRICEGROUP: number;
  CURRENCY: string;
  SIZEX: string;
}) => `${k.ARTICLE}|${k.PRICETYPE}|${k.PRICEGROUP}|${k.CURRENCY}|${k.SIZEX}`;

beforeAll(async () => {
  t = await startTestApp();
  token = await t.tokenFor(['B2B']);
  await t.services.catalog.saveSizeTable(sizeTable('CONF', SIZES));
  await t.services.catalog.saveArticles(ARTICLES.map((no) => article(no)));
  await t.services.pricing.listPrices.setListPrices(
    ARTICLES.slice(0, 10).flatMap((articleNo) =>
      SIZES.map((sizex) => ({
        articleNo,
        priceType: 'SELLING' as const,
        priceGroup: 2,
        currency: 'EUR',
        sizex,
        priceMinor: 1000,
      })),
    ),
  );
});
afterAll(() => t.close());

/** A client following B2B_GetPriceChanges by strscn: a copy of every live price row. */
class FeedClient {
  readonly copy = new Map<string, number>();
  scn = 0;
  rounds = 0;

  async syncOnce(): Promise<void> {
    let offset: number | null = 1;
    let firstPageScn: number | undefined;
    while (offset !== null) {
      const res = await t.call('GET', 'B2B_GetPriceChanges', {
        token,
        query: { strscn: String(this.scn), stroffset: String(offset), strlimit: '7' },
      });
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json().B2BGETPRICECHANGES;
      firstPageScn ??= page.SCN as number;
      for (const p of page.PRICES) this.copy.set(keyText(p), p.PRICE);
      for (const gone of page.DELETED) this.copy.delete(keyText(gone));
      offset = page.NEXTOFFSET;
    }
    this.scn = firstPageScn ?? this.scn;
    this.rounds++;
  }
}

/** A client following B2B_GetAllPrices by strscn: per article, the complete price set replaces its copy. */
class AllPricesClient {
  readonly copy = new Map<string, Map<string, number>>();
  scn = 0;
  rounds = 0;

  async syncOnce(): Promise<void> {
    let offset: number | null = 1;
    let firstPageScn: number | undefined;
    while (offset !== null) {
      const res = await t.call('GET', 'B2B_GetAllPrices', {
        token,
        query: { strscn: String(this.scn), stroffset: String(offset), strlimit: '3' },
      });
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json().B2BGETPRICE;
      firstPageScn ??= page.SCN as number;
      for (const a of page.ARTICLES) {
        const prices = new Map<string, number>();
        for (const type of TYPES) {
          for (const g of a[type]) {
            for (const c of g['PRICE PER CURRENCY']) {
              for (const s of c['PRICE PER SIZE']) {
                prices.set(
                  keyText({
                    ARTICLE: a.ARTICLE,
                    PRICETYPE: type,
                    PRICEGROUP: g.PRICEGROUP,
                    CURRENCY: c.CURRENCY,
                    SIZEX: s.SIZEX,
                  }),
                  s.PRICE,
                );
              }
            }
          }
        }
        this.copy.set(a.ARTICLE, prices);
      }
      for (const gone of page.DELETED) this.copy.delete(gone);
      offset = page.NEXTOFFSET;
    }
    this.scn = firstPageScn ?? this.scn;
    this.rounds++;
  }

  flat(): Map<string, number> {
    return new Map([...this.copy.values()].flatMap((m) => [...m]));
  }
}

describe('price change feeds', () => {
  it(`never let a client following strscn miss a price change made by concurrent writers (${ENGINE})`, async () => {
    const writers = 5;
    const transactionsPerWriter = 25;
    let running = writers;
    const feed = new FeedClient();
    const all = new AllPricesClient();
    const synced = () => Math.min(feed.rounds, all.rounds);

    // Each writer draws its work from its own generator of the test's seed (printed on failure).
    const seed = testSeed();
    const writer = async (w: number) => {
      const random = seededRandom(seed + w);
      // Writers go on until both clients have synced several times while they were writing.
      for (let i = 0; i < transactionsPerWriter || synced() < 5; i++) {
        const roll = random.next();
        if (roll < 0.45) {
          const rows: ListPriceInput[] = [];
          const seen = new Set<string>();
          for (let n = 1 + random.int(0, 3); n > 0; n--) {
            const key = randomKey(random);
            const text = JSON.stringify(key);
            if (seen.has(text)) continue;
            seen.add(text);
            rows.push({ ...key, priceMinor: 100 + random.int(0, 19) * 5 });
          }
          await t.services.pricing.listPrices.setListPrices(rows);
        } else if (roll < 0.75) {
          // Delete prices that exist (most random keys have none), one or two at a time.
          const live = await t.database.db
            .selectFrom('list_price')
            .selectAll()
            .where('deleted', '=', 0)
            .execute();
          const victims = live.length > 0 ? [random.pick(live), random.pick(live)] : [];
          await t.services.pricing.listPrices.deleteListPrices(
            victims.map((r) => ({
              articleNo: r.article_no,
              priceType: r.price_type,
              priceGroup: r.price_group,
              currency: r.currency,
              sizex: r.sizex,
            })),
          );
        } else {
          // Through the repository inside one transaction: take the SCN first and hold the
          // transaction open a while, so a writer with an earlier SCN may commit after one with a
          // later SCN if the SCN were not handed out in commit order.
          await inWriteTransaction(t.database, async (uow) => {
            const scn = await uow.scn();
            await sleep(random.int(0, 3));
            const repo = new PricingRepository(uow.db);
            const key = randomKey(random);
            await repo.upsertListPrices([
              {
                article_no: key.articleNo,
                price_type: key.priceType,
                price_group: key.priceGroup,
                currency: key.currency,
                sizex: key.sizex,
                price_minor: 5000 + scn,
                deleted: 0,
                scn,
              },
            ]);
            await repo.refreshPriceArticles([key.articleNo], scn);
          });
        }
      }
      running--;
    };

    const reader = async (client: FeedClient | AllPricesClient) => {
      while (running > 0) {
        await client.syncOnce();
        await sleep(1);
      }
      await client.syncOnce();
    };

    await Promise.all([...Array.from({ length: writers }, (_, w) => writer(w)), reader(feed), reader(all)]);

    const truth = await t.database.db.selectFrom('list_price').selectAll().where('deleted', '=', 0).execute();
    const expected = Object.fromEntries(
      truth
        .map(
          (r) =>
            [
              keyText({
                ARTICLE: r.article_no,
                PRICETYPE: r.price_type,
                PRICEGROUP: r.price_group,
                CURRENCY: r.currency,
                SIZEX: r.sizex,
              }),
              Number(r.price_minor) / 100,
            ] as const,
        )
        .sort(),
    );
    expect(feed.rounds).toBeGreaterThan(5);
    expect(all.rounds).toBeGreaterThan(5);
    expect(Object.keys(expected).length).toBeGreaterThan(0);
    expect(Object.fromEntries([...feed.copy].sort())).toEqual(expected);
    expect(Object.fromEntries([...all.flat()].sort())).toEqual(expected);
    // the follower's last SCN covers every committed change, and no reader was ever ahead of it
    const highest = await t.database.db
      .selectFrom('list_price')
      .select((eb) => eb.fn.max('scn').as('scn'))
      .executeTakeFirstOrThrow();
    expect(feed.scn).toBeGreaterThanOrEqual(Number(highest.scn));
    expect(feed.scn).toBeLessThanOrEqual(await currentScn(t.database.db));
  });
});
