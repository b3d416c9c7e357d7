import { Worker } from 'node:worker_threads';
import { expect } from 'vitest';
import { syncBuffer } from './thread-sync.ts';

/**
 * Runs `source` (an ES module text) in `threads` worker threads, each with its own database
 * connection, waits until every one says 'ready', lets them all go at once and gathers the outcomes
 * they post back (each posts an array; they are concatenated). A worker reports a failure as the
 * outcome `worker failed: ...`.
 *
 * Every worker also gets `workerData.sync` (a SharedArrayBuffer), `workerData.parties` (= threads)
 * and `workerData.syncModule` (thread-sync.ts, to load with tsImport): `new ThreadSync(sync,
 * parties)` gives a barrier across the threads and a shared clock, `pauseBefore` lines them up in
 * front of a guarded statement, `withoutScnLock` takes the SCN lock away from in front of it.
 */
export async function runInThreads<T = string>(
  source: string,
  threads: number,
  workerData: Record<string, unknown>,
) {
  const data = {
    ...workerData,
    sync: syncBuffer(),
    parties: threads,
    syncModule: new URL('./thread-sync.ts', import.meta.url).href,
  };
  const workers = Array.from({ length: threads }, () => new Worker(source, { eval: true, workerData: data }));
  const messages = workers.map((w) => {
    const queue: unknown[] = [];
    let wake: (() => void) | undefined;
    w.on('message', (m) => {
      queue.push(m);
      wake?.();
    });
    w.on('error', (e) => {
      queue.push([`worker error: ${e.message}`]);
      wake?.();
    });
    return async () => {
      while (queue.length === 0) await new Promise<void>((r) => (wake = r));
      return queue.shift();
    };
  });
  for (const next of messages) expect(await next()).toBe('ready');
  const started = performance.now();
  for (const w of workers) w.postMessage('go');
  const outcomes = (await Promise.all(messages.map((next) => next()))).flat() as T[];
  const ms = performance.now() - started;
  await Promise.all(workers.map((w) => w.terminate()));
  return { outcomes, ms };
}

export function tally(outcomes: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) counts[o] = (counts[o] ?? 0) + 1;
  return counts;
}

/** What a caller lined up by pauseBefore reports: its outcome and its ticks of the shared clock. */
export interface PausedOutcome {
  outcome: string;
  /** When it reached the guarded statement (undefined: it never did). */
  arrived?: number;
  /** When its call had finished. */
  done: number;
}

/**
 * The callers overlapped: every one reached the guarded statement before any of them had finished,
 * so at one moment all of them were between their reads and their write.
 */
export function expectAllInFlightAtOnce(results: PausedOutcome[]): void {
  const arrivals = results.map((r) => r.arrived);
  expect(arrivals, 'every caller reached the guarded statement').not.toContain(undefined);
  const lastArrival = Math.max(...(arrivals as number[]));
  const firstDone = Math.min(...results.map((r) => r.done));
  expect(lastArrival, 'the last caller arrived before the first one finished').toBeLessThan(firstDone);
}

/** The worker's lines that run a call lined up by pauseBefore and post a PausedOutcome. */
export const PAUSED_CALL = `
async function pausedCall(paused, sync, call) {
  const outcome = await call().then((r) => (typeof r === 'string' ? r : 'ok'), (e) => e.code ?? String(e));
  return { outcome, arrived: paused.arrivedAt(), done: sync.tick() };
}
`;

/**
 * The time limit of a test that starts worker threads: each loads the TypeScript it runs through
 * tsx, several seconds apiece on a busy 2-core machine; the work itself is small.
 */
export const THREADS_TEST_TIMEOUT = 120_000;
