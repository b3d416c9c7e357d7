import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { article, barcode, sizeTable } from '../../../../test/helpers/fixtures.ts';
import { ENGINE, startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { runInThreads, tally } from '../../../../test/helpers/threads.ts';
import { inWriteTransaction } from '../../../kernel/db/unit-of-work.ts';
import { Random } from '../../../kernel/random.ts';
import { StockRepository } from '../stock-repository.ts';
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
        stock.reserve(workerData.line).then(() => 'ok', (e) => e.code ?? String(e)),
      ),
    );
    await database.close();
    parentPort.postMessage(outcomes);
  });
  parentPort.postMessage('ready');
})().catch((e) => parentPort.postMessage(['worker failed: ' + e.stack]));
`;

async function reserveFromThreads(line: StockLine, threads: number, callersEach: number) {
  return runInThreads(WORKER, threads, {
    url: t.databaseUrl,
    line,
    callers: callersEach,
    databaseModule: new URL('../../../kernel/db/database.ts', import.meta.url).href,
    serviceModule: new URL('../stock-ledger-service.ts', import.meta.url).href,
  });
}

describe(`concurrent reservations (${ENGINE})`, () => {
  it('lets exactly 10 of 200 concurrent reservations of 1 unit succeed against 10 units, from 4 threads', async () => {
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
  });

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

  it('holds by the conditional UPDATE alone, without the SCN lock ordering the writers', async () => {
    // Transactions that never take the SCN counter run truly side by side on PostgreSQL; the
    // guard (WHERE on_hand - reserved >= q, re-checked after a row lock wait) must still hold.
    const key = { locationCode: 'UTR', articleNo: 'C100-010', sizex: 'L' };
    await t.services.stock.ledger.receive({ ...key, quantity: 10 });
    const scn = (await t.services.stock.ledger.level(key)).scn;
    const results = await Promise.all(
      Array.from({ length: 200 }, () =>
        inWriteTransaction(t.database, async (uow) => {
          const repo = new StockRepository(uow.db);
          const row = await repo.reserve(key, 1, scn);
          if (row) {
            await repo.insertMovements([
              {
                scn,
                article_no: key.articleNo,
                sizex: key.sizex,
                location_code: key.locationCode,
                reason: 'RESERVE',
                on_hand_delta: 0,
                reserved_delta: 1,
                reference: 'guard probe',
                created_at: new Date().toISOString(),
              },
            ]);
          }
          return row !== undefined;
        }),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(10);
    expect((await t.services.stock.ledger.level(key)).reserved).toBe(10);
  });

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
