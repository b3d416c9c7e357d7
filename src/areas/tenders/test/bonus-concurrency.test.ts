import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE, startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { runInThreads, THREADS_TEST_TIMEOUT, tally } from '../../../../test/helpers/threads.ts';

/**
 * N concurrent bonus card updates lose none: from several threads with their own connections, all
 * let go at once, on a card that does not exist yet (so they also race to create it).
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
  const { BonusCardService } = await tsImport(workerData.serviceModule, workerData.serviceModule);
  const database = openDatabase(workerData.url, { poolSize: workerData.callers });
  const bonus = new BonusCardService(database);
  const once = (i) =>
    bonus
      .update({ cardNo: workerData.cardNo, delta: workerData.delta, day: '2026-11-26', reference: 'W-' + threadId + '-' + i, clientNo: null })
      .then((u) => (u.created ? 'ok' : 'replayed'));
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

const fromThreads = (cardNo: number, delta: number, threads: number, callers: number) =>
  runInThreads(WORKER, threads, {
    url: t.databaseUrl,
    cardNo,
    delta,
    callers,
    databaseModule: new URL('../../../kernel/db/database.ts', import.meta.url).href,
    serviceModule: new URL('../bonus-card-service.ts', import.meta.url).href,
  });

describe(`concurrent bonus card updates (${ENGINE})`, () => {
  it(
    'adds 50 concurrent updates of +1.00 to a new card from 5 threads: 50.00, and history = value',
    async () => {
      const { outcomes, ms } = await fromThreads(7_000_001, 100, 5, 10);
      console.log(
        `[bonus-concurrency] ${ENGINE}, 50 updates: ${JSON.stringify(tally(outcomes))} in ${ms.toFixed(0)} ms`,
      );
      expect(tally(outcomes)).toEqual({ ok: 50 });
      const card = await t.services.tenders.bonus.card(7_000_001);
      expect(card.balance).toBe(5_000);
      const { value, entries } = await t.services.tenders.bonus.history(card, 1, 1000);
      expect(value).toBe(5_000);
      expect(entries).toHaveLength(50);
      expect(entries.reduce((s, e) => s + e.amount, 0)).toBe(5_000);
      // Each entry's value-after is one of 1.00 .. 50.00, each once: no update saw a stale value.
      expect(entries.map((e) => e.balance_after).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 50 }, (_, i) => (i + 1) * 100),
      );
    },
    THREADS_TEST_TIMEOUT,
  );

  it(
    'lets 30 concurrent spendings of 1.00 take exactly 20.00 off a card of 20.00',
    async () => {
      await t.services.tenders.bonus.update({
        cardNo: 7_000_002,
        delta: 2_000,
        day: '2026-11-26',
        reference: 'EARN',
        clientNo: null,
      });
      const { outcomes } = await fromThreads(7_000_002, -100, 3, 10);
      expect(tally(outcomes)).toEqual({ ok: 20, BONUS_VALUE_REFUSED: 10 });
      expect((await t.services.tenders.bonus.card(7_000_002)).balance).toBe(0);
    },
    THREADS_TEST_TIMEOUT,
  );
});
