import { describe, expect, it } from 'vitest';
import { ENGINE } from '../../../../test/helpers/test-app.ts';
import { runInThreads, THREADS_TEST_TIMEOUT } from '../../../../test/helpers/threads.ts';
import { BELGIAN_CUSTOMER, billingContext, deliver, placeOrder } from './billing-context.ts';

/**
 * B2B_GetInvoiceHistory read while invoices are issued from worker threads (each its own
 * connection or pool): every document comes exactly once, none is missed or repeated, also on
 * PostgreSQL where an issuer's SCN (its transaction id) may be below one that committed before it.
 */

const ctx = billingContext();

const WORKER = `
const { parentPort, workerData, threadId } = require('node:worker_threads');
(async () => {
  (await import('tsx/esm/api')).register();
  const load = (m) => import(m);
  const { openDatabase } = await load(workerData.databaseModule);
  const { loadConfig } = await load(workerData.configModule);
  const { createServices } = await load(workerData.servicesModule);
  const config = loadConfig({}, { databaseUrl: workerData.url, demo: false });
  const database = openDatabase(workerData.url, { poolSize: 4 });
  const services = createServices(config, database);
  const mine = workerData.deliveries.filter((_, i) => i % workerData.parties === (threadId - 1) % workerData.parties);
  parentPort.once('message', async () => {
    const outcomes = await Promise.all(
      mine.map((d) =>
        services.billing.issuing.issueInvoice(workerData.customer, [d]).then(
          (o) => o.number,
          (e) => 'error ' + String((e && e.stack) || e),
        ),
      ),
    );
    await database.close();
    parentPort.postMessage(outcomes);
  });
  parentPort.postMessage('ready');
})().catch((e) => parentPort.postMessage(['worker failed: ' + e.stack]));
`;

describe(`the invoice history feed under concurrent issuers (${ENGINE})`, () => {
  it(
    'gives each of 40 invoices issued from 4 threads exactly once to a reader paging while they commit',
    async () => {
      const orderNo = await placeOrder(ctx, BELGIAN_CUSTOMER, [[0, 40]]);
      const deliveries: number[] = [];
      for (let i = 0; i < 40; i++) deliveries.push(await deliver(ctx, orderNo, [[1, 1]]));
      const seen: string[] = [];
      let scn = '0';
      let offset = '1';
      const page = async () => {
        const res = await ctx.t.call('GET', 'B2B_GetInvoiceHistory', {
          token: ctx.b2b,
          query: { strcustomer: String(BELGIAN_CUSTOMER), strscn: scn, stroffset: offset, strlimit: '3' },
        });
        expect(res.statusCode, res.body).toBe(200);
        const p = res.json().B2BGETINVOICEHISTORY;
        seen.push(...p.DOCUMENTS.map((d: { NUMBER: string }) => d.NUMBER));
        scn = String(p.SCN);
        offset = String(p.NEXTOFFSET ?? 1);
        return p.NEXTOFFSET as number | null;
      };
      let done = false;
      const issuing = runInThreads(WORKER, 4, {
        databaseModule: new URL('../../../kernel/db/database.ts', import.meta.url).href,
        configModule: new URL('../../../config.ts', import.meta.url).href,
        servicesModule: new URL('../../../services.ts', import.meta.url).href,
        url: ctx.t.databaseUrl,
        customer: BELGIAN_CUSTOMER,
        deliveries,
      }).finally(() => {
        done = true;
      });
      let reads = 0;
      while (!done) {
        await page();
        reads += 1;
        // Let the event loop take the workers' messages (SQLite answers without any I/O wait).
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      const { outcomes } = await issuing;
      // Drain what committed after the last read.
      while ((await page()) !== null);
      expect(outcomes.filter((o) => !o.startsWith('INV-'))).toEqual([]);
      expect(seen.length).toBe(40);
      expect([...seen].sort()).toEqual([...outcomes].sort());
      console.log(`[billing-history-feed] ${ENGINE}: ${reads} pages read while 40 invoices were issued`);
    },
    THREADS_TEST_TIMEOUT,
  );
});
