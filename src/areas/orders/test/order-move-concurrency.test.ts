import { describe, expect, it } from 'vitest';
import { ENGINE } from '../../../../test/helpers/test-app.ts';
import { runInThreads, THREADS_TEST_TIMEOUT, tally } from '../../../../test/helpers/threads.ts';
import { CLIENT, O100, O200, ordCus, orderContext, webOrder } from './order-context.ts';

/**
 * The moves' guards under callers on separate connections that overlap: worker threads, each with
 * its own database handle and services (on SQLite several connections to one file, as several
 * processes would have; on PostgreSQL several pools), released at once. On PostgreSQL each caller
 * also waits at a barrier in front of its guarded statement (the order's lock, the delivery's claim)
 * until every caller is there, so all of them have begun before any of them passes it: only the
 * guard keeps them apart. (On SQLite a write transaction begins IMMEDIATE, before any statement: a
 * barrier inside it would hold the one writer, so the callers are released together at the start.)
 */

const ctx = orderContext();
let seq = 0;

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  (await import('tsx/esm/api')).register();
  const { openDatabase } = await import(workerData.databaseModule);
  const { loadConfig } = await import(workerData.configModule);
  const { createServices } = await import(workerData.servicesModule);
  const { ThreadSync, pauseBefore } = await import(workerData.syncModule);
  const sync = new ThreadSync(workerData.sync, workerData.parties);
  const opened = openDatabase(workerData.url, { poolSize: 2 });
  let database = opened;
  const pause = workerData.pause;
  if (pause && opened.engine === 'postgres') {
    if (pause.statement === 'select') {
      // The first SELECT of the table (the order's lock) waits until every caller is there.
      let arrived = false;
      const fromTable = (node) => {
        const from = node.from && node.from.froms && node.from.froms[0];
        const table = from && (from.kind === 'AliasNode' ? from.node : from);
        return table && table.kind === 'TableNode' ? table.table.identifier.name : undefined;
      };
      const plugin = {
        transformQuery({ node }) {
          if (!arrived && node.kind === 'SelectQueryNode' && fromTable(node) === pause.table) {
            arrived = true;
            sync.arrive();
          }
          return node;
        },
        transformResult({ result }) { return Promise.resolve(result); },
      };
      database = { ...opened, db: opened.db.withPlugin(plugin) };
    } else {
      database = pauseBefore(opened, pause.statement, pause.table, sync).database;
    }
  }
  const services = createServices(loadConfig({}, { databaseUrl: workerData.url, demo: false }), database);
  const moves = services.orders.moves;
  parentPort.once('message', async () => {
    // Each thread takes the next job, in turn.
    const job = workerData.jobs[Atomics.add(new Int32Array(workerData.counter), 0, 1) % workerData.jobs.length];
    const run = {
      deliver: () => moves.deliveries.deliver(job.orderNo, job.lines ? { lines: job.lines } : {}),
      cancelDelivery: () => moves.deliveries.cancel(job.deliveryNo),
      cancel: () => moves.move(job.orderNo, { name: 'cancel' }, 'BACK_OFFICE'),
      receive: () => moves.returns.receive(job.returnNo),
    }[job.call];
    const outcome = await run().then(() => job.call + ':ok', (e) => job.call + ':' + (e.code ?? String(e)));
    await opened.close();
    parentPort.postMessage([outcome]);
  });
  parentPort.postMessage('ready');
})().catch((e) => parentPort.postMessage(['worker failed: ' + e.stack]));
`;

interface Job {
  call: 'deliver' | 'cancelDelivery' | 'cancel' | 'receive';
  orderNo?: number;
  deliveryNo?: number;
  returnNo?: number;
  lines?: { line: number; quantity: number }[];
}

/** Runs the jobs, one per thread (in turn when fewer), each on its own connection. */
function inThreads(threads: number, jobs: Job[], pause?: { statement: 'select' | 'update'; table: string }) {
  return runInThreads(WORKER, threads, {
    url: ctx.t.databaseUrl,
    jobs,
    pause,
    counter: new SharedArrayBuffer(4),
    databaseModule: new URL('../../../kernel/db/database.ts', import.meta.url).href,
    configModule: new URL('../../../config.ts', import.meta.url).href,
    servicesModule: new URL('../../../services.ts', import.meta.url).href,
  });
}

const LOCK = { statement: 'select', table: 'sales_order' } as const;

async function level(sizex: string) {
  const l = await ctx.t.services.stock.ledger.level({ locationCode: 'WH', articleNo: 'O100-010', sizex });
  return { onHand: l.onHand, reserved: l.reserved };
}

async function confirmedOrder(lines: Array<[string, number]>): Promise<number> {
  const placed = await ctx.t.call('POST', 'B2B_PostOrdCus', {
    token: ctx.both,
    body: ordCus(
      `CC-${++seq}`,
      lines.map(([barcode, quantity]) => ({ barcode, quantity })),
    ),
  });
  expect(placed.statusCode, placed.body).toBe(200);
  const orderNo = placed.json().B2BPOSTORDCUS.ORDERNO as number;
  await ctx.t.services.orders.moves.move(orderNo, { name: 'confirm' }, 'BACK_OFFICE');
  return orderNo;
}

async function linesOf(orderNo: number) {
  return ctx.t.database.db
    .selectFrom('sales_order_line')
    .select(['ordered', 'cancelled', 'reserved', 'delivered'])
    .where('order_no', '=', orderNo)
    .execute();
}

describe(`concurrent moves of one order (${ENGINE})`, () => {
  it(
    'three concurrent deliveries of all open never deliver more than open: one delivers, stock moves once',
    async () => {
      const start = await level('S');
      const orderNo = await confirmedOrder([[O100[0]!.barcode, 3]]);
      const { outcomes } = await inThreads(3, [{ call: 'deliver', orderNo }], LOCK);
      expect(tally(outcomes)).toEqual({ 'deliver:ok': 1, 'deliver:ORDER_MOVE_NOT_ALLOWED': 2 });
      expect(await linesOf(orderNo)).toEqual([{ ordered: 3, cancelled: 0, reserved: 0, delivered: 3 }]);
      expect(await level('S')).toEqual({ onHand: start.onHand - 3, reserved: start.reserved });
      const deliveries = await ctx.t.database.db
        .selectFrom('delivery')
        .select('delivery_no')
        .where('order_no', '=', orderNo)
        .execute();
      expect(deliveries).toHaveLength(1);
      expect(await ctx.t.services.stock.ledger.verifyLedger()).toEqual([]);
    },
    THREADS_TEST_TIMEOUT,
  );

  it(
    'concurrent partial deliveries add up to at most the open quantity',
    async () => {
      const start = await level('M');
      const orderNo = await confirmedOrder([[O100[1]!.barcode, 3]]);
      const job: Job = { call: 'deliver', orderNo, lines: [{ line: 1, quantity: 2 }] };
      const { outcomes } = await inThreads(3, [job], LOCK);
      expect(tally(outcomes)).toEqual({ 'deliver:ok': 1, 'deliver:ORDER_LINE_OVER_DELIVERED': 2 });
      expect(await linesOf(orderNo)).toEqual([{ ordered: 3, cancelled: 0, reserved: 1, delivered: 2 }]);
      expect(await level('M')).toEqual({ onHand: start.onHand - 2, reserved: start.reserved + 1 });
      await ctx.t.services.orders.moves.move(orderNo, { name: 'close', cancelRest: true }, 'BACK_OFFICE');
    },
    THREADS_TEST_TIMEOUT,
  );

  it(
    'concurrent deliveries of a back-order (nothing reserved) ship its open quantity once',
    async () => {
      // Only the order lock stops a second shipment here: the pieces come from what is available,
      // with no reservation that a second shipment would find gone.
      const key = { locationCode: 'WH', articleNo: 'O200-010', sizex: 'M' };
      const stock = ctx.t.services.stock.ledger;
      const first = await stock.level(key);
      const holder = await confirmedOrder([[O200[1]!.barcode, first.available]]);
      const orderNo = await confirmedOrder([[O200[1]!.barcode, 3]]);
      expect(await linesOf(orderNo)).toEqual([{ ordered: 3, cancelled: 0, reserved: 0, delivered: 0 }]);
      await stock.receive({ ...key, quantity: 10 });
      const start = await stock.level(key);
      const { outcomes } = await inThreads(3, [{ call: 'deliver', orderNo }], LOCK);
      expect(tally(outcomes)).toEqual({ 'deliver:ok': 1, 'deliver:ORDER_MOVE_NOT_ALLOWED': 2 });
      expect(await linesOf(orderNo)).toEqual([{ ordered: 3, cancelled: 0, reserved: 0, delivered: 3 }]);
      expect(await stock.level(key)).toMatchObject({ onHand: start.onHand - 3, reserved: start.reserved });
      await ctx.t.services.orders.moves.move(holder, { name: 'cancel' }, 'BACK_OFFICE');
      expect(await stock.verifyLedger()).toEqual([]);
    },
    THREADS_TEST_TIMEOUT,
  );

  it(
    'concurrent cancels of one delivery reverse it once',
    async () => {
      const start = await level('L');
      const orderNo = await confirmedOrder([[O100[2]!.barcode, 4]]);
      const moves = ctx.t.services.orders.moves;
      // Two deliveries of the same line: the counters alone could not tell a second reversal.
      const first = await moves.deliveries.deliver(orderNo, { lines: [{ line: 1, quantity: 1 }] });
      await moves.deliveries.deliver(orderNo, { lines: [{ line: 1, quantity: 2 }] });
      const { outcomes } = await inThreads(3, [{ call: 'cancelDelivery', deliveryNo: first.deliveryNo }], {
        statement: 'update',
        table: 'delivery',
      });
      expect(tally(outcomes)).toEqual({
        'cancelDelivery:ok': 1,
        'cancelDelivery:DELIVERY_ALREADY_CANCELLED': 2,
      });
      expect(await linesOf(orderNo)).toEqual([{ ordered: 4, cancelled: 0, reserved: 2, delivered: 2 }]);
      expect(await level('L')).toEqual({ onHand: start.onHand - 2, reserved: start.reserved + 2 });
      await moves.move(orderNo, { name: 'close', cancelRest: true }, 'BACK_OFFICE');
      expect(await level('L')).toEqual({ onHand: start.onHand - 2, reserved: start.reserved });
      expect(await ctx.t.services.stock.ledger.verifyLedger()).toEqual([]);
    },
    THREADS_TEST_TIMEOUT,
  );

  it(
    'concurrent cancels and a delivery: the order is cancelled once, releasing exactly what was reserved and not delivered',
    async () => {
      const start = await level('S');
      const orderNo = await confirmedOrder([[O100[0]!.barcode, 3]]);
      const { outcomes } = await inThreads(
        3,
        [
          { call: 'cancel', orderNo },
          { call: 'cancel', orderNo },
          { call: 'deliver', orderNo, lines: [{ line: 1, quantity: 1 }] },
        ],
        LOCK,
      );
      const counts = tally(outcomes);
      const [line] = await linesOf(orderNo);
      if (counts['deliver:ok'] === 1) {
        // The delivery came first: a cancel with a piece out is refused; nothing else changed.
        expect(counts).toEqual({ 'deliver:ok': 1, 'cancel:ORDER_DELIVERED_NOT_RETURNED': 2 });
        expect(line).toEqual({ ordered: 3, cancelled: 0, reserved: 2, delivered: 1 });
        await ctx.t.services.orders.moves.move(orderNo, { name: 'close', cancelRest: true }, 'BACK_OFFICE');
        expect(await level('S')).toEqual({ onHand: start.onHand - 1, reserved: start.reserved });
      } else {
        expect(counts).toEqual({
          'cancel:ok': 1,
          'cancel:ORDER_MOVE_NOT_ALLOWED': 1,
          'deliver:ORDER_MOVE_NOT_ALLOWED': 1,
        });
        expect(line).toEqual({ ordered: 3, cancelled: 3, reserved: 0, delivered: 0 });
        expect(await level('S')).toEqual(start);
      }
      expect(await ctx.t.services.stock.ledger.verifyLedger()).toEqual([]);
    },
    THREADS_TEST_TIMEOUT,
  );

  it(
    'concurrent receipts of one return count it once: stock back once, returned once',
    async () => {
      const placed = await ctx.t.call('POST', 'B2C_PostWebOrder', {
        token: ctx.client,
        body: webOrder(`CR-${++seq}`, [{ barcode: O100[1]!.barcode, quantity: 2 }]),
      });
      expect(placed.statusCode, placed.body).toBe(200);
      const orderNo = placed.json().B2CPOSTWEBORDER.ORDERNO as number;
      const moves = ctx.t.services.orders.moves;
      await moves.move(orderNo, { name: 'confirm' }, 'BACK_OFFICE');
      await moves.deliveries.deliver(orderNo);
      const authorised = await moves.returns.authorise({
        orderNo,
        party: { clientNo: CLIENT },
        // One of the two delivered: the counters alone (returned ≤ delivered) could not stop a second count.
        lines: [{ line: 1, quantity: 1 }],
        reason: 'test',
        pointer: '/RETURNREQUEST',
      });
      const start = await level('M');
      const { outcomes } = await inThreads(3, [{ call: 'receive', returnNo: authorised.returnNo }], {
        statement: 'update',
        table: 'order_return',
      });
      expect(tally(outcomes)).toEqual({ 'receive:ok': 1, 'receive:RETURN_NOT_AUTHORISED': 2 });
      expect(await level('M')).toEqual({ onHand: start.onHand + 1, reserved: start.reserved });
      const [line] = await ctx.t.database.db
        .selectFrom('sales_order_line')
        .select(['delivered', 'returned'])
        .where('order_no', '=', orderNo)
        .execute();
      expect(line).toEqual({ delivered: 2, returned: 1 });
      expect(await ctx.t.services.stock.ledger.verifyLedger()).toEqual([]);
    },
    THREADS_TEST_TIMEOUT,
  );
});
