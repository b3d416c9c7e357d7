import type { Kysely } from 'kysely';
import type { Database } from './database.ts';
import { GroupCommitter, sqliteUnitOfWork } from './group-commit.ts';
import { postgresWriteTransaction, retriedOnDeadlock } from './pg-write-transaction.ts';
import type { DB } from './schema.ts';
import { directReader } from './sqlite-reader.ts';
import { afterWrite } from './statistics.ts';
import type { UnitOfWork } from './unit-of-work-type.ts';

export { changeToken, currentScn, neverWritten, nextScn } from './scn-counter.ts';
export type { UnitOfWork } from './unit-of-work-type.ts';

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
  // its reads see the transaction's own changes: none goes to a reader thread
  const inner: Database = {
    db: uow.db,
    engine: database.engine,
    reader: directReader(uow.db),
    close: async () => {},
  };
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

// Stryker disable all: PostgreSQL only, which npm run mutation (SQLite) never runs; held by the
// PostgreSQL suite (receipt and new-client races) and the guard mutations
/**
 * A write that is one statement on PostgreSQL (a data-modifying WITH that checks, writes and logs
 * at once), run on its own: it is then its own transaction, without the BEGIN and COMMIT round trips
 * of inWriteTransaction, and run again when the server aborted it as one side of a deadlock. On a
 * database joined to an open transaction (joinedDatabase) it runs in that transaction instead. The
 * statement takes its SCN with `transactionScnSql` (scn-horizon.ts), as a write transaction's
 * `stamp()` would. PostgreSQL only: SQLite has no data-modifying WITH.
 */
export function inOneStatement<T>(database: Database, statement: (db: Kysely<DB>) => Promise<T>): Promise<T> {
  const outer = joined.get(database);
  if (outer) return statement(outer.db);
  if (database.engine !== 'postgres') throw new Error('inOneStatement: PostgreSQL only');
  return retriedOnDeadlock(() => statement(database.db));
}
// Stryker restore all
