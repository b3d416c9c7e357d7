import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * WAL checkpoints off the request path (docs/architecture.md, "SQLite checkpoints"; decision 39).
 *
 * In WAL mode a commit appends the changed pages to the -wal file; a checkpoint copies them back
 * into the database file and syncs it. By default the connection that commits runs the
 * checkpoint itself whenever the WAL passes 1,000 pages, inside that commit: on the one thread
 * that serves every request, while every other request waits. Placing a 5-line order touches
 * about 14 pages, so one order in 70 paid a checkpoint: a fifth of the placement's CPU time
 * (bench:orders' profile).
 *
 * Here a worker thread with a connection of its own runs a PASSIVE checkpoint every
 * `intervalMs`: it copies what it can without taking the write lock or waiting for readers, on the
 * machine's other core, and syncs there. The serving connection keeps an automatic checkpoint as
 * a backstop only, at `fallbackPages` (a WAL the worker could not keep up with, or a worker that
 * failed), so the WAL stays bounded whatever happens to the worker.
 */
export interface Checkpointer {
  /** Stops the worker after its current checkpoint and closes its connection. */
  close(): Promise<void>;
}

/** How often the worker checkpoints; a checkpoint with nothing to copy costs microseconds. */
export const CHECKPOINT_INTERVAL_MS = 100;
/** The serving connection's own automatic checkpoint, as a backstop (pages, 4 KiB each). */
export const FALLBACK_CHECKPOINT_PAGES = 20_000;

const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Sqlite = require(workerData.module);
const db = new Sqlite(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
db.pragma('synchronous = NORMAL');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
let stopped = false;
const tick = () => {
  if (stopped) return;
  try {
    checkpoint.get();
  } catch {
    // busy or an I/O error: the next tick tries again, and the serving connection's backstop
    // checkpoint still bounds the WAL
  }
};
const timer = setInterval(tick, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'close') return;
  stopped = true;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * Starts the checkpointing worker for the SQLite file at `path` (which the caller opened in WAL
 * mode). The worker opens its connection on its own thread; a `close` sent before that is kept
 * in its port until it reads it.
 */
export function startCheckpointer(path: string, intervalMs: number = CHECKPOINT_INTERVAL_MS): Checkpointer {
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(SOURCE, { eval: true, workerData: { module, path, intervalMs } });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  // An error in the worker ends it; the serving connection's backstop checkpoint takes over.
  worker.on('error', () => {});
  worker.unref();
  let closing: Promise<void> | undefined;
  return {
    close() {
      closing ??= (async () => {
        worker.postMessage('close');
        const timeout = setTimeout(() => void worker.terminate(), 5000);
        await exited;
        clearTimeout(timeout);
      })();
      return closing;
    },
  };
}
