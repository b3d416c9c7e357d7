import { isIPv6 } from 'node:net';
import PQueue from 'p-queue';
import type { Database } from '../../kernel/db/database.ts';
import { RateLimitedError, UnauthenticatedError } from '../../kernel/errors.ts';
import { AuthRepository } from './auth-repository.ts';
import { GENERAL_ERRORS } from './errors.ts';

/** The limits of GetToken (docs/security.md); tests lower or raise them through the config. */
export interface LoginLimits {
  /** Failed attempts per client address (an IPv6 address counts by its /64) in one window. */
  maxFailuresPerAddress: number;
  /** Failed attempts per user name, from any address, in one window. */
  maxFailuresPerUser: number;
  windowSeconds: number;
  /** Secret checks (scrypt) running at once in this process. */
  concurrentChecks: number;
  /** Checks that may wait for a free slot in this process; beyond them GetToken answers 503. */
  queuedChecks: number;
  /** Checks of one client address running or waiting at once in this process. */
  checksPerAddress: number;
  /** How long a check may wait for a slot before GetToken answers 503. */
  queueWaitMs: number;
}

/** What the guard did since the process started; for metrics. */
export interface LoginStats {
  /** Secret checks running now. */
  checksRunning: number;
  /** Secret checks waiting for a slot now. */
  checksQueued: number;
  /** Secret checks started since the process started. */
  checksStarted: number;
  /** Attempts answered 503 LOGIN_BUSY (queue full, too many of one address, or waited too long). */
  refusedBusy: number;
  /** Attempts answered 429 TOO_MANY_FAILED_LOGINS. */
  refusedThrottled: number;
}

/** Thrown when no secret check can be run for the attempt now: GetToken answers 503 LOGIN_BUSY. */
export class LoginBusyError extends Error {
  readonly retryAfterSeconds = 1;
}

/** A counted attempt: the keys it was counted on and the window each count belongs to. */
interface Admission {
  counted: Array<{ key: string; windowStartMs: number }>;
}

/**
 * Counts GetToken attempts in the database, per client address and per user name, in a fixed window.
 * The attempt is counted before the secret is checked, in one atomic statement per key, so
 * concurrent guesses (in one process or several on one database) are all counted: at most the limit
 * of them reaches a check. An attempt that succeeds, or that never reaches a check, takes back only
 * its own count, so a success never clears anybody's failures.
 */
export class LoginThrottle {
  readonly #repo: AuthRepository;
  #lastCleanupMs = 0;

  private readonly limits: Pick<
    LoginLimits,
    'maxFailuresPerAddress' | 'maxFailuresPerUser' | 'windowSeconds'
  >;
  private readonly nowMs: () => number;

  constructor(
    database: Database,
    limits: Pick<LoginLimits, 'maxFailuresPerAddress' | 'maxFailuresPerUser' | 'windowSeconds'>,
    nowMs: () => number = Date.now,
  ) {
    this.limits = limits;
    this.nowMs = nowMs;
    this.#repo = new AuthRepository(database.db);
  }

  /** Counts the attempt on the address, then on the user name; throws 429 when either is over its limit. */
  async admit(address: string, name: string): Promise<Admission> {
    const now = this.nowMs();
    const windowMs = this.limits.windowSeconds * 1000;
    await this.#cleanup(now, windowMs);
    const admission: Admission = { counted: [] };
    const keys: Array<[string, number]> = [
      [`a:${addressKey(address)}`, this.limits.maxFailuresPerAddress],
      // Longer names cannot exist (USER_NAME in auth-service.ts); cutting them keeps keys small.
      [`u:${name.slice(0, 128)}`, this.limits.maxFailuresPerUser],
    ];
    for (const [key, limit] of keys) {
      const { attempts, windowStartMs } = await this.#repo.countLoginAttempt(key, now, windowMs, limit);
      if (attempts > limit) {
        await this.refund(admission); // not charged to the keys before this one
        const wait = Math.max(1, Math.ceil((windowStartMs + windowMs - now) / 1000));
        throw GENERAL_ERRORS.TOO_MANY_FAILED_LOGINS(
          `Too many failed attempts ${key.startsWith('a:') ? 'from this address' : 'for this user'}; try again in ${wait} s.`,
          wait,
        );
      }
      admission.counted.push({ key, windowStartMs });
    }
    return admission;
  }

  /** Takes back the attempt: it succeeded, or no secret was checked. */
  async refund(admission: Admission): Promise<void> {
    for (const { key, windowStartMs } of admission.counted)
      await this.#repo.refundLoginAttempt(key, windowStartMs);
    admission.counted = [];
  }

  /** Rows of past windows are useless; deleted at most ten times a window. */
  async #cleanup(now: number, windowMs: number): Promise<void> {
    if (now - this.#lastCleanupMs < windowMs / 10) return;
    this.#lastCleanupMs = now;
    await this.#repo.deleteLoginAttemptsBefore(now - windowMs);
  }
}

