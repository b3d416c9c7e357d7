import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE, startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { runInThreads, THREADS_TEST_TIMEOUT, tally } from '../../../../test/helpers/threads.ts';

/**
 * No voucher is spent twice under concurrency: cashings from several threads, each with its own
 * database connections (on SQLite several connections to one file, as several processes would have;
 * on PostgreSQL several pools), all let go at once. Nothing in front of the debit serialises them
 * (the SCN is only stamped, not locked): the conditional UPDATE and the unique entry key are the
 * guards under test, and the CHECK on the balance is behind them.
 */

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const WORKER = `
const { parentPort, workerData, threadId } = require('node:worker_threads');
(async () => {
  const { tsImport } = await import('tsx/esm/api');
  const { openDatabase } = await tsImport(workerData.databaseModule, workerData.databaseModule);
  const { VoucherService } = await tsImport(workerData.serviceModule, workerData.serviceModule);
  const database = openDatabase(workerData.url, { poolSize: workerData.callers });
  const vouchers = new VoucherService(database, workerData.config);
  const job = workerData.job;
  const once = (i) =>
    vouchers
      .cash(
        {
          code: job.code,
          amount: job.amount,
          currency: 'EUR',
          reference: job.sameReference ? 'ONE-CHECKOUT' : 'R-' + threadId + '-' + i,
        },
        { key: 'thread-' + threadId, ownClient: null },
      )
      .then((c) => (job.sameReference ? (c.created ? 'created' : 'replayed') : 'ok'));
  parentPort.once('message', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: workerData.callers }, (_, i) =>
        once(i).catch((e) => (e.kind === 'conflict' ? e.code : 'not a 409: ' + (e.code ?? e.message ?? e))),
      ),
    );
    await database.close();
    parentPort.postMessage(outcomes);
  });
  parentPort.postMessage('ready');
})().catch((e) => parentPort.postMessage(['worker failed: ' + e.stack]));
`;

interface Job {
  code: string;
  amount: number;
  sameReference?: boolean;
}

async function fromThreads(job: Job, threads: number, callers: number) {
  return runInThreads(WORKER, threads, {
    url: t.databaseUrl,
    job,
    callers,
    config: { voucherValidityDays: 1095, voucherCheckMaxFailures: 1000, voucherCheckWindowSeconds: 300 },
    databaseModule: new URL('../../../kernel/db/database.ts', import.meta.url).href,
    serviceModule: new URL('../voucher-service.ts', import.meta.url).href,
  });
}

async function giftVoucher(amount: number): Promise<string> {
  const { tender } = await t.services.tenders.vouchers.issue({
    kind: 'GIFT_VOUCHER',
    amount,
    currency: 'EUR',
    clientNo: null,
    email: null,
    webId: `GV-${Math.random().toString(36).slice(2)}`,
  });
  return tender.code;
}

async function ledgerOf(code: string) {
  const { tender, entries } = await t.services.tenders.admin.detail(code);
  return { balance: tender.balance, sum: entries.reduce((s, e) => s + e.amount, 0), entries };
}

describe(`concurrent cashings (${ENGINE})`, () => {
  it(
    'lets exactly 10 of 100 concurrent cashings of 10.00 take a voucher of 100.00, from 10 threads',
    async () => {
      const code = await giftVoucher(100_00);
      const { outcomes, ms } = await fromThreads({ code, amount: 10_00 }, 10, 10);
      console.log(
        `[tender-concurrency] ${ENGINE}, 100 cashings: ${JSON.stringify(tally(outcomes))} in ${ms.toFixed(0)} ms`,
      );
      expect(outcomes).toHaveLength(100);
      expect(tally(outcomes)).toEqual({ ok: 10, VOUCHER_BALANCE_INSUFFICIENT: 90 });
      const ledger = await ledgerOf(code);
      expect(ledger.balance).toBe(0);
      expect(ledger.sum).toBe(0);
      expect(ledger.entries.filter((e) => e.kind === 'REDEEM')).toHaveLength(10);
    },
    THREADS_TEST_TIMEOUT,
  );

  it(
    'Odoo PR 205057: two concurrent spends draining one balance: one is paid, the other refused',
    async () => {
      const code = await giftVoucher(100_00);
      const { outcomes } = await fromThreads({ code, amount: 60_00 }, 2, 1);
      expect(tally(outcomes)).toEqual({ ok: 1, VOUCHER_BALANCE_INSUFFICIENT: 1 });
      expect((await ledgerOf(code)).balance).toBe(40_00);
    },
    THREADS_TEST_TIMEOUT,
  );

  it(
    'Medusa PR 16347: one card redeemed in 30 concurrent checkouts of one order is debited once',
    async () => {
      const code = await giftVoucher(100_00);
      const { outcomes } = await fromThreads({ code, amount: 30_00, sameReference: true }, 6, 5);
      expect(tally(outcomes)).toEqual({ created: 1, replayed: 29 });
      const ledger = await ledgerOf(code);
      expect(ledger.balance).toBe(70_00);
      expect(ledger.entries.filter((e) => e.kind === 'REDEEM')).toHaveLength(1);
    },
    THREADS_TEST_TIMEOUT,
  );
});
