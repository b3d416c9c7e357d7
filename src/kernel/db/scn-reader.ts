import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';
import { changeToken } from './unit-of-work.ts';

/**
 * Reads a number that changes whenever a write commits, once for all callers that ask within the
 * same turn of the event loop (for caches: equal numbers mean nothing committed in between).
 *
 * The read is started on the next turn (setImmediate), and a caller joins only a read that has not
 * started yet, so every caller gets a value read after it asked: a write committed before the call
 * is always reflected. Under load one query serves every request of a turn instead of one each.
 * The number is this process's own: each change token read (`changeToken`: the SCN counter on
 * SQLite, the snapshot on PostgreSQL) that differs from the one read before gets the next number.
 */
export class CoalescedScnReader {
  #pending: Promise<number> | undefined;
  #lastToken: string | undefined;
  #number = 0;

  private readonly db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.db = db;
  }

  current(): Promise<number> {
    if (this.#pending) return this.#pending;
    const read: Promise<number> = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      if (this.#pending === read) this.#pending = undefined;
      const token = await changeToken(this.db);
      if (token !== this.#lastToken) {
        this.#lastToken = token;
        this.#number += 1;
      }
      return this.#number;
    });
    this.#pending = read;
    return read;
  }
}