/**
 * Bounds the secret checks of this process: a few run at once, a few more wait (each at most
 * `queueWaitMs`), one address holds at most `checksPerAddress` of these places, and every other
 * attempt is refused at once (LoginBusyError). A waiting check is ranked by how many places its
 * address already held when it came, so one busy address does not make the others wait behind all
 * of its checks. Bearer-token requests never come here.
 */
export class CheckGate {
  readonly #queue: PQueue;
  readonly #perAddress = new Map<string, number>();
  #running = 0;
  #waiting = 0;
  #started = 0;

  private readonly limits: Pick<
    LoginLimits,
    'concurrentChecks' | 'queuedChecks' | 'checksPerAddress' | 'queueWaitMs'
  >;

  constructor(
    limits: Pick<LoginLimits, 'concurrentChecks' | 'queuedChecks' | 'checksPerAddress' | 'queueWaitMs'>,
  ) {
    this.limits = limits;
    this.#queue = new PQueue({ concurrency: limits.concurrentChecks });
  }

  get running(): number {
    return this.#running;
  }
  get waiting(): number {
    return this.#waiting;
  }
  get started(): number {
    return this.#started;
  }

  /** Runs `check` when a slot is free; `signal` (the client went away) withdraws it while it waits. */
  async run<T>(address: string, check: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const key = addressKey(address);
    const ofAddress = this.#perAddress.get(key) ?? 0;
    const full = this.#running + this.#waiting >= this.limits.concurrentChecks + this.limits.queuedChecks;
    if (full || ofAddress >= this.limits.checksPerAddress) throw new LoginBusyError('busy');
    this.#perAddress.set(key, ofAddress + 1);
    this.#waiting++;
    let began = false;
    // Only a waiting check is withdrawn: aborting a running one would free its slot while scrypt
    // goes on, and more checks than the limit would run.
    const withdraw = new AbortController();
    const giveUp = () => {
      if (!began) withdraw.abort(new LoginBusyError('waited too long'));
    };
    const timer = setTimeout(giveUp, this.limits.queueWaitMs);
    signal?.addEventListener('abort', giveUp, { once: true });
    try {
      return await this.#queue.add(
        async () => {
          began = true;
          this.#waiting--;
          this.#running++;
          this.#started++;
          try {
            return await check();
          } finally {
            this.#running--;
          }
        },
        // An address's first check goes before the further ones of busier addresses.
        { signal: withdraw.signal, priority: -ofAddress },
      );
    } catch (error) {
      if (!began) {
        this.#waiting--;
        throw error instanceof LoginBusyError ? error : new LoginBusyError('withdrawn');
      }
      throw error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', giveUp);
      const left = (this.#perAddress.get(key) ?? 1) - 1;
      if (left > 0) this.#perAddress.set(key, left);
      else this.#perAddress.delete(key);
    }
  }
}

/** The throttle and the gate in the order GetToken uses them, with their counts for metrics. */
export class LoginGuard {
  readonly throttle: LoginThrottle;
  readonly gate: CheckGate;
  #refusedBusy = 0;
  #refusedThrottled = 0;

  constructor(database: Database, limits: LoginLimits, nowMs: () => number = Date.now) {
    this.throttle = new LoginThrottle(database, limits, nowMs);
    this.gate = new CheckGate(limits);
  }

  /**
   * Counts the attempt (429 past a limit), then runs `check` through the gate (503 when busy). A
   * failed check (UnauthenticatedError) stays counted; any other outcome takes the count back.
   */
  async attempt<T>(address: string, name: string, check: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    let admission: Admission;
    try {
      admission = await this.throttle.admit(address, name);
    } catch (error) {
      if (error instanceof RateLimitedError) this.#refusedThrottled++;
      throw error;
    }
    let result: T;
    try {
      result = await this.gate.run(address, check, signal);
    } catch (error) {
      if (error instanceof LoginBusyError) this.#refusedBusy++;
      if (!(error instanceof UnauthenticatedError)) await this.throttle.refund(admission);
      throw error;
    }
    await this.throttle.refund(admission); // a success is not a failure
    return result;
  }

  stats(): LoginStats {
    return {
      checksRunning: this.gate.running,
      checksQueued: this.gate.waiting,
      checksStarted: this.gate.started,
      refusedBusy: this.#refusedBusy,
      refusedThrottled: this.#refusedThrottled,
    };
  }
}

/**
 * The part of a client address its attempts are counted under: an IPv4 address (also written as
 * IPv4-mapped IPv6) as it is, an IPv6 address by its /64, the block one subscriber usually holds.
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const headParts = head ? head.split(':') : [];
  const tailParts = tail ? tail.split(':') : [];
  const missing = 8 - headParts.length - tailParts.length;
  const full = address.includes('::')
    ? [...headParts, ...Array<string>(Math.max(0, missing)).fill('0'), ...tailParts]
    : headParts;
  return `${full
    .slice(0, 4)
    .map((p) => p.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
