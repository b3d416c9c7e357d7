import type { Transaction } from 'kysely';
import type { Database } from './database.ts';
import type { DB } from './schema.ts';
import { nextScn } from './scn-counter.ts';
import { provisionalScn, settleScn, stampScn } from './scn-stamp.ts';

/** What unit-of-work.ts calls a UnitOfWork (not imported from there, which would make a cycle). */
interface UnitOfWork {
  readonly db: Transaction<DB>;
  scn(): Promise<number>;
  stamp(): Promise<number>;
}

/**
 * A write transaction on PostgreSQL (unit-of-work.ts): `scn()` takes the real SCN at once,
 * `stamp()` hands out a provisional number and the real SCN is taken by the last statement
 * (scn-stamp.ts); a transaction aborted as one side of a deadlock is run again.
 */
export async function postgresWriteTransaction<T>(
  database: Database,
  work: (uow: UnitOfWork) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await postgresTransaction(database, work);
    } catch (error) {
      if (attempt >= DEADLOCK_ATTEMPTS || !isDeadlock(error)) throw error;
    }
  }
}

/**
 * How often a PostgreSQL write transaction is tried when the server aborted it as one side of a
 * deadlock: a transaction that serialises (takes the SCN first) and one that takes it at the end
 * can wait for each other's locks. The aborted one rolled back entirely, so it is run again.
 */
const DEADLOCK_ATTEMPTS = 3;

function isDeadlock(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '40P01';
}

function postgresTransaction<T>(database: Database, work: (uow: UnitOfWork) => Promise<T>): Promise<T> {
  return database.db.transaction().execute(async (trx) => {
    let provisional: number | undefined;
    let taken: Promise<number> | undefined;
    const scn = () => {
      taken ??= nextScn(trx);
      return taken;
    };
    const result = await work({
      db: trx,
      scn,
      stamp: () => {
        if (taken) return taken;
        provisional ??= provisionalScn();
        return Promise.resolve(provisional);
      },
    });
    if (provisional === undefined) return result;
    const real = await stampScn(trx, provisional, taken ? await taken : null);
    return settleScn(result, provisional, real);
  });
}
