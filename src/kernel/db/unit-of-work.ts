import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from './database.ts';
import type { DB } from './schema.ts';

/**
 * One write transaction. `scn()` hands out the transaction's system change number on first use
 * and the same number afterwards: every row the transaction changes is stamped with it.
 *
 * The number comes from an UPDATE of the single counter row, whose row lock is held until commit.
 * So SCNs are handed out in commit order: when a reader sees the counter at N, every transaction
 * with an SCN up to N has committed (docs/architecture.md, "SCN").
 */
export interface UnitOfWork {
  readonly db: Transaction<DB>;
  scn(): Promise<number>;
}

export async function nextScn(db: Kysely<DB>): Promise<number> {
  const row = await db
    .updateTable('scn_counter')
    .set({ value: sql`value + 1` })
    .where('id', '=', 1)
    .returning('value')
    .executeTakeFirstOrThrow();
  return Number(row.value);
}

/** The highest SCN whose transaction has committed; read it before the rows it bounds. */
export async function currentScn(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom('scn_counter')
    .select('value')
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.value);
}

/** Databases bound to an open write transaction (joinedDatabase): their work joins it. */
const joined = new WeakMap<Database, UnitOfWork>();

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

export async function inWriteTransaction<T>(
  database: Database,
  work: (uow: UnitOfWork) => Promise<T>,
): Promise<T> {
  const outer = joined.get(database);
  if (outer) return work(outer);
  return database.db.transaction().execute(async (trx) => {
    let scn: Promise<number> | undefined;
    return work({
      db: trx,
      scn: () => {
        scn ??= nextScn(trx);
        return scn;
      },
    });
  });
}
