import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentScn, inWriteTransaction } from '../src/kernel/db/unit-of-work.ts';
import { article, sizeTable } from './helpers/fixtures.ts';
import { seededRandom, testSeed } from './helpers/seed.ts';
import { ENGINE, startTestApp, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await startTestApp();
  token = await t.tokenFor(['B2B']);
  await t.services.catalog.saveSizeTable(sizeTable('CONF', ['S', 'M', 'L', 'XL']));
  await t.services.catalog.saveArticles(
    Array.from({ length: 30 }, (_, i) => article(`S${String(i).padStart(3, '0')}-1`)),
  );
});
afterAll(() => t.close());

/** A client following B2B_GetAllArticles by strscn, as the wire conventions tell it to. */
class SyncingClient {
  readonly copy = new Map<string, string>();
  scn = 0;
  rounds = 0;

  async syncOnce(): Promise<void> {
    let offset: number | null = 1;
    let firstPageScn: number | undefined;
    while (offset !== null) {
      const res = await t.call('GET', 'B2B_GetAllArticles', {
        token,
        query: { strscn: String(this.scn), stroffset: String(offset), strlimit: '7' },
      });
      expect(res.statusCode).toBe(200);
      const page = res.json().B2BGETALLARTICLES;
      firstPageScn ??= page.SCN as number;
      for (const a of page.ARTICLES) this.copy.set(a.ARTICLE, a.BRAND);
      for (const gone of page.DELETED) this.copy.delete(gone);
      offset = page.NEXTOFFSET;
    }
    this.scn = firstPageScn ?? this.scn;
    this.rounds++;
  }
}

