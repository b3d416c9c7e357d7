import { describe, expect, it } from 'vitest';
import { ENGINE } from '../../../../test/helpers/test-app.ts';
import {
  expectAllInFlightAtOnce,
  PAUSED_CALL,
  type PausedOutcome,
  runInThreads,
  THREADS_TEST_TIMEOUT,
  tally,
} from '../../../../test/helpers/threads.ts';
import { CLIENT, O100, orderContext, STOCK, webOrder } from './order-context.ts';

/**
 * The placement under concurrency (docs/orders.md, "Placement under load"): callers in worker
 * threads, each thread with its own database handle (on SQLite its own connection to the file, as
 * another process would have; on PostgreSQL its own pool), all let go at once.
 *
 * - the reservation: many more web orders than units, never one unit more reserved than there is,
 *   every refused order a conflict INSUFFICIENT_STOCK that wrote nothing;
 * - the exactly-once claim: one (client, WEBORDER) posted many times at once is one order.
 *
 * Each guard also has a test that takes away what otherwise serialises the writers (the SCN lock
 * on PostgreSQL, BEGIN IMMEDIATE on SQLite: `withoutScnLock`) and lines the callers up in front of
 * the guarded statement, so every caller has read before any writes (scripts/mutations/
 * orders-placement.ts removes each guard and requires these tests to fail).
 */

const ctx = orderContext();

const modules = {
  databaseModule: new URL('../../../kernel/db/database.ts', import.meta.url).href,
  configModule: new URL('../../../config.ts', import.meta.url).href,
  servicesModule: new URL('../../../services.ts', import.meta.url).href,
  rulesModule: new URL('../placement-rules.ts', import.meta.url).href,
};

/** An outcome a worker reports: the order (number, created) or the refusal (kind and code). */
const OUTCOME = `
const outcomeOf = (o) => JSON.stringify({ ORDERNO: o.ORDERNO, CREATED: o.CREATED, STATE: o.STATE });
const refusalOf = (e) => (e && e.kind && e.code ? e.kind + ' ' + e.code : 'error ' + String(e && e.stack || e));
`;

/**
 * Each thread places `workerData.orders` web orders at once, all of one line; `workerData.weborder`
 * is the reference ('*' in it is replaced by the thread and the caller, so each order has its own).
 */
const WORKER = `
const { parentPort, workerData, threadId } = require('node:worker_threads');
${OUTCOME}
(async () => {
  (await import('tsx/esm/api')).register();
  const load = (m) => import(m);
  const { openDatabase } = await load(workerData.databaseModule);
  const { loadConfig } = await load(workerData.configModule);
  const { createServices } = await load(workerData.servicesModule);
  const { placementFromWebOrder } = await load(workerData.rulesModule);
  const config = loadConfig({}, { databaseUrl: workerData.url, demo: false });
  const database = openDatabase(workerData.url, { poolSize: 5 });
  const services = createServices(config, database);
  const body = (i) => {
    const b = structuredClone(workerData.body);
    b.WEBORDERDATA.WEBORDER = b.WEBORDERDATA.WEBORDER.replace('*', threadId + '-' + i);
    return b;
  };
  parentPort.once('message', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: workerData.orders }, (_, i) =>
        services.orders.placement
          .placeOrder(placementFromWebOrder(body(i), workerData.client), 'CLIENT')
          .then(outcomeOf, refusalOf),
      ),
    );
    await database.close();
    parentPort.postMessage(outcomes);
  });
  parentPort.postMessage('ready');
})().catch((e) => parentPort.postMessage(['worker failed: ' + e.stack]));
`;

/**
 * One placement per thread with nothing serialising the writers but the guard: its statements run
 * without the SCN lock (PostgreSQL) or outside a transaction (SQLite), and each thread waits at a
 * barrier in front of its first \`workerData.statement\` on \`workerData.table\` until all are there.
 */
const UNLOCKED_WORKER = `
const { parentPort, workerData, threadId } = require('node:worker_threads');
${OUTCOME}
${PAUSED_CALL}
(async () => {
  (await import('tsx/esm/api')).register();
  const load = (m) => import(m);
  const { openDatabase } = await load(workerData.databaseModule);
  const { loadConfig } = await load(workerData.configModule);
  const { createServices } = await load(workerData.servicesModule);
  const { placementFromWebOrder } = await load(workerData.rulesModule);
  const { ThreadSync, pauseBefore, withoutScnLock } = await load(workerData.syncModule);
  const sync = new ThreadSync(workerData.sync, workerData.parties);
  const config = loadConfig({}, { databaseUrl: workerData.url, demo: false });
  const paused = pauseBefore(openDatabase(workerData.url, { poolSize: 2 }), workerData.statement, workerData.table, sync);
  const body = structuredClone(workerData.body);
  body.WEBORDERDATA.WEBORDER = body.WEBORDERDATA.WEBORDER.replace('*', String(threadId));
  parentPort.once('message', async () => {
    const result = await pausedCall(paused, sync, () =>
      withoutScnLock(paused.database, workerData.scn, (db) =>
        createServices(config, db).orders.placement.placeOrder(placementFromWebOrder(body, workerData.client), 'CLIENT'),
      ).then(outcomeOf, refusalOf),
    );
    await paused.database.close();
    parentPort.postMessage([result]);
  });
  parentPort.postMessage('ready');
})().catch((e) => parentPort.postMessage([{ outcome: 'worker failed: ' + e.stack, done: 0 }]));
`;

