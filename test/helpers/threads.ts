import { Worker } from 'node:worker_threads';
import { expect } from 'vitest';

/**
 * Runs `source` (an ES module text) in `threads` worker threads, each with its own database
 * connection, waits until every one says 'ready', lets them all go at once and gathers the outcome
 * strings they post back. A worker reports a failure as the outcome `worker failed: ...`.
 */
export async function runInThreads(source: string, threads: number, workerData: Record<string, unknown>) {
  const workers = Array.from({ length: threads }, () => new Worker(source, { eval: true, workerData }));
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
  const outcomes = (await Promise.all(messages.map((next) => next()))).flat() as string[];
  const ms = performance.now() - started;
  await Promise.all(workers.map((w) => w.terminate()));
  return { outcomes, ms };
}

export function tally(outcomes: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) counts[o] = (counts[o] ?? 0) + 1;
  return counts;
}
