/**
 * A read shared by the callers that ask for it at about the same time: under load one query serves
 * many requests instead of one each. Used for the numbers a read must take before its rows (the SCN
 * of the stock answers, `scnPerTurn`; the change number of the article cache, CoalescedScnReader;
 * both in scn-reader.ts).
 *
 * A read starts on the turn of the event loop after its first caller asked (setImmediate), or, when
 * another read is still under way then, on the turn after that one ended: one read at a time, and
 * the callers that ask while one is under way share the next. A caller joins only a read that has
 * not started yet, so every caller gets a value read after it asked: exactly what a read of its own
 * would give it (a write committed before the call is always reflected; an SCN taken this way bounds
 * the rows read after it, and a feed from it misses nothing: docs/architecture.md, "SCN"). Nothing
 * is kept once a read ended: this is not a cache. A failed read fails the callers that joined it;
 * the next read starts afresh.
 *
 * On SQLite a read ends within the turn it started in (the driver is synchronous), so its callers
 * are those of one turn. On PostgreSQL a read takes a round trip, during which more requests come:
 * sharing only within a turn, the stock answers took 1.5 to 2 statements each under load, about one
 * with the next read waiting for the one under way (decision 31 (i)).
 */
export class PerTurnRead<T> {
  readonly #read: () => Promise<T>;
  /** The read callers join: not started yet. */
  #waiting: Promise<T> | undefined;
  /** The read under way, if any: the waiting one starts after it ended. */
  #running: Promise<T> | undefined;

  constructor(read: () => Promise<T>) {
    this.#read = read;
  }

  current(): Promise<T> {
    if (this.#waiting) return this.#waiting;
    // the callers of the read under way see its failure, not the callers of this one
    const before = this.#running;
    const read: Promise<T> = (before ? before.then(ignore, ignore).then(nextTurn) : nextTurn()).then(
      async () => {
        // from here on a caller starts a read of its own: this one is under way
        this.#waiting = undefined;
        this.#running = read;
        try {
          return await this.#read();
        } finally {
          if (this.#running === read) this.#running = undefined;
        }
      },
    );
    this.#waiting = read;
    return read;
  }
}

function ignore(): void {}

function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}
