import type { Kysely, Transaction } from 'kysely';
import type { Database } from './database.ts';
import { GroupCommitter, sqliteUnitOfWork } from './group-commit.ts';
import { postgresWriteTransaction } from './pg-write-transaction.ts';
import type { DB } from './schema.ts';
import { afterWrite } from './statistics.ts';

/**
 * One write transaction, and the SCN its changed rows are stamped with (docs/architecture.md, "SCN").
 *
 * A reader takes `currentScn` before the rows it bounds and is sure no transaction with an SCN up
 * to it is still to commit. SQLite: BEGIN IMMEDIATE serialises writers and the SCN is the next value
 * of the single counter row, so SCNs are handed out in commit order (with group commit, the members
 * of a batch take consecutive SCNs and commit them at once: group-commit.ts). PostgreSQL: the SCN is the
 * transaction's id plus a base, taken without a lock, and readers take the horizon below the
 * transactions still running (scn-horizon.ts), so writers never queue on one row.
 */
export interface UnitOfWork {
  readonly db: Transaction<DB>;
  /**
   * The transaction's SCN (the same number on every call) and an order with every other caller of
   * `scn()`: the transaction is ordered after every writer that called it before and before every
   * writer that calls it later (on PostgreSQL the counter row's lock, held until the transaction
   * ends). For work whose check-then-act relies on that order (what it read is what it changes).
   */
  scn(): Promise<number>;
  /**
   * The number to stamp changed rows with, for work whose correctness rests on guarded statements
   * (conditional updates, unique keys, row locks) rather than on writer order: the same number as
   * `scn()`, without its order, so on PostgreSQL such writers run and commit side by side. On
   * SQLite, where BEGIN IMMEDIATE serialises writers anyway, it is `scn()`.
   */
  stamp(): Promise<number>;
}

export { changeToken, currentScn, neverWritten, nextScn } from './scn-counter.ts';

/** Databases bound to an open write transaction (joinedDatabase): their work joins it. */
const joined = new WeakMap<Database, UnitOfWork>();

/** SQLite with group commit: one queue of writers per connection (every Database over it shares it). */
const committers = new WeakMap<Kysely<DB>, GroupCommitter>();

function committerOf(database: Database): GroupCommitter {
  let committer = committers.get(database.db);
  if (!committer) {
    committer = new GroupCommitter(database.db, () => afterWrite(database));
    committers.set(database.db, committer);
  }
  return committer;
}

/**
 * A Database over the open transaction `uow`: a service built over it runs its reads in that
 * transaction, and its "own" write transactions join it (same transaction, same SCN) instead of
 * opening one. So several saves, each written as one transaction, become one: `tv2 import` saves a
 * batch of records that way. A failure anywhere rolls the whole of `uow` back.
 */
export function joinedDatabase(database: Database, uow: UnitOfWork): Database {
  const inner: Database = { db: uow.db, engine: database.engine, close: async () => {} };
  joined.set(inner, uow);
  return inner;
}

/**
 * Runs `work` as one write transaction (or as part of the open one `database` was joined to). On
 * PostgreSQL a transaction the server aborted as one side of a deadlock is run again (it rolled
 * back entirely), so `work` must not act outside the database before it returns.
 */
export async function inWriteTransaction<T>(
  database: Database,
  work: (uow: UnitOfWork) => Promise<T>,
): Promise<T> {
  const outer = joined.get(database);
  if (outer) return work(outer);
  // The engine dispatch is left out of npm run mutation, which runs on SQLite; the PostgreSQL path is
  // held by the PostgreSQL suite and the guard mutations.
  // Stryker disable next-line ConditionalExpression,StringLiteral: the engine dispatch (above)
  if (database.engine !== 'postgres') {
    if (database.sqliteGroupCommit) return committerOf(database).run(work);
    const result = await database.db.transaction().execute((trx) => work(sqliteUnitOfWork(trx)));
    afterWrite(database);
    return result;
  }
  return postgresWriteTransaction(database, work);
}
