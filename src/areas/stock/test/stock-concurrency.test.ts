import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { article, barcode, sizeTable } from '../../../../test/helpers/fixtures.ts';
import { ENGINE, startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import {
  expectAllInFlightAtOnce,
  PAUSED_CALL,
  type PausedOutcome,
  runInThreads,
  THREADS_TEST_TIMEOUT,
  tally,
} from '../../../../test/helpers/threads.ts';
import { Random } from '../../../kernel/random.ts';
import type { StockLine } from '../stock-rules.ts';

/**
 * "Never oversold" under load: many callers reserve the same stock at once, from several threads
 * with their own database connections (on SQLite: several connections to one file, as several
 * processes would have; on PostgreSQL: several pools). Exactly the available units succeed.
 */

let t: TestApp;
const SIZES = ['S', 'M', 'L'];

beforeAll(async () => {
  t = await startTestApp();
  await t.services.catalog.saveSizeTable(sizeTable('CONF', SIZES));
  await t.services.catalog.saveArticles(
    ['C100-010', 'C200-010', 'C300-010', 'C400-010'].map((no) =>
      article(no, { sizes: SIZES.map((sizex) => ({ sizex, barcode: barcode() })) }),
    ),
  );
  for (const code of ['WH', 'AMS', 'UTR']) {
    await t.services.stock.locations.createLocation({
      code,
      name: code,
      kind: code === 'WH' ? 'WAREHOUSE' : 'SHOP',
      servesWholesale: code === 'WH',
      servesRetail: true,
    });
  }
});
afterAll(() => t.close());

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  // tsx's API: loader flags in execArgv do not reach an eval'd worker.
  const { tsImport } = await import('tsx/esm/api');
  const { openDatabase } = await tsImport(workerData.databaseModule, workerData.databaseModule);
  const { StockLedgerService } = await tsImport(workerData.serviceModule, workerData.serviceModule);
  const database = openDatabase(workerData.url, { poolSize: 5 });
  const stock = new StockLedgerService(database);
  parentPort.once('message', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: workerData.callers }, () =>
        stock[workerData.op](workerData.line).then(() => 'ok', (e) => e.code ?? String(e)),
      ),
    );
    await database.close();
    parentPort.postMessage(outcomes);
  });
  parentPort.postMessage('ready');
})().catch((e) => parentPort.postMessage(['worker failed: ' + e.stack]));
`;

/** One reservation per thread, lined up in front of the UPDATE, with no SCN lock in front. */
const UNLOCKED_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
${PAUSED_CALL}
(async () => {
  // One module graph for all (tsImport would give each import its own unit-of-work module).
  (await import('tsx/esm/api')).register();
  const load = (m) => import(m);
  const { openDatabase } = await load(workerData.databaseModule);
  const { StockLedgerService } = await load(workerData.serviceModule);
  const { ThreadSync, pauseBefore, withoutScnLock } = await load(workerData.syncModule);
  const sync = new ThreadSync(workerData.sync, workerData.parties);
  const paused = pauseBefore(openDatabase(workerData.url, { poolSize: 2 }), 'update', 'stock_level', sync);
  parentPort.once('message', async () => {
    const result = await pausedCall(paused, sync, () =>
      withoutScnLock(paused.database, workerData.scn, (db) => new StockLedgerService(db).reserve(workerData.line)),
    );
    await paused.database.close();
    parentPort.postMessage([result]);
  });
  parentPort.postMessage('ready');
})().catch((e) => parentPort.postMessage(['worker failed: ' + e.stack]));
`;

const modules = {
  databaseModule: new URL('../../../kernel/db/database.ts', import.meta.url).href,
  serviceModule: new URL('../stock-ledger-service.ts', import.meta.url).href,
};

async function fromThreads(op: 'reserve' | 'receive', line: StockLine, threads: number, callersEach: number) {
  return runInThreads(WORKER, threads, {
    url: t.databaseUrl,
    op,
    line,
    callers: callersEach,
    ...modules,
  });
}

const reserveFromThreads = (line: StockLine, threads: number, callersEach: number) =>
  fromThreads('reserve', line, threads, callersEach);

