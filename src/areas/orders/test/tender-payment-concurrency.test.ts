import { describe, expect, it } from 'vitest';
import { ENGINE } from '../../../../test/helpers/test-app.ts';
import { runInThreads, THREADS_TEST_TIMEOUT, tally } from '../../../../test/helpers/threads.ts';
import { CLIENT, O100, orderContext, webOrder } from './order-context.ts';

/**
 * Web orders racing for one voucher's value (docs/orders.md, "Paying with tenders"; issue 13): the
 * callers run in worker threads, each with its own database handle (on SQLite its own connection to
 * the file, as another process would have; on PostgreSQL its own pool), all let go at once. The
 * voucher pays exactly as many orders as it holds value for; every other order is refused whole
 * (no order, no reservation), and the ledger adds up.
 */
const ctx = orderContext();

const modules = {
  databaseModule: new URL('../../../kernel/db/database.ts', import.meta.url).href,
  configModule: new URL('../../../config.ts', import.meta.url).href,
  servicesModule: new URL('../../../services.ts', import.meta.url).href,
  rulesModule: new URL('../placement-rules.ts', import.meta.url).href,
};

/** Each thread places `workerData.orders` web orders at once ('*' in WEBORDER: the thread and caller). */
const WORKER = `
const { parentPort, workerData, threadId } = require('node:worker_threads');
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
          .then(() => 'placed', (e) => (e && e.kind && e.code ? e.kind + ' ' + e.code : 'error ' + String(e && e.stack || e))),
      ),
    );
    await database.close();
    parentPort.postMessage(outcomes);
  });
  parentPort.postMessage('ready');
})().catch((e) => parentPort.postMessage(['worker failed: ' + e.stack]));
`;

const REFUSALS = ['conflict VOUCHER_BALANCE_INSUFFICIENT', 'conflict VOUCHER_NOT_USABLE'];

describe(`web orders racing for one voucher, Odoo PR 205057 through orders (${ENGINE})`, () => {
  const THREADS = 4;
  const EACH = 10;
  const PAYS = 10;

  it(
    `a voucher of ${PAYS} × 10.00 pays exactly ${PAYS} of ${THREADS * EACH} concurrent orders; the others place nothing`,
    async () => {
      const issued = await ctx.t.services.tenders.vouchers.issue({
        kind: 'GIFT_VOUCHER',
        amount: PAYS * 1000,
        currency: 'EUR',
        clientNo: null,
        email: null,
        webId: 'RACE-VOUCHER',
      });
      const code = issued.tender.code;
      const { sizex, barcode } = O100[1]!;
      // Stock for every order: only the voucher limits them.
      await ctx.t.services.stock.ledger.receive({
        locationCode: 'WH',
        articleNo: 'O100-010',
        sizex,
        quantity: THREADS * EACH,
      });
      const before = await ctx.t.services.stock.ledger.level({
        locationCode: 'WH',
        articleNo: 'O100-010',
        sizex,
      });
      const { outcomes, ms } = await runInThreads(WORKER, THREADS, {
        ...modules,
        url: ctx.t.databaseUrl,
        client: CLIENT,
        orders: EACH,
        body: webOrder('VRACE-*', [{ barcode, quantity: 1 }], {
          TENDERS: [{ TYPE: 'VOUCHER', CODE: code, AMOUNT: '10.00' }],
        }),
      });
      const kinds = tally(outcomes);
      console.log(
        `[tender-payment-concurrency] ${ENGINE}, ${THREADS} x ${EACH}: ${JSON.stringify(kinds)} in ${ms.toFixed(0)} ms`,
      );
      // A refusal is the debit's (the balance ran short in the transaction) or, once the voucher is
      // spent, the check's before it (a spent voucher is a code that cannot be used).
      const { placed, ...refused } = kinds;
      expect(placed).toBe(PAYS);
      expect(Object.keys(refused).every((k) => REFUSALS.includes(k))).toBe(true);
      expect(Object.values(refused).reduce((a, b) => a + b, 0)).toBe(THREADS * EACH - PAYS);

      const db = ctx.t.database.db;
      const tender = await db
        .selectFrom('tender')
        .selectAll()
        .where('code', '=', code)
        .executeTakeFirstOrThrow();
      expect(Number(tender.balance)).toBe(0);
      const redeemed = await db
        .selectFrom('tender_entry')
        .select(['amount', 'reference'])
        .where('tender_id', '=', tender.id)
        .where('kind', '=', 'REDEEM')
        .execute();
      expect(redeemed).toHaveLength(PAYS);
      expect(redeemed.every((e) => Number(e.amount) === -1000)).toBe(true);
      // One order per debit, and each debit names its order.
      const orders = await db
        .selectFrom('sales_order')
        .select(['order_no', 'tenders_paid'])
        .where('weborder', 'like', 'VRACE-%')
        .execute();
      expect(orders).toHaveLength(PAYS);
      expect(new Set(redeemed.map((e) => e.reference))).toEqual(
        new Set(orders.map((o) => `ORDER ${o.order_no}`)),
      );
      const paid = await db
        .selectFrom('order_tender')
        .select('amount')
        .where(
          'order_no',
          'in',
          orders.map((o) => Number(o.order_no)),
        )
        .execute();
      expect(paid.map((p) => Number(p.amount))).toEqual(Array.from({ length: PAYS }, () => 1000));
      const after = await ctx.t.services.stock.ledger.level({
        locationCode: 'WH',
        articleNo: 'O100-010',
        sizex,
      });
      expect(after.reserved - before.reserved).toBe(PAYS);
      expect(await ctx.t.services.stock.ledger.verifyLedger()).toEqual([]);
    },
    THREADS_TEST_TIMEOUT,
  );
});
