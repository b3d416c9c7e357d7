import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  Transaction,
  UnknownRow,
} from 'kysely';
import type { Database } from '../../src/kernel/db/database.ts';
import type { DB } from '../../src/kernel/db/schema.ts';
import { joinedDatabase } from '../../src/kernel/db/unit-of-work.ts';

/**
 * What worker threads started by runInThreads (threads.ts) share: a reusable barrier and a logical
 * clock in one SharedArrayBuffer, and the means to line callers up in front of a guarded statement.
 * Workers load this module with tsx's tsImport; the main thread only makes the buffer.
 */

const ARRIVED = 0;
const GENERATION = 1;
const CLOCK = 2;

export function syncBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT);
}

/** @public A barrier for `parties` threads and a clock whose ticks order events across them. */
export class ThreadSync {
  readonly #cells: Int32Array;
  readonly #parties: number;

  constructor(buffer: SharedArrayBuffer, parties: number) {
    this.#cells = new Int32Array(buffer);
    this.#parties = parties;
  }

  /** The next tick of the shared clock: a tick taken after another is greater. */
  tick(): number {
    return Atomics.add(this.#cells, CLOCK, 1) + 1;
  }

  /**
   * Waits (blocking the thread) until all parties have arrived; returns the tick of this arrival.
   * A party that does not come within `timeoutMs` fails the wait instead of hanging the test.
   */
  arrive(timeoutMs = 60_000): number {
    const cells = this.#cells;
    const generation = Atomics.load(cells, GENERATION);
    const at = this.tick();
    if (Atomics.add(cells, ARRIVED, 1) + 1 === this.#parties) {
      Atomics.store(cells, ARRIVED, 0);
      Atomics.add(cells, GENERATION, 1);
      Atomics.notify(cells, GENERATION);
      return at;
    }
    const deadline = Date.now() + timeoutMs;
    while (Atomics.load(cells, GENERATION) === generation) {
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(`barrier: ${Atomics.load(cells, ARRIVED)} of ${this.#parties} parties arrived`);
      }
      Atomics.wait(cells, GENERATION, generation, left);
    }
    return at;
  }
}

type Statement = 'insert' | 'update';

function tableOf(node: OperationNode | undefined): string | undefined {
  const n = node as
    | { kind: string; table?: { identifier?: { name?: string } }; node?: OperationNode }
    | undefined;
  if (n?.kind === 'TableNode') return n.table?.identifier?.name;
  if (n?.kind === 'AliasNode') return tableOf(n.node);
  return undefined;
}

function matches(node: RootOperationNode, statement: Statement, table: string): boolean {
  if (statement === 'insert' && node.kind === 'InsertQueryNode') return tableOf(node.into) === table;
  if (statement === 'update' && node.kind === 'UpdateQueryNode') return tableOf(node.table) === table;
  return false;
}

export interface Paused {
  /** The database whose next such statement waits at the barrier (once). */
  database: Database;
  /** The tick at which this thread reached the statement, once it has. */
  arrivedAt(): number | undefined;
}

/**
 * @public
 * A database whose first `statement` on `table` waits at the barrier until every thread has come
 * to its own: so whatever the callers read before that statement, all of them read it before any
 * of them writes. (The wait blocks the thread; nothing it holds is needed by the others, as long
 * as no lock is taken before the statement.)
 */
export function pauseBefore(
  database: Database,
  statement: Statement,
  table: string,
  sync: ThreadSync,
): Paused {
  let arrived: number | undefined;
  const plugin: KyselyPlugin = {
    transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
      if (arrived === undefined && matches(node, statement, table)) arrived = sync.arrive();
      return node;
    },
    transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      return Promise.resolve(result);
    },
  };
  return {
    database: { ...database, db: database.db.withPlugin(plugin) },
    arrivedAt: () => arrived,
  };
}

/**
 * @public
 * Runs `work` over a database its services' write transactions join, with a fixed SCN, so nothing
 * serialises the writers but the guard under test. On PostgreSQL: one transaction that never takes
 * the SCN counter's row lock. On SQLite, where BEGIN IMMEDIATE would serialise whole transactions,
 * no transaction at all: each statement commits on its own, as statements of writers on separate
 * connections whose reads are not in their write transaction.
 */
export function withoutScnLock<T>(database: Database, scn: number, work: (joined: Database) => Promise<T>) {
  const run = (db: Transaction<DB>) =>
    work(joinedDatabase(database, { db, scn: async () => scn, stamp: async () => scn }));
  if (database.engine === 'postgres') return database.db.transaction().execute(run);
  return run(database.db as unknown as Transaction<DB>);
}
