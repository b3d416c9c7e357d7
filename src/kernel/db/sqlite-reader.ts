import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { CompiledQuery, Kysely } from 'kysely';
import type { DB } from './schema.ts';
import { valueBlindSql } from './sqlite-driver.ts';

/**
 * Reads that run off the thread that serves HTTP (docs/architecture.md, "The reader thread";
 * decision 45).
 *
 * better-sqlite3 runs a statement on the calling thread: on SQLite every read is CPU of the one
 * thread that also parses requests and writes answers, while the machine's other core waits. A
 * reader is a worker thread with a connection of its own to the same file; the serving thread
 * hands it a statement and goes on with other requests until the rows come back. The read sees
 * what was committed when it ran, as any read outside a transaction does: a write answered
 * before the read was asked for is in it (WAL: a read transaction sees every commit that ended
 * before it began). Only reads outside any transaction belong here; a read inside a write
 * transaction must see the transaction's own changes and runs on the transaction.
 *
 * The statements asked for in one turn of the microtask queue go as one message, and come back as
 * one. Each SQL text goes along until the worker has answered a read of it, and is then named by
 * its number alone: the worker keeps it prepared.
 *
 * The thread starts at the first read asked of it. Until it has opened its connection, and after
 * it failed or ended, reads run on the serving connection (`fallback`): a read never fails because
 * the reader did. A statement the worker refuses (a write: its connection is query-only; an SQLite
 * error) is refused with the worker's error as an Error named SqliteError with the same code, as
 * the serving connection would have refused it.
 */
export interface Reader {
  /** The rows of a read-only statement, read outside any transaction. */
  rows<R>(query: CompiledQuery<R>): Promise<R[]>;
  /**
   * `rows` for a short read (a few index lookups): on SQLite it runs on the serving connection,
   * where handing it to the thread and back costs more than the read (decision 48); on PostgreSQL
   * it goes with the turn's other reads (pg-reader.ts).
   */
  shortRows<R>(query: CompiledQuery<R>): Promise<R[]>;
  /**
   * The answer `made` makes of the rows of `query`, made on the reader thread with the read: the
   * serving thread gets one string instead of the rows and the work of making an answer of them.
   * Undefined when it is not made there: no thread (PostgreSQL, SQLite in memory, the thread not
   * started or gone), the module not loaded there yet or not loadable, or `made` gave no text (it
   * gives none for an error answer). The caller then reads the rows and makes the answer itself,
   * with the same code: the thread only ever saves it work.
   */
  textOnThread(query: CompiledQuery<unknown>, made: MadeOnThread): Promise<string | undefined>;
  /** Whether reads go to the reader thread now (false: they run on the database's own connection). */
  onThread(): boolean;
  /** Starts the reader thread if no read has yet; settles once it can take reads (true) or cannot. */
  whenReady(): Promise<boolean>;
  /** Stops the worker (reads asked for later run on the serving connection). */
  close(): Promise<void>;
}

/**
 * Code the reader thread runs on a read's rows: the function `name` exported by the module at the
 * URL `module`, called as `name(rows, ...args)` with the rows as objects (one property per column)
 * and returning the answer's text, or undefined for none. The module runs in the reader thread, so
 * it imports no more than it needs (no database, no framework): a pure rule module and its like.
 */
export interface MadeOnThread {
  module: string;
  name: string;
  args: readonly unknown[];
}

/** A Reader that runs every read on the database's own connections (a transaction; SQLite in memory). */
export function directReader(db: Kysely<DB>): Reader {
  return readerWithoutThread(async (query) => (await db.executeQuery(query)).rows);
}

/** A Reader with no thread of its own: every read, short or not, is `rows` (PostgreSQL: pg-reader.ts). */
export function readerWithoutThread(rows: <R>(query: CompiledQuery<R>) => Promise<R[]>): Reader {
  return {
    rows,
    shortRows: rows,
    textOnThread: async () => undefined,
    onThread: () => false,
    whenReady: async () => false,
    close: async () => {},
  };
}

/** At most this many SQL texts are kept prepared in the worker; others run on the serving connection. */
export const READER_STATEMENTS_MAX = 256;

