import type { Transaction } from 'kysely';
import type { Database } from './database.ts';
import type { DB } from './schema.ts';
import { postgresScn } from './scn-counter.ts';

/** What unit-of-work.ts calls a UnitOfWork (not imported from there, which would make a cycle). */
interface UnitOfWork {
  readonly db: Transaction<DB>;
  scn(): Promise<number>;
  stamp(): Promise<number>;
}

/**
 * A write transaction on PostgreSQL (unit-of-work.ts): its SCN is its transaction id plus the base
 * (scn-horizon.ts), the same number from `scn()` and `stamp()`; `scn()` also takes the counter
 * row's lock, which orders check-then-act writers. A transaction aborted as one side of a deadlock
 * is run again.
 */
export function postgresWriteTransaction<T>(
  database: Database,
  work: (uow: UnitOfWork) => Promise<T>,
): Promise<T> {
  return retriedOnDeadlock(() => postgresTransaction(database, work));
}

/**
 * Runs `attempt` again (up to DEADLOCK_ATTEMPTS in all) while the server aborts it as one side of a
 * deadlock: a whole transaction, or a statement run on its own (its own transaction).
 */
export async function retriedOnDeadlock<T>(attempt: () => Promise<T>): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (n >= DEADLOCK_ATTEMPTS || !isDeadlock(error)) throw error;
    }
  }
}

/**
 * How often a PostgreSQL write transaction is tried when the server aborted it as one side of a
 * deadlock: a transaction that takes the counter's lock late (after rows it locked) and one that
 * took it first can wait for each other. The aborted one rolled back entirely, so it is run again.
 */
const DEADLOCK_ATTEMPTS = 3;

function isDeadlock(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '40P01';
}

function postgresTransaction<T>(database: Database, work: (uow: UnitOfWork) => Promise<T>): Promise<T> {
  return database.db.transaction().execute((trx) => {
    let stamped: Promise<number> | undefined;
    let locked: Promise<number> | undefined;
    return work({
      db: trx,
      scn: () => {
        // the lock is taken even when the number is known: the order is what the caller wants
        locked ??= postgresScn(trx, true);
        return locked;
      },
      stamp: () => {
        stamped ??= locked ?? postgresScn(trx, false);
        return stamped;
      },
    });
  });
}
