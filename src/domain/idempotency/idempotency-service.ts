import { createHash } from 'node:crypto';
import type { Database } from '../../db/database.ts';
import { ConflictError, ValidationError } from '../errors.ts';
import { IdempotencyRepository } from './idempotency-repository.ts';

/** How long a key is remembered; a retry after that runs the request again. */
export const IDEMPOTENCY_KEY_HOURS = 24;
const KEY = /^[\x21-\x7e]{1,255}$/;

export type Claim = { kind: 'run' } | { kind: 'replay'; status: number; type: string; body: string };

/**
 * `Idempotency-Key` for POST operations: the first request with a key runs and its answer is kept;
 * a retry with the same key and the same request gets that answer again instead of acting twice.
 * The key is claimed before the request runs, so two concurrent tries cannot both act.
 */
export class IdempotencyService {
  readonly #repo: IdempotencyRepository;

  constructor(
    database: Database,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.#repo = new IdempotencyRepository(database.db);
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
    const now = this.now();
    await this.#repo.deleteOlderThan(
      new Date(now.getTime() - IDEMPOTENCY_KEY_HOURS * 3_600_000).toISOString(),
    );
    if (await this.#repo.claim(userId, key, requestHash, now.toISOString())) return { kind: 'run' };
    const stored = await this.#repo.find(userId, key);
    if (!stored) return this.claim(userId, key, requestHash);
    if (stored.request_hash !== requestHash) {
      throw new ConflictError(
        'IDEMPOTENCY_KEY_REUSED',
        'This Idempotency-Key was used for a different request.',
      );
    }
    if (stored.state !== 'done' || stored.response_status === null) {
      throw new ConflictError(
        'IDEMPOTENCY_KEY_IN_USE',
        'A request with this Idempotency-Key is still running; retry later.',
      );
    }
    return {
      kind: 'replay',
      status: stored.response_status,
      type: stored.response_type ?? 'application/json',
      body: stored.response_body ?? '',
    };
  }

  /** Keeps the answer for retries; a server fault is not kept, so a retry runs again. */
  async finish(userId: number, key: string, status: number, type: string, body: string): Promise<void> {
    if (status >= 500) await this.#repo.release(userId, key);
    else await this.#repo.complete(userId, key, status, type, body);
  }
}