const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Sqlite = require(workerData.module);
const db = new Sqlite(workerData.path, { fileMustExist: true });
db.pragma('query_only = ON');
db.pragma('busy_timeout = ' + workerData.busyTimeoutMs);
if (workerData.mmapBytes > 0) db.pragma('mmap_size = ' + workerData.mmapBytes);
const statements = [];
const names = [];
// a module's URL: its exports once loaded, 'loading' or 'failed'
const modules = new Map();
const madeBy = (made) => {
  const loaded = modules.get(made[0]);
  if (loaded === undefined) {
    modules.set(made[0], 'loading');
    import(made[0]).then((exports) => modules.set(made[0], exports), () => modules.set(made[0], 'failed'));
    return undefined;
  }
  const f = typeof loaded === 'object' ? loaded[made[1]] : undefined;
  return typeof f === 'function' ? f : undefined;
};
parentPort.on('message', (batch) => {
  if (batch === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  // [id, statement number, SQL or null, parameters, made or null]...: answered as
  // [id, outcome, rows, text or error, column names or null]...: the outcome 0 the rows (as
  // arrays), 1 a text, 2 none (the serving thread makes the answer), 3 refused; the column names
  // with a statement's first answer
  const out = [];
  for (let i = 0; i < batch.length; i += 5) {
    const made = batch[i + 4];
    const f = made === null ? undefined : madeBy(made);
    if (made !== null && f === undefined) {
      out.push(batch[i], 2, null, null, null);
      continue;
    }
    let columns = null;
    let rows;
    try {
      if (batch[i + 2] !== null) {
        statements[batch[i + 1]] = undefined;
        const statement = db.prepare(batch[i + 2]);
        if (!statement.reader) {
          throw Object.assign(new Error('the reader thread runs statements that return rows only'), {
            code: 'SQLITE_READONLY',
          });
        }
        statement.raw(true);
        statements[batch[i + 1]] = statement;
        names[batch[i + 1]] = columns = statement.columns().map((c) => c.name);
      }
      rows = statements[batch[i + 1]].all(batch[i + 3]);
    } catch (error) {
      out.push(batch[i], 3, null, { message: String(error && error.message), code: error && error.code }, columns);
      continue;
    }
    if (f === undefined) {
      out.push(batch[i], 0, rows, null, columns);
      continue;
    }
    let text;
    try {
      const named = names[batch[i + 1]];
      const objects = rows.map((values) => {
        const row = {};
        for (let c = 0; c < named.length; c++) row[named[c]] = values[c];
        return row;
      });
      text = f(objects, ...made[2]);
    } catch {
      text = undefined;
    }
    out.push(batch[i], typeof text === 'string' ? 1 : 2, null, typeof text === 'string' ? text : null, columns);
  }
  parentPort.postMessage(out);
});
parentPort.postMessage('ready');
`;

export interface SqliteReaderOptions {
  /** The database file (opened in WAL mode by the serving connection). */
  path: string;
  /** Where reads run while the worker cannot take them: the serving connection. */
  fallback: Kysely<DB>;
  busyTimeoutMs?: number;
  /** The reader connection's mmap_size in bytes (0: none). */
  mmapBytes?: number;
}

interface Pending {
  query: CompiledQuery<unknown>;
  /** The statement's number in the worker. */
  number: number;
  /** Asked for a text (`textOnThread`): settled with undefined where the thread gives none. */
  text: boolean;
  resolve(answer: unknown): void;
  reject(error: unknown): void;
}

/**
 * The reader thread's heap: it holds prepared statements and one batch of rows at a time. A thread
 * that outgrew it ends, and its reads go back to the serving connection.
 */
const READER_LIMITS = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 64 };

/**
 * The reader for the SQLite file at `path`. Its thread starts at the first read asked of it (a
 * process that never asks pays nothing); that read, and every read until the thread has opened
 * its connection, runs on `fallback`.
 */
export function sqliteReader(options: SqliteReaderOptions): Reader {
  const fallback = directReader(options.fallback);
  const numbers = new Map<string, number>();
  /** The statements the worker has prepared: sent by number alone (until then with their text). */
  const prepared = new Set<number>();
  /** Each prepared statement's column names: the rows come as arrays (cheaper to pass between threads). */
  const columns: string[][] = [];
  const pending = new Map<number, Pending>();
  let worker: Worker | undefined;
  let state: 'idle' | 'starting' | 'ready' | 'gone' = 'idle';
  let settle: (ready: boolean) => void = () => {};
  const ready = new Promise<boolean>((resolve) => {
    settle = resolve;
  });
  let nextId = 0;
  let batch: unknown[] = [];
  let flushing = false;

  const flush = () => {
    flushing = false;
    const out = batch;
    batch = [];
    if (state === 'ready') worker?.postMessage(out);
    else for (let i = 0; i < out.length; i += 5) rerun(out[i] as number);
  };
  /** A read the worker will not answer, run again on the serving connection (a text: none). */
  const rerun = (id: number) => {
    const p = pending.get(id);
    if (p === undefined) return;
    settled(id);
    if (p.text) p.resolve(undefined);
    else fallback.rows(p.query).then(p.resolve, p.reject);
  };
  const settled = (id: number) => {
    pending.delete(id);
    if (pending.size === 0) worker?.unref();
  };
  const gone = () => {
    if (state === 'gone') return;
    state = 'gone';
    settle(false);
    for (const id of [...pending.keys()]) rerun(id);
  };
  const answered = (message: unknown) => {
    if (message === 'ready') {
      if (state === 'starting') {
        state = 'ready';
        settle(true);
      }
      return;
    }
    const answers = message as unknown[];
    for (let i = 0; i < answers.length; i += 5) {
      const p = pending.get(answers[i] as number);
      if (p === undefined) continue;
      settled(answers[i] as number);
      const names = answers[i + 4] as string[] | null;
      if (names !== null) {
        columns[p.number] = names;
        prepared.add(p.number);
      }
      switch (answers[i + 1]) {
        case ANSWERED_ROWS:
          p.resolve(asObjects(columns[p.number] ?? [], answers[i + 2] as unknown[][]));
          break;
        case ANSWERED_TEXT:
          p.resolve(answers[i + 3]);
          break;
        case ANSWERED_NONE:
          p.resolve(undefined);
          break;
        default:
          p.reject(sqliteError(answers[i + 3] as { message: string; code?: string }));
      }
    }
  };
  const start = () => {
    state = 'starting';
    const thread = new Worker(SOURCE, {
      eval: true,
      resourceLimits: READER_LIMITS,
      workerData: {
        module: createRequire(import.meta.url).resolve('better-sqlite3'),
        path: options.path,
        busyTimeoutMs: Math.trunc(options.busyTimeoutMs ?? 10_000),
        mmapBytes: Math.trunc(options.mmapBytes ?? 0),
      },
    });
    thread.unref();
    thread.on('message', answered);
    // An error ends the worker; what it had not answered runs on the serving connection.
    thread.on('error', gone);
    thread.on('exit', gone);
    worker = thread;
  };

  /** `query` sent to the worker with the turn's other reads; undefined where it cannot take it. */
  const ask = (query: CompiledQuery<unknown>, made: MadeOnThread | null): Promise<unknown> | undefined => {
    let number = numbers.get(query.sql);
    if (number === undefined) {
      if (numbers.size >= READER_STATEMENTS_MAX) return undefined;
      number = numbers.size;
      numbers.set(query.sql, number);
    }
    // the text goes along until a read of it was answered (a refused one is not kept prepared)
    const text = prepared.has(number) ? null : valueBlindSql(query.sql);
    const id = nextId++;
    if (pending.size === 0) worker?.ref();
    const answer = new Promise<unknown>((resolve, reject) => {
      pending.set(id, { query, number, text: made !== null, resolve, reject });
    });
    batch.push(
      id,
      number,
      text,
      query.parameters,
      made === null ? null : [made.module, made.name, made.args],
    );
    if (!flushing) {
      flushing = true;
      queueMicrotask(flush);
    }
    return answer;
  };

  return {
    rows<R>(query: CompiledQuery<R>): Promise<R[]> {
      if (state !== 'ready') {
        if (state === 'idle') start();
        return fallback.rows(query);
      }
      return (ask(query, null) as Promise<R[]> | undefined) ?? fallback.rows(query);
    },
    async textOnThread(query: CompiledQuery<unknown>, made: MadeOnThread): Promise<string | undefined> {
      if (state !== 'ready') {
        if (state === 'idle') start();
        return undefined;
      }
      return (await ask(query, made)) as string | undefined;
    },
    shortRows: fallback.rows,
    onThread: () => state === 'ready',
    whenReady() {
      if (state === 'idle') start();
      return ready;
    },
    async close() {
      const thread = worker;
      if (thread === undefined || state === 'gone') {
        // never started: no thread will come
        state = 'gone';
        settle(false);
        return;
      }
      const exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
      thread.postMessage('close');
      const timeout = setTimeout(() => void thread.terminate(), 5000);
      await exited;
      clearTimeout(timeout);
    },
  };
}

/** What the worker answered of a read (the worker's source above). */
const ANSWERED_ROWS = 0;
const ANSWERED_TEXT = 1;
const ANSWERED_NONE = 2;

/** Rows read as arrays, as the objects a statement's `all()` gives (one property per column, in order). */
function asObjects(names: readonly string[], rows: readonly unknown[][]): unknown[] {
  return rows.map((values) => {
    const row: Record<string, unknown> = {};
    for (let c = 0; c < names.length; c++) row[names[c] as string] = values[c];
    return row;
  });
}

/** The worker's refusal as the serving connection would have thrown it (unavailable.ts reads its code). */
function sqliteError(refusal: { message: string; code?: string }): Error {
  const error = new Error(refusal.message) as Error & { code?: string };
  error.name = 'SqliteError';
  if (refusal.code !== undefined) error.code = refusal.code;
  return error;
}
