import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import Sqlite from 'better-sqlite3';
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anotherTestApp, ENGINE, startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { directReader } from '../../../kernel/db/sqlite-reader.ts';
import { seedCatalog } from '../../catalog/index.ts';
import { seedStock } from '../demo.ts';
import { StockLedgerService } from '../stock-ledger-service.ts';

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

/** An answer's text with its SCN left out. */
const withoutScn = (body: string) => body.replace(/^(\{"[A-Z0-9]+":\{"SCN":)\d+,/, '$1,');

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
            // PostgreSQL: the SCN is the horizon, which other databases' work on the cluster moves
            // between two reads; SQLite: the counter, which nothing moves here
            if (ENGINE === 'sqlite') expect(threaded.body, label).toBe(served.body);
            else expect(withoutScn(threaded.body), label).toBe(withoutScn(served.body));
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

  it('answers an SCN that counts exactly the receipts in its levels, while another connection receives', async () => {
    const ledger = t.services.stock.ledger;
    const articleNo = articleNos[2] ?? '';
    const sizex = (await ledger.articleStock('B2B', articleNo, 'WH')).TOTALS[0]?.SIZEX ?? '';
    // a level that exists at WH
    await ledger.receive({ articleNo, sizex, locationCode: 'WH', quantity: 1 });
    const onHandIn = (answer: { LOCATIONS: Array<{ SIZES: Array<{ SIZEX: string }> }> }) => {
      const cell = answer.LOCATIONS[0]?.SIZES.find((s) => s.SIZEX === sizex) as
        | { ONHAND?: number }
        | undefined;
      return cell?.ONHAND ?? -1;
    };
    const base = onHandIn(await ledger.articleStock('B2B', articleNo, 'WH'));
    const read: Array<{ SCN: number; onHand: number }> = [];
    let writing = true;
    const reading = async () => {
      // at least 20 reads each, and on until the receipts are done
      for (let i = 0; i < 20 || writing; i++) {
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
      try {
        return await receiptsElsewhere(articleNo, sizex, RECEIPTS);
      } finally {
        writing = false;
      }
    };
    const [receipts] = await Promise.all([receiving(), reading(), reading(), reading(), reading()]);
    expect(receipts).toHaveLength(RECEIPTS);
    let between = 0;
    for (const { SCN, onHand } of read) {
      const counted = base + receipts.filter((scn) => scn <= SCN).length;
      // SQLite: the SCN is read with the levels; PostgreSQL: before them (the feed from it misses nothing)
      if (ENGINE === 'sqlite') expect(onHand, `at SCN ${SCN}`).toBe(counted);
      else expect(onHand).toBeGreaterThanOrEqual(counted);
      if (onHand > base && onHand < base + RECEIPTS) between++;
    }
    // reads overlapped the receipts: some saw part of them
    expect(between).toBeGreaterThan(0);
  });

  it.runIf(ENGINE === 'sqlite')(
    'reads the SCN in the statement of the levels: a receipt committed right after a statement of the read is counted by its SCN',
    async () => {
      const articleNo = articleNos[3] ?? '';
      const sizex =
        (await t.services.stock.ledger.articleStock('B2B', articleNo, 'WH')).TOTALS[0]?.SIZEX ?? '';
      await t.services.stock.ledger.receive({ articleNo, sizex, locationCode: 'WH', quantity: 1 });
      const other = new Sqlite(t.databaseUrl.replace(/^sqlite:/, ''));
      try {
        other.pragma('busy_timeout = 10000');
        const take = other.prepare('update scn_counter set value = value + 1 where id = 1 returning value');
        const add = other.prepare(
          "update stock_level set on_hand = on_hand + 1, scn = ? where article_no = ? and sizex = ? and location_code = 'WH'",
        );
        const receipts: number[] = [];
        // each statement the read runs is followed at once by a receipt committed on another connection
        const receiptAfterEach: KyselyPlugin = {
          transformQuery: ({ node }) => node,
          async transformResult({ result }) {
            other.exec('begin immediate');
            const scn = (take.get() as { value: number }).value;
            add.run(scn, articleNo, sizex);
            other.exec('commit');
            receipts.push(scn);
            return result;
          },
        };
        const db = t.database.db.withPlugin(receiptAfterEach);
        const ledger = new StockLedgerService({ ...t.database, db, reader: directReader(db) });
        const onHandIn = (answer: { LOCATIONS: Array<{ SIZES: Array<{ SIZEX: string }> }> }) => {
          const cell = answer.LOCATIONS[0]?.SIZES.find((s) => s.SIZEX === sizex) as
            | { ONHAND?: number }
            | undefined;
          return cell?.ONHAND ?? -1;
        };
        const base = onHandIn(await t.services.stock.ledger.articleStock('B2B', articleNo, 'WH'));
        for (let i = 0; i < 5; i++) {
          const answer = await ledger.articleStock('B2B', articleNo, 'WH');
          expect(receipts.length).toBeGreaterThan(0);
          expect(onHandIn(answer), `at SCN ${answer.SCN}`).toBe(
            base + receipts.filter((scn) => scn <= answer.SCN).length,
          );
        }
      } finally {
        other.close();
      }
    },
  );
});

const RECEIPTS = 200;

/**
 * `count` receipts of one piece at WH, each its own transaction with its SCN, written by another
 * connection on a thread of its own (SQLite: as another process would, at any moment of this one's
 * work), or by the ledger (PostgreSQL: the pool's connections). Their SCNs, in order.
 */
async function receiptsElsewhere(articleNo: string, sizex: string, count: number): Promise<number[]> {
  if (ENGINE !== 'sqlite') {
    const scns: number[] = [];
    for (let i = 0; i < count; i++) {
      const level = await t.services.stock.ledger.receive({
        articleNo,
        sizex,
        locationCode: 'WH',
        quantity: 1,
      });
      scns.push(level.scn);
    }
    return scns;
  }
  const writer = new Worker(WRITER, {
    eval: true,
    workerData: {
      module: createRequire(import.meta.url).resolve('better-sqlite3'),
      path: t.databaseUrl.replace(/^sqlite:/, ''),
      articleNo,
      sizex,
      count,
    },
  });
  return new Promise<number[]>((resolve, reject) => {
    writer.once('message', resolve);
    writer.once('error', reject);
  }).finally(() => writer.terminate());
}

/** The receipts' writer (SQLite): the counter and the level, as the ledger writes them, in one transaction each. */
const WRITER = `
const { parentPort, workerData } = require('node:worker_threads');
const Sqlite = require(workerData.module);
const db = new Sqlite(workerData.path);
db.pragma('busy_timeout = 10000');
const take = db.prepare('update scn_counter set value = value + 1 where id = 1 returning value');
const add = db.prepare(
  "update stock_level set on_hand = on_hand + 1, scn = ? where article_no = ? and sizex = ? and location_code = 'WH'",
);
const scns = [];
for (let i = 0; i < workerData.count; i++) {
  db.exec('begin immediate');
  const scn = take.get().value;
  if (add.run(scn, workerData.articleNo, workerData.sizex).changes !== 1) throw new Error('no such level');
  db.exec('commit');
  scns.push(scn);
}
db.close();
parentPort.postMessage(scns);
`;
