import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anotherTestApp, ENGINE, startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { seedCatalog } from '../../catalog/index.ts';
import { seedStock } from '../demo.ts';

/**
 * One article's stock answer made on the SQLite reader thread with its read (decision 49;
 * kernel/db/sqlite-reader.ts, `textOnThread`): the same bytes a server without the thread answers,
 * and the SCN read in the same statement as the levels, so exactly theirs. On PostgreSQL no thread
 * makes it: the same comparison holds trivially, and the SCN bounds the levels from below.
 */

let t: TestApp;
/** A second server over the same database with no reader thread: every answer made by the serving thread. */
let plain: TestApp;
let token: string;
let articleNos: string[];

beforeAll(async () => {
  t = await startTestApp({ sqliteReader: true });
  await seedCatalog(t.services, { images: false });
  await seedStock(t.services, {});
  plain = await anotherTestApp(t);
  token = await t.tokenFor(['B2B', 'B2C']);
  const page = await t.services.catalog.listArticles('B2B', { sinceScn: 0, offset: 1, limit: 1000 });
  articleNos = page.items.map((a) => a.ARTICLE);
  // a dropped article and a shop that is closed: refusals and a location not seen
  await t.services.stock.locations.changeLocation('GNT', { active: false });
}, 120_000);
afterAll(async () => {
  await plain?.close();
  await t?.close();
});

/** Asks until the reader thread has loaded the module that makes the answer (its first use loads it). */
async function threadMakesAnswers(): Promise<boolean> {
  for (let i = 0; i < 200; i++) {
    const text = await t.services.stock.ledger.articleStockText('R', 'B2B', articleNos[0] ?? '');
    if (text !== undefined) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return false;
}

describe(`one article's stock answer made on the reader thread (${ENGINE})`, () => {
  it('is the bytes a server without the thread answers, for every article, audience and location', async () => {
    expect(await t.database.reader.whenReady()).toBe(ENGINE === 'sqlite');
    expect(await threadMakesAnswers()).toBe(ENGINE === 'sqlite');
    const ledger = t.services.stock.ledger;
    let madeOnThread = 0;
    let answers = 0;
    const statuses = new Set<number>();
    for (const articleNo of [...articleNos, 'NO-SUCH-ARTICLE']) {
      for (const [op, audience] of [
        ['B2B_GetArticleStock', 'B2B'],
        ['B2C_GetArticleStock', 'B2C'],
      ] as const) {
        for (const location of [undefined, 'WH', 'AMS', 'GNT']) {
          const query = { strarticle: articleNo, ...(location ? { strlocation: location } : {}) };
          const [threaded, served] = await Promise.all([
            t.call('GET', op, { token, query }),
            plain.call('GET', op, { token, query }),
          ]);
          const label = `${op} ${articleNo} ${location}`;
          expect(threaded.statusCode, label).toBe(served.statusCode);
          expect(threaded.headers['content-type'], label).toBe(served.headers['content-type']);
          statuses.add(threaded.statusCode);
          if (served.statusCode === 200) {
            answers++;
            expect(threaded.body, label).toBe(served.body);
            const root = op.replace('_', '').toUpperCase();
            const text = await ledger.articleStockText(root, audience, articleNo, location);
            if (text !== undefined) {
              madeOnThread++;
              expect(text, label).toBe(served.body);
            }
          } else {
            expect(threaded.json().code, label).toBe(served.json().code);
          }
        }
      }
    }
    // answers and refusals were compared; on SQLite every answer was made on the thread
    expect([...statuses].sort()).toEqual([200, 404]);
    expect(madeOnThread).toBe(ENGINE === 'sqlite' ? answers : 0);
  });

  it('answers an SCN that counts exactly the receipts in its levels, while receipts commit', async () => {
    const ledger = t.services.stock.ledger;
    const articleNo = articleNos[2] ?? '';
    const first = await ledger.articleStock('B2B', articleNo, 'WH');
    const sizex = first.TOTALS[0]?.SIZEX ?? '';
    const onHandIn = (answer: { LOCATIONS: Array<{ SIZES: Array<{ SIZEX: string }> }> }) => {
      const cell = answer.LOCATIONS[0]?.SIZES.find((s) => s.SIZEX === sizex) as
        | { ONHAND?: number }
        | undefined;
      return cell?.ONHAND ?? -1;
    };
    const base = onHandIn(first);
    const receipts: number[] = [];
    const read: Array<{ SCN: number; onHand: number }> = [];
    const reading = async () => {
      for (let i = 0; i < 40; i++) {
        const res = await t.call('GET', 'B2B_GetArticleStock', {
          token,
          query: { strarticle: articleNo, strlocation: 'WH' },
        });
        expect(res.statusCode, res.body).toBe(200);
        const answer = res.json().B2BGETARTICLESTOCK;
        read.push({ SCN: answer.SCN, onHand: onHandIn(answer) });
      }
    };
    const receiving = async () => {
      for (let i = 0; i < 40; i++) {
        const level = await ledger.receive({ articleNo, sizex, locationCode: 'WH', quantity: 1 });
        receipts.push(level.scn);
      }
    };
    await Promise.all([reading(), reading(), reading(), receiving()]);
    expect(receipts).toHaveLength(40);
    let between = 0;
    for (const { SCN, onHand } of read) {
      const counted = base + receipts.filter((scn) => scn <= SCN).length;
      // SQLite: the SCN is read with the levels; PostgreSQL: before them (the feed from it misses nothing)
      if (ENGINE === 'sqlite') expect(onHand, `at SCN ${SCN}`).toBe(counted);
      else expect(onHand).toBeGreaterThanOrEqual(counted);
      if (onHand > base && onHand < base + 40) between++;
    }
    // reads overlapped the receipts: some saw part of them
    expect(between).toBeGreaterThan(0);
  });
});
