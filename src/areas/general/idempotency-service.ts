import { createHash, randomUUID } from 'node:crypto';
import type { Database } from '../../kernel/db/database.ts';
import { ValidationError } from '../../kernel/errors.ts';
import { GENERAL_ERRORS } from './errors.ts';
import { type ClaimRow, IdempotencyRepository } from './idempotency-repository.ts';
import { formatOwner, ownerIsGone, ownIdentity } from './process-identity.ts';
import type { IdempotencyKeyTable } from './tables.ts';

/** How long a key is remembered; a retry after that runs the request again. */
export const IDEMPOTENCY_KEY_HOURS = 24;
/** How long a pending claim is held for its request by default (TV2_IDEMPOTENCY_LEASE_SECONDS). */
export const DEFAULT_LEASE_SECONDS = 60;
const KEY = /^[\x21-\x7e]{1,255}$/;
/** Rounds of claim / look / take over before giving up with 409 (only under a storm of retries). */
const MAX_ROUNDS = 5;
const CLEANUP_EVERY_MS = 60_000;

export type Claim =
  | { kind: 'run'; claimId: string }
  | { kind: 'replay'; status: number; type: string; body: string };

export interface IdempotencyOptions {
  /** Seconds a pending claim is held; longer than any request may run. */
  leaseSeconds?: number;
  now?: () => Date;
}

/**
 * `Idempotency-Key` for POST operations: the first request with a key runs and its answer is kept;
 * a retry with the same key and the same request gets that answer again instead of acting twice.
 * The key is claimed before the request runs, so two concurrent tries cannot both act.
 *
 * A claim is a lease: it records until when it is held and which process holds it. A retry that
 * finds the key pending takes it over (and runs the request) when the claimer is known to be dead
 * (same machine, its process is gone) or the lease has run out; otherwise it is answered 409
 * IDEMPOTENCY_KEY_IN_USE with the seconds until the lease ends. The take-over is one conditional
 * UPDATE on the claim that was judged stale, so of concurrent retries exactly one runs.
 */
export class IdempotencyService {
  readonly #repo: IdempotencyRepository;
  readonly #leaseMs: number;
  readonly #now: () => Date;
  #lastCleanup = Number.NEGATIVE_INFINITY;

  constructor(database: Database, options: IdempotencyOptions = {}) {
    this.#repo = new IdempotencyRepository(database.db);
    this.#leaseMs = (options.leaseSeconds ?? DEFAULT_LEASE_SECONDS) * 1000;
    this.#now = options.now ?? (() => new Date());
  }

  /** The hash a key is bound to: the same key may only be reused for the very same request. */
  requestHash(operation: string, body: unknown): string {
    return IdempotencyService.hash(operation, body);
  }

  static hash(operation: string, body: unknown): string {
    return createHash('sha256')
      .update(operation)
      .update('\n')
      .update(JSON.stringify(body ?? null))
      .digest('hex');
  }

  async claim(userId: number, key: string, requestHash: string): Promise<Claim> {
    if (!KEY.test(key)) {
      throw new ValidationError([
        { name: 'Idempotency-Key', message: 'use 1 to 255 visible ASCII characters' },
      ]);
    }
    await this.#forgetOldKeys();
    let stored: IdempotencyKeyTable | undefined;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const now = this.#now();
      const mine = this.#newClaim(requestHash, now);
      if (await this.#repo.claim(userId, key, mine)) return { kind: 'run', claimId: mine.claimId };
      stored = await this.#repo.find(userId, key);
      if (!stored) continue; // it expired or was released between the two statements
      const cutoff = new Date(now.getTime() - IDEMPOTENCY_KEY_HOURS * 3_600_000).toISOString();
      if (stored.created_at < cutoff) {
        await this.#repo.deleteOlderThan(cutoff); // forgotten: the retry runs afresh
        continue;
      }
      if (stored.request_hash !== requestHash) {
        throw GENERAL_ERRORS.IDEMPOTENCY_KEY_REUSED('This Idempotency-Key was used for a different request.');
      }
      if (stored.state === 'done' && stored.response_status !== null) {
        return {
          kind: 'replay',
          status: stored.response_status,
          type: stored.response_type ?? 'application/json',
          body: stored.response_body ?? '',
        };
      }
      const leaseEnd = this.#leaseEndOf(stored);
      const expired = leaseEnd < now.getTime();
      if (!expired && !ownerIsGone(stored.claimed_by)) break;
      const condition = expired
        ? {
            now: now.toISOString(),
            legacyCreatedBefore: new Date(now.getTime() - this.#leaseMs).toISOString(),
          }
        : undefined;
      if (await this.#repo.takeOver(userId, key, stored.claim_id, mine, condition)) {
        return { kind: 'run', claimId: mine.claimId };
      }
      // another retry took it over (or it finished) meanwhile: look again
    }
    const remaining = stored ? this.#leaseEndOf(stored) - this.#now().getTime() : this.#leaseMs;
    throw GENERAL_ERRORS.IDEMPOTENCY_KEY_IN_USE(
      'A request with this Idempotency-Key is still running; retry later.',
      Math.max(1, Math.ceil(remaining / 1000)),
    );
  }

  /** Keeps the answer for retries; a server fault is not kept, so a retry runs again. */
  async finish(
    userId: number,
    key: string,
    claimId: string,
    status: number,
    type: string,
    body: string,
  ): Promise<void> {
    if (status >= 500) await this.#repo.release(userId, key, claimId);
    else await this.#repo.complete(userId, key, claimId, { status, type, body });
  }

  /** Deletes keys past IDEMPOTENCY_KEY_HOURS, at most once a minute per process (it is a write). */
  async #forgetOldKeys(): Promise<void> {
    const now = this.#now().getTime();
    if (now - this.#lastCleanup < CLEANUP_EVERY_MS && now >= this.#lastCleanup) return;
    this.#lastCleanup = now;
    await this.#repo.deleteOlderThan(new Date(now - IDEMPOTENCY_KEY_HOURS * 3_600_000).toISOString());
  }

  #newClaim(requestHash: string, now: Date): ClaimRow {
    return {
      requestHash,
      at: now.toISOString(),
      leaseUntil: new Date(now.getTime() + this.#leaseMs).toISOString(),
      claimId: randomUUID(),
      claimedBy: formatOwner(ownIdentity()),
    };
  }

  /** When a pending claim's lease ends (a claim from before leases: its start plus one lease). */
  #leaseEndOf(stored: IdempotencyKeyTable): number {
    return stored.lease_until !== null
      ? Date.parse(stored.lease_until)
      : Date.parse(stored.created_at) + this.#leaseMs;
  }
}
