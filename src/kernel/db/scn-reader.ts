import type { Kysely } from 'kysely';
import { PerTurnRead } from './per-turn-read.ts';
import type { DB } from './schema.ts';
import { changeToken, currentScn } from './unit-of-work.ts';

/**
 * The current SCN (`currentScn`), one read shared by the callers that ask at about the same time
 * (PerTurnRead: each caller still gets an SCN read after it asked, so it bounds the rows it reads
 * next as a read of its own would). The stock answers take theirs this way (decision 31 (f), (i)).
 */
export function scnPerTurn(db: Kysely<DB>): PerTurnRead<number> {
  return new PerTurnRead(() => currentScn(db));
}

/**
 * Reads a number that changes whenever a write commits, one read shared by the callers that ask at
 * about the same time (for caches: equal numbers mean nothing committed in between).
 *
 * The read is shared as PerTurnRead shares it, so every caller gets a value read after it asked: a
 * write committed before the call is always reflected. The number is this process's own: each
 * change token read (`changeToken`: the SCN counter on SQLite, the snapshot on PostgreSQL) that
 * differs from the one read before gets the next number.
 */
export class CoalescedScnReader {
  readonly #read: PerTurnRead<number>;
  #lastToken: string | undefined;
  #number = 0;

  constructor(db: Kysely<DB>) {
    this.#read = new PerTurnRead(async () => {
      const token = await changeToken(db);
      if (token !== this.#lastToken) {
        this.#lastToken = token;
        this.#number += 1;
      }
      return this.#number;
    });
  }

  current(): Promise<number> {
    return this.#read.current();
  }
}
