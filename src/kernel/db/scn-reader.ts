import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';
import { currentScn } from './unit-of-work.ts';

/**
 * Reads the current SCN once for all callers that ask within the same turn of the event loop.
 *
 * The read is started on the next turn (setImmediate), and a caller joins only a read that has not
 * started yet, so every caller gets a value read after it asked: a write committed before the call
 * is always reflected. Under load one query serves every request of a turn instead of one each.
 */
export class CoalescedScnReader {
  #pending: Promise<number> | undefined;

  private readonly db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.db = db;
  }

  current(): Promise<number> {
    if (this.#pending) return this.#pending;
    const read: Promise<number> = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      if (this.#pending === read) this.#pending = undefined;
      return currentScn(this.db);
    });
    this.#pending = read;
    return read;
  }
}
