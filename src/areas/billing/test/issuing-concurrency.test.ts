import { describe, expect, it } from 'vitest';
import { ENGINE } from '../../../../test/helpers/test-app.ts';
import { runInThreads, THREADS_TEST_TIMEOUT, tally } from '../../../../test/helpers/threads.ts';
import {
  BELGIAN_CUSTOMER,
  billingContext,
  CUSTOMER,
  deliver,
  delivered,
  placeOrder,
} from './billing-context.ts';

/**
 * Issuing under concurrency (docs/billing-issuing.md, "Numbering"): callers in worker threads, each
 * thread with its own database handle (on SQLite its own connection to the file, as another
 * process would have; on PostgreSQL its own pool), all let go at once.
 *
 * - 200 invoices at once get exactly the numbers 1..200 of their series;
 * - many invoices at once for one customer take each delivery line once;
 * - many credit notes at once for one invoice line never give back more than was invoiced.
 */

const ctx = billingContext();

const modules = {
  databaseModule: new URL('../../../kernel/db/database.ts', import.meta.url).href,
  configModule: new URL('../../../config.ts', import.meta.url).href,
  servicesModule: new URL('../../../services.ts', import.meta.url).href,
};

/**
 * Each thread runs its share of `workerData.calls` at once: ['invoice', customer, deliveries?] or
 * ['credit', invoiceNumber, lines?]; outcomes are the document number or the refusal's code.
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
  const mine = workerData.calls.filter((_, i) => i % workerData.parties === (threadId - 1) % workerData.parties);
  parentPort.once('message', async () => {
    const outcomes = await Promise.all(
      mine.map(([kind, key, more]) =>
        (kind === 'invoice'
          ? services.billing.issuing.issueInvoice(key, more)
          : services.billing.issuing.issueCreditNote(key, more)
        ).then((d) => d.number, (e) => (e && e.code ? 'refused ' + e.code : 'error ' + String(e && e.stack || e))),
      ),
    );
    await database.close();
    parentPort.postMessage(outcomes);
  });
  parentPort.postMessage('ready');
})().catch((e) => parentPort.postMessage(['worker failed: ' + e.stack]));
`;

const THREADS = 4;
const seqOf = (number: string) => Number(number.slice(-6));

/** Numbers of a type as the series gave them, in order. */
async function numbersOf(type: 'INVOICE' | 'CREDIT_NOTE'): Promise<number[]> {
  const rows = await ctx.t.database.db
    .selectFrom('billing_document')
    .select('seq')
    .where('doc_type', '=', type)
    .orderBy('seq')
    .execute();
  return rows.map((r) => Number(r.seq));
}

describe(`issuing at once from separate connections (${ENGINE})`, () => {
  it(
    '200 invoices issued at once have exactly the numbers 1..200; the counter ends at 200',
    async () => {
      // One order of 200 pieces delivered one piece at a time: 200 deliveries, one invoice each.
      const orderNo = await placeOrder(ctx, BELGIAN_CUSTOMER, [[0, 200]]);
      const deliveries: number[] = [];
      for (let i = 0; i < 200; i++) deliveries.push(await deliver(ctx, orderNo, [[1, 1]]));
      const { outcomes, ms } = await runInThreads(WORKER, THREADS, {
        ...modules,
        url: ctx.t.databaseUrl,
        calls: deliveries.map((d) => ['invoice', BELGIAN_CUSTOMER, [d]]),
      });
      console.log(
        `[billing-concurrency] ${ENGINE}: 200 invoices from ${THREADS} threads in ${ms.toFixed(0)} ms`,
      );
      expect(outcomes.filter((o) => !o.startsWith('INV-'))).toEqual([]);
      expect(outcomes.map(seqOf).sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
      expect(await numbersOf('INVOICE')).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
      const series = await ctx.t.database.db.selectFrom('billing_series').selectAll().execute();
      expect(series.map((s) => [s.doc_type, Number(s.last_number)])).toEqual([['INVOICE', 200]]);
    },
    THREADS_TEST_TIMEOUT,
  );

  it(
    'invoices issued at once for one customer take each delivery line once: one invoice, the others NOTHING_TO_INVOICE',
    async () => {
      const before = await numbersOf('INVOICE');
      const made: Array<[number, number]> = [];
      for (let i = 0; i < 5; i++)
        made.push(
          await delivered(ctx, CUSTOMER, [
            [0, 1],
            [1, 2],
          ]),
        );
      const { outcomes } = await runInThreads(WORKER, THREADS, {
        ...modules,
        url: ctx.t.databaseUrl,
        calls: Array.from({ length: 24 }, () => ['invoice', CUSTOMER]),
      });
      const kinds = tally(outcomes.map((o) => (o.startsWith('INV-') ? 'issued' : o)));
      expect(kinds).toEqual({ issued: 1, 'refused NOTHING_TO_INVOICE': 23 });
      const lines = await ctx.t.database.db
        .selectFrom('billing_invoice_line')
        .select(['delivery_no', 'delivery_line_no', 'quantity'])
        .where(
          'delivery_no',
          'in',
          made.map(([, d]) => d),
        )
        .orderBy('delivery_no')
        .orderBy('delivery_line_no')
        .execute();
      expect(lines.map((l) => [Number(l.delivery_no), l.delivery_line_no, l.quantity])).toEqual(
        made.flatMap(([, d]) => [
          [d, 1, 1],
          [d, 2, 2],
        ]),
      );
      // Refusals used no number: the series goes on without a gap.
      expect(await numbersOf('INVOICE')).toEqual([...before, before.length + 1]);
    },
    THREADS_TEST_TIMEOUT,
  );

  it(
    'credit notes issued at once for one invoice line never give back more than was invoiced; their numbers have no gap',
    async () => {
      const [, deliveryNo] = await delivered(ctx, BELGIAN_CUSTOMER, [[2, 6]]);
      const invoice = await ctx.t.services.billing.issuing.issueInvoice(BELGIAN_CUSTOMER, [deliveryNo]);
      const { outcomes } = await runInThreads(WORKER, THREADS, {
        ...modules,
        url: ctx.t.databaseUrl,
        calls: Array.from({ length: 16 }, () => ['credit', invoice.number, [{ lineNo: 1, quantity: 1 }]]),
      });
      const kinds = tally(outcomes.map((o) => (o.startsWith('CN-') ? 'issued' : o)));
      expect(kinds).toEqual({ issued: 6, 'refused CREDIT_EXCEEDS_INVOICED': 10 });
      expect(await numbersOf('CREDIT_NOTE')).toEqual([1, 2, 3, 4, 5, 6]);
      const credited = await ctx.t.database.db
        .selectFrom('billing_credit_line')
        .select((eb) => eb.fn.sum<number>('quantity').as('n'))
        .where('invoice_id', '=', invoice.documentId)
        .executeTakeFirstOrThrow();
      expect(Number(credited.n)).toBe(6);
    },
    THREADS_TEST_TIMEOUT,
  );
});