describe(`concurrent reservations (${ENGINE})`, () => {
  it(
    'lets exactly 10 of 200 concurrent reservations of 1 unit succeed against 10 units, from 4 threads',
    async () => {
      const key = { locationCode: 'WH', articleNo: 'C100-010', sizex: 'M' };
      await t.services.stock.ledger.receive({ ...key, quantity: 10 });
      const { outcomes, ms } = await reserveFromThreads({ ...key, quantity: 1 }, 4, 50);
      console.log(
        `[stock-concurrency] ${ENGINE}, 4 threads x 50 callers: ${JSON.stringify(tally(outcomes))} in ${ms.toFixed(0)} ms`,
      );
      expect(outcomes).toHaveLength(200);
      expect(tally(outcomes)).toEqual({ ok: 10, INSUFFICIENT_STOCK: 190 });
      expect(await t.services.stock.ledger.level(key)).toMatchObject({
        onHand: 10,
        reserved: 10,
        available: 0,
      });
      const reserves = await t.services.stock.ledger.movements(key, 1000);
      expect(reserves.filter((m) => m.reason === 'RESERVE')).toHaveLength(10);
      expect(await t.services.stock.ledger.verifyLedger()).toEqual([]);
    },
    THREADS_TEST_TIMEOUT,
  );

  it(
    'counts every one of 200 concurrent receipts of a level that does not exist yet, from 4 threads',
    async () => {
      // PostgreSQL: each receipt one statement (decision 46) whose upsert creates the level or adds
      // to it; the first ones race to create it
      const key = { locationCode: 'WH', articleNo: 'C100-010', sizex: 'L' };
      const { outcomes, ms } = await fromThreads('receive', { ...key, quantity: 3 }, 4, 50);
      console.log(`[stock-concurrency] ${ENGINE}, 4 threads x 50 receipts: ${ms.toFixed(0)} ms`);
      expect(tally(outcomes)).toEqual({ ok: 200 });
      expect(await t.services.stock.ledger.level(key)).toMatchObject({ onHand: 600, reserved: 0 });
      const receipts = await t.services.stock.ledger.movements(key, 1000);
      expect(receipts.filter((m) => m.reason === 'RECEIPT' && m.on_hand_delta === 3)).toHaveLength(200);
      expect(await t.services.stock.ledger.verifyLedger()).toEqual([]);
    },
    THREADS_TEST_TIMEOUT,
  );

  it('lets exactly 10 of 200 succeed in one process too (one transaction each)', async () => {
    const key = { locationCode: 'AMS', articleNo: 'C100-010', sizex: 'S' };
    await t.services.stock.ledger.receive({ ...key, quantity: 10 });
    const started = performance.now();
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, () =>
        t.services.stock.ledger.reserve({ ...key, quantity: 1 }).then(
          () => 'ok',
          (e: { code?: string }) => e.code ?? String(e),
        ),
      ),
    );
    const ms = performance.now() - started;
    console.log(
      `[stock-concurrency] ${ENGINE}, one process, 200 callers: ${JSON.stringify(tally(outcomes))} in ${ms.toFixed(0)} ms`,
    );
    expect(tally(outcomes)).toEqual({ ok: 10, INSUFFICIENT_STOCK: 190 });
    expect(await t.services.stock.ledger.level(key)).toMatchObject({ reserved: 10, available: 0 });
  });

  it(
    'holds by the conditional UPDATE alone: 4 writers on separate connections, no SCN lock, all read before any writes',
    async () => {
      // Nothing orders these writers but the guard (WHERE on_hand - reserved >= q, re-checked after
      // a row lock wait): on PostgreSQL their transactions skip the SCN counter, on SQLite their
      // statements run without a transaction (BEGIN IMMEDIATE would serialise them), and each
      // waits at a barrier in front of its UPDATE until all four are there.
      const key = { locationCode: 'UTR', articleNo: 'C100-010', sizex: 'L' };
      await t.services.stock.ledger.receive({ ...key, quantity: 2 });
      const scn = (await t.services.stock.ledger.level(key)).scn;
      const { outcomes } = await runInThreads<PausedOutcome>(UNLOCKED_WORKER, 4, {
        ...modules,
        url: t.databaseUrl,
        line: { ...key, quantity: 1 },
        scn,
      });
      expect(tally(outcomes.map((o) => o.outcome))).toEqual({ ok: 2, INSUFFICIENT_STOCK: 2 });
      expectAllInFlightAtOnce(outcomes);
      expect(await t.services.stock.ledger.level(key)).toMatchObject({
        onHand: 2,
        reserved: 2,
        available: 0,
      });
      expect(await t.services.stock.ledger.verifyLedger()).toEqual([]);
    },
    THREADS_TEST_TIMEOUT,
  );

  it('never takes available below zero under mixed concurrent work, and the ledger holds', async () => {
    const stock = t.services.stock;
    const random = new Random(7);
    const locations = ['WH', 'AMS', 'UTR'];
    const keys = ['C200-010', 'C300-010', 'C400-010'].flatMap((articleNo) =>
      SIZES.map((sizex) => ({ articleNo, sizex })),
    );
    await stock.stockTake.setLevels(
      keys.flatMap((k) => locations.map((locationCode) => ({ ...k, locationCode, onHand: 5 }))),
    );
    const jobs = Array.from({ length: 300 }, () => {
      const k = random.pick(keys);
      const locationCode = random.pick(locations);
      const quantity = random.int(1, 4);
      const roll = random.int(0, 5);
      return () => {
        if (roll === 0) return stock.ledger.receive({ ...k, locationCode, quantity });
        if (roll === 1) return stock.ledger.release({ ...k, locationCode, quantity });
        if (roll === 2) return stock.ledger.ship({ ...k, locationCode, quantity });
        if (roll === 3) {
          const to = random.pick(locations.filter((l) => l !== locationCode));
          return stock.ledger.transfer({ ...k, from: locationCode, to, quantity });
        }
        return stock.ledger.reserve({ ...k, locationCode, quantity });
      };
    });
    const outcomes = await Promise.all(
      jobs.map((job) =>
        job().then(
          () => 'ok',
          (e: { code?: string }) => e.code ?? String(e),
        ),
      ),
    );
    const counts = tally(outcomes);
    expect(counts.ok).toBeGreaterThan(0);
    for (const code of Object.keys(counts)) {
      expect(['ok', 'INSUFFICIENT_STOCK', 'INSUFFICIENT_RESERVATION']).toContain(code);
    }
    expect(await stock.ledger.verifyLedger()).toEqual([]);
    const negative = await t.database.db
      .selectFrom('stock_level')
      .select(['article_no', 'sizex', 'location_code'])
      .where((eb) => eb.or([eb('reserved', '<', 0), eb(eb('on_hand', '-', eb.ref('reserved')), '<', 0)]))
      .execute();
    expect(negative).toEqual([]);
  });
});