describe('SCN change feed', () => {
  it(`never lets a client following strscn miss a change made by concurrent writers (${ENGINE})`, async () => {
    const writers = 6;
    const transactionsPerWriter = 25;
    let created = 0;
    let running = writers;

    const client = new SyncingClient();
    // Each writer draws its work from its own generator of the test's seed (printed on failure).
    const seed = testSeed();
    // Writers go on until the client has synced several times while they were writing.
    const writer = async (w: number) => {
      const random = seededRandom(seed + w);
      for (let i = 0; i < transactionsPerWriter || client.rounds < 5; i++) {
        await inWriteTransaction(t.database, async (uow) => {
          // Take the SCN first (or, for half the writers, the number to stamp with, the SCN
          // taken at the end) and hold the transaction open a while: a writer that got its
          // number earlier may commit later than one that got a higher number, which is the
          // order a naive sequence gets wrong.
          const scn = w % 2 === 0 ? await uow.stamp() : await uow.scn();
          await sleep(random.int(0, 3));
          const roll = random.next();
          const live = await uow.db
            .selectFrom('article')
            .select('article_no')
            .where('deleted', '=', 0)
            .execute();
          const target = live.length > 0 ? random.pick(live).article_no : undefined;
          const now = new Date().toISOString();
          if (roll < 0.15 || !target) {
            const no = `N${w}-${++created}`;
            await uow.db
              .insertInto('article')
              .values({
                article_no: no,
                model_no: no,
                colour_code: '1',
                colour_description: '{}',
                description: '{}',
                model_description: '{}',
                search_name1: '{}',
                search_name2: '{}',
                search_name3: '{}',
                brand: `new-${scn}`,
                season: 'S',
                article_group: 'G',
                vat_rate_bp: 2100,
                size_table_code: 'CONF',
                active: 1,
                retail: 1,
                deleted: 0,
                scn,
                created_at: now,
                updated_at: now,
              })
              .execute();
          } else if (roll < 0.3) {
            await uow.db
              .updateTable('article')
              .set({ deleted: 1, scn })
              .where('article_no', '=', target)
              .execute();
          } else {
            await uow.db
              .updateTable('article')
              .set({ brand: `b-${w}-${scn}`, scn })
              .where('article_no', '=', target)
              .execute();
          }
        });
      }
      running--;
    };

    const reader = async () => {
      while (running > 0) {
        await client.syncOnce();
        await sleep(1);
      }
      await client.syncOnce();
    };

    await Promise.all([...Array.from({ length: writers }, (_, w) => writer(w)), reader()]);

    const truth = await t.database.db
      .selectFrom('article')
      .select(['article_no', 'brand'])
      .where('deleted', '=', 0)
      .execute();
    expect(client.rounds).toBeGreaterThan(5);
    expect(Object.fromEntries([...client.copy].sort())).toEqual(
      Object.fromEntries(truth.map((r) => [r.article_no, r.brand] as const).sort()),
    );
    // the client's last SCN covers every committed change, and a reader was never ahead of it
    const highest = await t.database.db
      .selectFrom('article')
      .select((eb) => eb.fn.max('scn').as('scn'))
      .executeTakeFirstOrThrow();
    expect(client.scn).toBeGreaterThanOrEqual(Number(highest.scn));
    expect(client.scn).toBeLessThanOrEqual(await currentScn(t.database.db));
  });

  it('never lets a reader take an SCN N while a write with an SCN up to N is still to commit', async () => {
    const base = await currentScn(t.database.db);
    const random = seededRandom();
    const writers = 40;
    let running = writers;
    // what a reader saw: the SCN N it took, then how many of the writers' rows carry an SCN up to N
    const seen: Array<{ scn: number; rows: number }> = [];
    const reader = async () => {
      while (running > 0) {
        const scn = await currentScn(t.database.db);
        const committed = await t.database.db
          .selectFrom('size_table')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('code', 'like', 'ORD-%')
          .where('scn', '<=', scn)
          .executeTakeFirstOrThrow();
        seen.push({ scn, rows: Number(committed.n) });
        await sleep(0);
      }
    };
    const scns = await Promise.all([
      ...Array.from({ length: writers }, (_, i) =>
        inWriteTransaction(t.database, async (uow) => {
          // half take the SCN first, half stamp and take it at the end
          const scn = i % 2 === 0 ? await uow.scn() : await uow.stamp();
          await sleep(random.int(0, 3));
          await uow.db
            .insertInto('size_table')
            .values({ code: `ORD-${i}`, description: '{}', deleted: 0, scn })
            .execute();
          await sleep(random.int(0, 3));
          return scn;
        }).finally(() => running--),
      ),
      reader().then(() => -1),
    ]);
    // each writer stamps one row: whenever a reader took N, every write with an SCN up to N had
    // committed, so the rows up to N are exactly those writes
    const mine = scns.filter((s) => s > 0).sort((a, b) => a - b);
    const violations = seen
      .filter(({ scn, rows }) => rows !== mine.filter((s) => s <= scn).length)
      .map(
        ({ scn, rows }) =>
          `reader at ${scn} saw ${rows} rows; writes up to it: ${mine.filter((s) => s <= scn).length}`,
      );
    expect(violations).toEqual([]);
    expect(seen.length).toBeGreaterThan(0);
    // every write has its own SCN, above what a reader took before; on SQLite the counter counts them
    expect(new Set(mine).size).toBe(writers);
    expect(mine[0]).toBeGreaterThan(base);
    if (ENGINE === 'sqlite') expect(mine).toEqual(Array.from({ length: writers }, (_, i) => base + 1 + i));
  });

  it('leaves no trace of a transaction that fails: no SCN spent (SQLite), no reader held back', async () => {
    const before = await currentScn(t.database.db);
    await expect(
      inWriteTransaction(t.database, async (uow) => {
        await uow.scn();
        throw new Error('business rule refused');
      }),
    ).rejects.toThrow('business rule refused');
    if (ENGINE === 'sqlite') expect(await currentScn(t.database.db)).toBe(before);
    // the next write is covered by a reader's SCN once it committed: the failed one holds nothing back
    const next = await inWriteTransaction(t.database, (uow) => uow.stamp());
    expect(next).toBeGreaterThan(before);
    expect(await currentScn(t.database.db)).toBeGreaterThanOrEqual(next);
  });
});
