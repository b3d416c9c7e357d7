import type { Transaction } from 'kysely';
import type { DB } from './schema.ts';

// The unit of work's interface on its own (unit-of-work.ts re-exports it), so the group committer
// that makes SQLite's units of work and the unit of work that runs them do not import each other.

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
