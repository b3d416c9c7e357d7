import { describe, expect, it } from 'vitest';
import { ENGINE } from '../../../../test/helpers/test-app.ts';
import { runInThreads, THREADS_TEST_TIMEOUT } from '../../../../test/helpers/threads.ts';
import { BELGIAN_CUSTOMER, billingContext, deliver, placeOrder } from './billing-context.ts';

/**
 * The credit run under concurrency (docs/billing-issuing.md, "Credit notes from returns and
 * cancellations"): runs in worker threads, each thread with its own database handle (on SQLite
 * its own connection to the file, on PostgreSQL its own pool), all let go at once, while invoices
 * are issued for the same customer. Each piece owed is credited once; the credit note numbers
 * are exactly 1..200.
 */

const ctx = billingContext();

const modules = {
  databaseModule: new URL('../../../kernel/db/database.ts', import.meta.url).href,
  configModule: new URL('../../../config.ts', import.meta.url).href,
  servicesModule: new URL('../../../services.ts', import.meta.url).href,
};

/**
 * Each thread runs its share of `workerData.calls` at once: ['customer', customerNo] (the credit
 * run of one customer), ['all'] (the credit run of every customer) or ['invoice', customerNo];
 * the outcome of a run is the credit note numbers it issued, joined by spaces.
 */
const WORKER = `
const { parentPort, workerData, threadId } = require('node:worker_threads');
(async () => {
  (await import('tsx/esm/api')).register();
  const load = (m) => import(m);
  const { openDatabase } = await load(workerData.databaseModule);
  const { loadConfig } = await load(workerData.configModule);
  const { createServices } = await load(workerData.servicesModule);
  const config = loadConfig({}, { databaseUrl: workerData.url, demo: false });
  const database = openDatabase(workerData.url, { poolSize: 5 });
  const services = createServices(config, database);
  const credits = services.billing.credits;
  const mine = workerData.calls.filter((_, i) => i % workerData.parties === (threadId - 1) % workerData.parties);
  parentPort.once('message', async () => {
    const outcomes = await Promise.all(
      mine.map(([kind, customerNo]) => {
        const issued = [];
        const work =
          kind === 'customer'
            ? credits.issueOwed(customerNo).then((d) => d.map((i) => i.number).join(' '))
            : kind === 'all'
              ? credits
                  .issueAllOwed({ creditCustomers: 0, creditNotes: 0, failed: 0, failures: [] }, undefined, (i) => issued.push(i.number))
                  .then((r) => (r.failed ? 'failed ' + r.failures.join('; ') : issued.join(' ')))
              : services.billing.issuing.issueInvoice(customerNo).then(() => '', (e) => (e && e.code === 'NOTHING_TO_INVOICE' ? '' : Promise.reject(e)));
        return work.catch((e) => 'error ' + String((e && e.stack) || e));
      }),
    );
    await database.close();
    parentPort.postMessage(outcomes);
  });
  parentPort.postMessage('ready');
})().catch((e) => parentPort.postMessage(['worker failed: ' + e.stack]));
`;

const THREADS = 4;
const seqOf = (number: string) => Number(number.slice(-6));

describe(`the credit run at once from separate connections (${ENGINE})`, () => {
  it(
    '200 credit notes owed, eight runs at once: each piece credited once, the numbers exactly 1..200',
    async () => {
      // 200 deliveries of one piece, each invoiced on its own: 200 invoices.
      const orderNo = await placeOrder(ctx, BELGIAN_CUSTOMER, [[0, 200]]);
      const deliveries: number[] = [];
      for (let i = 0; i < 200; i++) deliveries.push(await deliver(ctx, orderNo, [[1, 1]]));
      const issuing = ctx.t.services.billing.issuing;
      for (const d of deliveries) await issuing.issueInvoice(BELGIAN_CUSTOMER, [d]);
      // Every second delivery cancelled, and the other 100 pieces returned: each invoice owes its piece.
      const moves = ctx.t.services.orders.moves;
      for (const d of deliveries.filter((_, i) => i % 2 === 0)) await moves.deliveries.cancel(d);
      const authorised = await moves.returns.authorise({
        orderNo,
        party: { customerNo: BELGIAN_CUSTOMER },
        lines: [{ line: 1, quantity: 100 }],
        reason: 'test',
        pointer: '',
      });
      await moves.returns.receive(authorised.returnNo);

      const calls = [
        ...Array.from({ length: 5 }, () => ['customer', BELGIAN_CUSTOMER]),
        ...Array.from({ length: 3 }, () => ['all']),
        ...Array.from({ length: 4 }, () => ['invoice', BELGIAN_CUSTOMER]),
      ];
      const { outcomes, ms } = await runInThreads(WORKER, THREADS, {
        ...modules,
        url: ctx.t.databaseUrl,
        calls,
      });
      console.log(
        `[credit-run-concurrency] ${ENGINE}: 8 credit runs and 4 invoices from ${THREADS} threads in ${ms.toFixed(0)} ms`,
      );
      expect(outcomes.filter((o) => o.startsWith('error') || o.startsWith('failed'))).toEqual([]);
      const numbers = outcomes.flatMap((o) => o.split(' ').filter((n) => n.startsWith('CN-')));
      expect(numbers.map(seqOf).sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));

      // Every invoice credited its one piece, once; nothing invoiced again.
      const credited = await ctx.t.database.db
        .selectFrom('billing_credit_line as cl')
        .innerJoin('billing_invoice_line as il', (j) =>
          j.onRef('il.document_id', '=', 'cl.invoice_id').onRef('il.line_no', '=', 'cl.invoice_line_no'),
        )
        .select(['il.delivery_no', 'cl.quantity', 'cl.reason'])
        .orderBy('il.delivery_no')
        .execute();
      expect(credited.map((c) => Number(c.delivery_no))).toEqual(deliveries);
      expect(credited.every((c) => c.quantity === 1)).toBe(true);
      expect(credited.filter((c) => c.reason?.endsWith('CANCELLED')).length).toBe(100);
      expect(credited.filter((c) => c.reason === `RETURN ${authorised.returnNo}`).length).toBe(100);
      const series = await ctx.t.database.db
        .selectFrom('billing_series')
        .selectAll()
        .orderBy('doc_type')
        .execute();
      expect(series.map((s) => [s.doc_type, Number(s.last_number)])).toEqual([
        ['CREDIT_NOTE', 200],
        ['INVOICE', 200],
      ]);
      // And a run after them finds nothing owed.
      expect(await ctx.t.services.billing.credits.issueOwed(BELGIAN_CUSTOMER)).toEqual([]);
    },
    THREADS_TEST_TIMEOUT,
  );
});
