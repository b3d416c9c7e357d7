import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE, startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import {
  expectAllInFlightAtOnce,
  PAUSED_CALL,
  type PausedOutcome,
  runInThreads,
  THREADS_TEST_TIMEOUT,
  tally,
} from '../../../../test/helpers/threads.ts';

/**
 * A burst of requests with one Idempotency-Key, from separate connections (worker threads with
 * their own database handles), lined up at a barrier in front of the claim's INSERT: every request
 * has looked before any of them claims, so only the claim itself (INSERT ... ON CONFLICT DO
 * NOTHING, whose row count says who won) can keep the handler from running more than once.
 */

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
${PAUSED_CALL}
(async () => {
  (await import('tsx/esm/api')).register();
  const { openDatabase } = await import(workerData.databaseModule);
  const { IdempotencyService } = await import(workerData.serviceModule);
  const { ThreadSync, pauseBefore } = await import(workerData.syncModule);
  const sync = new ThreadSync(workerData.sync, workerData.parties);
  const paused = pauseBefore(openDatabase(workerData.url, { poolSize: 2 }), 'insert', 'idempotency_key', sync);
  const idempotency = new IdempotencyService(paused.database);
  const { userId, key, hash } = workerData;
  // What the server does around a handler: claim, run (here: say so), keep the answer.
  const request = async () => {
    const claim = await idempotency.claim(userId, key, hash);
    if (claim.kind === 'replay') return 'replayed';
    await idempotency.finish(userId, key, claim.claimId, 200, 'application/json', '{"ran":true}');
    return 'ran';
  };
  parentPort.once('message', async () => {
    const result = await pausedCall(paused, sync, request);
    await paused.database.close();
    parentPort.postMessage([result]);
  });
  parentPort.postMessage('ready');
})().catch((e) => parentPort.postMessage(['worker failed: ' + e.stack]));
`;

describe(`a burst of one Idempotency-Key on separate connections (${ENGINE})`, () => {
  it(
    'runs the handler once: 4 requests that all looked before any claimed',
    async () => {
      const { outcomes } = await runInThreads<PausedOutcome>(WORKER, 4, {
        url: t.databaseUrl,
        userId: 42,
        key: 'burst-1',
        hash: 'a'.repeat(64),
        databaseModule: new URL('../../../kernel/db/database.ts', import.meta.url).href,
        serviceModule: new URL('../idempotency-service.ts', import.meta.url).href,
      });
      const counts = tally(outcomes.map((o) => o.outcome));
      expect(counts.ran, JSON.stringify(counts)).toBe(1);
      for (const o of Object.keys(counts)) expect(['ran', 'replayed', 'IDEMPOTENCY_KEY_IN_USE']).toContain(o);
      expectAllInFlightAtOnce(outcomes);
      const stored = await t.database.db
        .selectFrom('idempotency_key')
        .select(['state', 'response_body'])
        .where('user_id', '=', 42)
        .where('idempotency_key', '=', 'burst-1')
        .execute();
      expect(stored).toEqual([{ state: 'done', response_body: '{"ran":true}' }]);
    },
    THREADS_TEST_TIMEOUT,
  );
});
