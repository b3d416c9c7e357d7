/**
 * The current SCN read once for every caller that asks within the same turn of the event loop: the
 * article stock reads of a busy process share one read of the SCN instead of one each.
 *
 * The read starts on the next turn (setImmediate), and a caller joins only a read that has not
 * started yet, so every caller gets an SCN read after it asked and before it reads its rows (it
 * waits for the SCN first): exactly what a read of its own would give it, a feed from that SCN
 * misses nothing (docs/architecture.md, "SCN"). Nothing is kept between turns: this is not a cache.
 */
export class ScnPerTurn {
  readonly #read: () => Promise<number>;
  #pending: Promise<number> | undefined;

  constructor(read: () => Promise<number>) {
    this.#read = read;
  }

  current(): Promise<number> {
    if (this.#pending) return this.#pending;
    const pending: Promise<number> = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      // from here on a caller starts a read of its own: this one may already be under way
      if (this.#pending === pending) this.#pending = undefined;
      return this.#read();
    });
    this.#pending = pending;
    return pending;
  }
}
