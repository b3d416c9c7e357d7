/**
 * Counts failed GetToken attempts per client address in a fixed window. Only failures count, so a
 * client that logs in correctly is never slowed down; the count lives in this process (with
 * several API processes an attacker gets that many tries per process and window).
 */
export class LoginThrottle {
  readonly #failures = new Map<string, { count: number; windowStartMs: number }>();

  constructor(
    private readonly maxFailures: number,
    private readonly windowSeconds: number,
    private readonly nowMs: () => number = Date.now,
  ) {}

  /** Seconds the address must wait, or 0 when it may try. */
  retryAfter(address: string): number {
    const entry = this.#failures.get(address);
    if (!entry) return 0;
    const elapsedMs = this.nowMs() - entry.windowStartMs;
    if (elapsedMs >= this.windowSeconds * 1000) {
      this.#failures.delete(address);
      return 0;
    }
    return entry.count >= this.maxFailures ? Math.ceil((this.windowSeconds * 1000 - elapsedMs) / 1000) : 0;
  }

  fail(address: string): void {
    const now = this.nowMs();
    const entry = this.#failures.get(address);
    if (!entry || now - entry.windowStartMs >= this.windowSeconds * 1000) {
      if (this.#failures.size > 100_000) this.#failures.clear();
      this.#failures.set(address, { count: 1, windowStartMs: now });
    } else {
      entry.count++;
    }
  }

  succeed(address: string): void {
    this.#failures.delete(address);
  }
}