const oneLine = (weborder: string, barcode: string) => webOrder(weborder, [{ barcode, quantity: 1 }]);

async function level(sizex: string) {
  const l = await ctx.t.services.stock.ledger.level({ locationCode: 'WH', articleNo: 'O100-010', sizex });
  return { onHand: l.onHand, reserved: l.reserved, available: l.available };
}

/** The orders written with references starting with `prefix`, and their history rows. */
async function written(prefix: string) {
  const db = ctx.t.database.db;
  const orders = await db
    .selectFrom('sales_order')
    .select(['order_no', 'weborder'])
    .where('weborder', 'like', `${prefix}%`)
    .execute();
  const history = await db
    .selectFrom('order_history')
    .innerJoin('sales_order', 'sales_order.order_no', 'order_history.order_no')
    .select('order_history.order_no')
    .where('sales_order.weborder', 'like', `${prefix}%`)
    .execute();
  const lines = await db
    .selectFrom('sales_order_line')
    .innerJoin('sales_order', 'sales_order.order_no', 'sales_order_line.order_no')
    .select(['sales_order_line.ordered', 'sales_order_line.reserved'])
    .where('sales_order.weborder', 'like', `${prefix}%`)
    .execute();
  return { orders, history, lines };
}

const parsed = (outcomes: string[]) =>
  outcomes
    .filter((o) => o.startsWith('{'))
    .map((o) => JSON.parse(o) as { ORDERNO: number; CREATED: boolean });

describe(`web orders racing for stock (${ENGINE})`, () => {
  // As many as a busy 2-core CI machine affords in a test; `npm run bench:orders` does 1,000.
  const THREADS = 4;
  const EACH = 100;
  const UNITS = 100;

  it(
    `reserves exactly ${UNITS} units for ${THREADS * EACH} concurrent one-unit web orders; every other is refused and writes nothing`,
    async () => {
      const { sizex, barcode } = O100[2]!;
      await ctx.t.services.stock.ledger.receive({
        locationCode: 'WH',
        articleNo: 'O100-010',
        sizex,
        quantity: UNITS - STOCK,
      });
      const { outcomes, ms } = await runInThreads(WORKER, THREADS, {
        ...modules,
        url: ctx.t.databaseUrl,
        client: CLIENT,
        orders: EACH,
        body: oneLine('RACE-*', barcode),
      });
      const kinds = tally(outcomes.map((o) => (o.startsWith('{') ? 'placed' : o)));
      console.log(
        `[placement-concurrency] ${ENGINE}, ${THREADS} x ${EACH}: ${JSON.stringify(kinds)} in ${ms.toFixed(0)} ms`,
      );
      expect(kinds).toEqual({ placed: UNITS, 'conflict INSUFFICIENT_STOCK': THREADS * EACH - UNITS });
      const placed = parsed(outcomes);
      expect(new Set(placed.map((o) => o.ORDERNO)).size).toBe(UNITS);
      expect(placed.every((o) => o.CREATED)).toBe(true);
      expect(await level(sizex)).toEqual({ onHand: UNITS, reserved: UNITS, available: 0 });
      // Nothing of a refused order remains: one order, one line and one history row per unit.
      const rows = await written('RACE-');
      expect(rows.orders).toHaveLength(UNITS);
      expect(rows.history).toHaveLength(UNITS);
      expect(rows.lines.map((l) => [Number(l.ordered), Number(l.reserved)])).toEqual(
        Array.from({ length: UNITS }, () => [1, 1]),
      );
      expect(await ctx.t.services.stock.ledger.verifyLedger()).toEqual([]);
    },
    THREADS_TEST_TIMEOUT,
  );

  it(
    'holds by the reservation’s conditional UPDATE alone: 4 placements without the SCN lock, all read before any reserves',
    async () => {
      // Two units of S left for four one-unit orders: the 10 received, 8 taken here first.
      const { sizex, barcode } = O100[0]!;
      await ctx.t.services.stock.ledger.reserve({
        locationCode: 'WH',
        articleNo: 'O100-010',
        sizex,
        quantity: 8,
      });
      const scn = (
        await ctx.t.services.stock.ledger.level({ locationCode: 'WH', articleNo: 'O100-010', sizex })
      ).scn;
      const { outcomes } = await runInThreads<PausedOutcome>(UNLOCKED_WORKER, 4, {
        ...modules,
        url: ctx.t.databaseUrl,
        client: CLIENT,
        scn,
        statement: 'update',
        table: 'stock_level',
        body: oneLine('GUARD-*', barcode),
      });
      const kinds = tally(outcomes.map((o) => (o.outcome.startsWith('{') ? 'placed' : o.outcome)));
      expect(kinds).toEqual({ placed: 2, 'conflict INSUFFICIENT_STOCK': 2 });
      expectAllInFlightAtOnce(outcomes);
      expect(await level(sizex)).toEqual({ onHand: STOCK, reserved: STOCK, available: 0 });
      expect(await ctx.t.services.stock.ledger.verifyLedger()).toEqual([]);
    },
    THREADS_TEST_TIMEOUT,
  );
});

