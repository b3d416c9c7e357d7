import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../src/areas.ts';
import { sqlitePathFrom } from '../src/config.ts';
import { type Database, migrate, openDatabase } from '../src/kernel/db/database.ts';
import { currentScn } from '../src/kernel/db/unit-of-work.ts';
import { ENGINE, freshDatabaseUrl } from './helpers/test-app.ts';
import { runInThreads, tally } from './helpers/threads.ts';

/**
 * Two processes on one SQLite file, each running a read-then-write transaction (read the SCN
 * counter, then take the next SCN), with their reads lined up. A transaction opened with a plain
 * (deferred) BEGIN holds only a read snapshot until its first write; when both have read and one
 * writes, the other can no longer upgrade and fails at once with SQLITE_BUSY (no busy timeout helps).
 * The driver opens write transactions with BEGIN IMMEDIATE, so the second one waits at its BEGIN
 * instead, and both succeed.
 *
 * The line-up: each transaction, once it has read, waits until the other has read as well, or until
 * the other cannot read before this one commits (it has entered its transaction and the write lock is
 * held, which a third connection sees by failing a BEGIN IMMEDIATE without waiting). Each worker
 * stamps when it entered and when it finished; the test asserts that both entered before either
 * finished.
 */

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Sqlite = require('better-sqlite3');
(async () => {
  const { tsImport } = await import('tsx/esm/api');
  const { openDatabase } = await tsImport(workerData.databaseModule, workerData.databaseModule);
  const { currentScn, inWriteTransaction } = await tsImport(workerData.uowModule, workerData.uowModule);
  const shared = new Int32Array(workerData.shared);
  const [IDLE, ENTERED, READ, DONE] = [0, 1, 2, 3];
  const SEQ = 2, IDS = 3, ENTER_AT = 4, DONE_AT = 6;
  const me = Atomics.add(shared, IDS, 1);
  const other = 1 - me;
  const probe = new Sqlite(workerData.file, { timeout: 0 });
  const writeLockHeld = () => {
    try {
      probe.prepare('begin immediate').run();
    } catch (e) {
      if (e.code === 'SQLITE_BUSY') return true;
      throw e;
    }
    probe.prepare('rollback').run();
    return false;
  };
  // After this transaction has read: wait for the other's read, unless it cannot come before our commit.
  const lineUp = () => {
    Atomics.store(shared, me, READ);
    Atomics.notify(shared, me);
    for (;;) {
      const state = Atomics.load(shared, other);
      if (state === READ || state === DONE) return;
      if (state === ENTERED && writeLockHeld()) return;
      Atomics.wait(shared, other, state, 20);
    }
  };
  // A long busy timeout: the one waiting at BEGIN IMMEDIATE must not give up on a loaded machine.
  const database = workerData.manual ? undefined : openDatabase(workerData.url, { busyTimeoutMs: 60000 });
  const manual = workerData.manual ? new Sqlite(workerData.file, { timeout: 10000 }) : undefined;
  const transaction = async () => {
    if (manual) {
      // A deferred BEGIN by hand: what the driver did before BEGIN IMMEDIATE.
      manual.prepare('begin').run();
      try {
        manual.prepare('select value from scn_counter where id = 1').get();
        lineUp();
        manual.prepare('update scn_counter set value = value + 1 where id = 1').run();
        manual.prepare('commit').run();
      } catch (e) {
        if (manual.inTransaction) manual.prepare('rollback').run();
        throw e;
      }
      return;
    }
    await inWriteTransaction(database, async (uow) => {
      await currentScn(uow.db);
      lineUp();
      await uow.scn();
    });
  };
  parentPort.once('message', async () => {
    Atomics.store(shared, ENTER_AT + me, Atomics.add(shared, SEQ, 1) + 1);
    Atomics.store(shared, me, ENTERED);
    Atomics.notify(shared, me);
    let outcome = 'ok';
    try {
      await transaction();
    } catch (e) {
      outcome = e.code ?? String(e);
    }
    Atomics.store(shared, DONE_AT + me, Atomics.add(shared, SEQ, 1) + 1);
    Atomics.store(shared, me, DONE);
    Atomics.notify(shared, me);
    probe.close();
    manual?.close();
    await database?.close();
    parentPort.postMessage([outcome]);
  });
  parentPort.postMessage('ready');
})().catch((e) => parentPort.postMessage(['worker failed: ' + e.stack]));
`;

let url: string;
let drop: () => Promise<void>;
let database: Database;

beforeAll(async () => {
  if (ENGINE !== 'sqlite') return;
  ({ url, drop } = await freshDatabaseUrl());
  database = openDatabase(url);
  await migrate(database, MIGRATIONS);
});
afterAll(async () => {
  if (ENGINE !== 'sqlite') return;
  await database.close();
  await drop();
});

async function twoTransactions(manual: boolean) {
  const shared = new SharedArrayBuffer(8 * Int32Array.BYTES_PER_ELEMENT);
  const before = await currentScn(database.db);
  const { outcomes } = await runInThreads(WORKER, 2, {
    url,
    file: sqlitePathFrom(url),
    manual,
    shared,
    databaseModule: new URL('../src/kernel/db/database.ts', import.meta.url).href,
    uowModule: new URL('../src/kernel/db/unit-of-work.ts', import.meta.url).href,
  });
  const stamps = new Int32Array(shared);
  const entered = [stamps[4], stamps[5]] as number[];
  const done = [stamps[6], stamps[7]] as number[];
  return { outcomes, entered, done, advanced: (await currentScn(database.db)) - before };
}

describe.skipIf(ENGINE !== 'sqlite')('SQLite write transactions from two processes at once', () => {
  it('both succeed: the second waits at BEGIN IMMEDIATE instead of failing at its first write', async () => {
    const { outcomes, entered, done, advanced } = await twoTransactions(false);
    // They overlapped: both had entered their transaction before either had finished.
    expect(Math.max(...entered)).toBeLessThan(Math.min(...done));
    expect(tally(outcomes)).toEqual({ ok: 2 });
    expect(advanced).toBe(2);
  });

  it('with a deferred BEGIN the same line-up makes one of them fail with SQLITE_BUSY', async () => {
    // The control: the line-up does produce the read-to-write upgrade conflict it guards against.
    const { outcomes, entered, done, advanced } = await twoTransactions(true);
    expect(Math.max(...entered)).toBeLessThan(Math.min(...done));
    expect(outcomes).toContain('ok');
    expect(outcomes.filter((o) => o !== 'ok')).toEqual([expect.stringMatching(/^SQLITE_BUSY/)]);
    expect(advanced).toBe(1);
  });
});