describe(`one WEBORDER posted many times at once (${ENGINE})`, () => {
  it(
    'is one order reserved once: all 50 answers name it, CREATED true exactly once; other content is WEBORDER_CONFLICT',
    async () => {
      const { sizex, barcode } = O100[1]!;
      const before = await level(sizex);
      const body = webOrder('ONCE-1', [{ barcode, quantity: 2 }]);
      const { outcomes } = await runInThreads(WORKER, 5, {
        ...modules,
        url: ctx.t.databaseUrl,
        client: CLIENT,
        orders: 10,
        body,
      });
      expect(outcomes).toHaveLength(50);
      const placed = parsed(outcomes);
      expect(
        placed,
        outcomes.find((o) => !o.startsWith('{')),
      ).toHaveLength(50);
      expect(new Set(placed.map((o) => o.ORDERNO)).size).toBe(1);
      expect(placed.filter((o) => o.CREATED)).toHaveLength(1);
      expect(await level(sizex)).toEqual({
        ...before,
        reserved: before.reserved + 2,
        available: before.available - 2,
      });
      const rows = await written('ONCE-1');
      expect(rows.orders).toHaveLength(1);
      expect(rows.history).toHaveLength(1);

      const other = await ctx.t.call('POST', 'B2C_PostWebOrder', {
        token: ctx.both,
        body: webOrder('ONCE-1', [{ barcode, quantity: 3 }]),
      });
      expect(other.statusCode).toBe(409);
      expect(other.json().code).toBe('WEBORDER_CONFLICT');
      const same = await ctx.t.call('POST', 'B2C_PostWebOrder', { token: ctx.both, body });
      expect(same.statusCode).toBe(200);
      expect(same.json().B2CPOSTWEBORDER).toMatchObject({ ORDERNO: placed[0]!.ORDERNO, CREATED: false });
      expect(await level(sizex)).toEqual({
        ...before,
        reserved: before.reserved + 2,
        available: before.available - 2,
      });
      expect(await ctx.t.services.stock.ledger.verifyLedger()).toEqual([]);
    },
    THREADS_TEST_TIMEOUT,
  );

  it(
    'holds by the claim’s ON CONFLICT alone: 4 placements without the SCN lock, all looked the reference up before any claims it',
    async () => {
      const { sizex, barcode } = O100[1]!;
      const before = await level(sizex);
      const scn = (
        await ctx.t.services.stock.ledger.level({ locationCode: 'WH', articleNo: 'O100-010', sizex })
      ).scn;
      const { outcomes } = await runInThreads<PausedOutcome>(UNLOCKED_WORKER, 4, {
        ...modules,
        url: ctx.t.databaseUrl,
        client: CLIENT,
        scn,
        statement: 'insert',
        table: 'sales_order',
        body: oneLine('ONCE-2', barcode),
      });
      const answers = outcomes.map((o) => o.outcome);
      const placed = parsed(answers);
      expect(
        placed,
        answers.find((o) => !o.startsWith('{')),
      ).toHaveLength(4);
      expectAllInFlightAtOnce(outcomes);
      expect(new Set(placed.map((o) => o.ORDERNO)).size).toBe(1);
      expect(placed.filter((o) => o.CREATED)).toHaveLength(1);
      expect(await level(sizex)).toEqual({
        ...before,
        reserved: before.reserved + 1,
        available: before.available - 1,
      });
      expect((await written('ONCE-2')).orders).toHaveLength(1);
    },
    THREADS_TEST_TIMEOUT,
  );
});
