import { type Kysely, sql } from 'kysely';
import type { DB } from '../../kernel/db/schema.ts';
import type { IdempotencyKeyTable } from './tables.ts';

export interface ClaimRow {
  requestHash: string;
  at: string;
  leaseUntil: string;
  claimId: string;
  claimedBy: string;
}

export class IdempotencyRepository {
  private readonly db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.db = db;
  }

  /** Claims a key; false when it is already taken (by this request earlier, or another one). */
  async claim(userId: number, key: string, claim: ClaimRow): Promise<boolean> {
    const result = await this.db
      .insertInto('idempotency_key')
      .values({
        user_id: userId,
        idempotency_key: key,
        request_hash: claim.requestHash,
        state: 'pending',
        created_at: claim.at,
        lease_until: claim.leaseUntil,
        claim_id: claim.claimId,
        claimed_by: claim.claimedBy,
      })
      .onConflict((oc) => oc.columns(['user_id', 'idempotency_key']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  /**
   * Takes over a pending claim that was seen stale: one conditional UPDATE that matches only while
   * the key is still pending under the very claim that was judged (`staleClaimId`), and, when
   * `leaseExpiredBefore` is given, only while its lease has run out by then (a claim from before
   * leases existed counts as leased from `created_at` until `legacyLeaseFrom`). Of several
   * concurrent retries exactly one matches; true for that one.
   */
  async takeOver(
    userId: number,
    key: string,
    staleClaimId: string | null,
    claim: ClaimRow,
    leaseExpiredBefore?: { now: string; legacyCreatedBefore: string },
  ): Promise<boolean> {
    let update = this.db
      .updateTable('idempotency_key')
      .set({
        created_at: claim.at,
        lease_until: claim.leaseUntil,
        claim_id: claim.claimId,
        claimed_by: claim.claimedBy,
      })
      .where('user_id', '=', userId)
      .where('idempotency_key', '=', key)
      .where('state', '=', 'pending')
      .where('request_hash', '=', claim.requestHash)
      .where(
        staleClaimId === null ? sql<boolean>`claim_id is null` : sql<boolean>`claim_id = ${staleClaimId}`,
      );
    if (leaseExpiredBefore) {
      update = update.where((eb) =>
        eb.or([
          eb('lease_until', '<', leaseExpiredBefore.now),
          eb.and([
            eb('lease_until', 'is', null),
            eb('created_at', '<', leaseExpiredBefore.legacyCreatedBefore),
          ]),
        ]),
      );
    }
    const result = await update.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  find(userId: number, key: string): Promise<IdempotencyKeyTable | undefined> {
    return this.db
      .selectFrom('idempotency_key')
      .selectAll()
      .where('user_id', '=', userId)
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
  }

  /** Keeps the answer, if the claim is still this request's (not taken over meanwhile). */
  async complete(
    userId: number,
    key: string,
    claimId: string,
    answer: { status: number; type: string; body: string },
  ): Promise<void> {
    await this.db
      .updateTable('idempotency_key')
      .set({
        state: 'done',
        response_status: answer.status,
        response_type: answer.type,
        response_body: answer.body,
        lease_until: null,
        claim_id: null,
        claimed_by: null,
      })
      .where('user_id', '=', userId)
      .where('idempotency_key', '=', key)
      .where('state', '=', 'pending')
      .where('claim_id', '=', claimId)
      .execute();
  }

  /** Frees the key for a retry, if the claim is still this request's. */
  async release(userId: number, key: string, claimId: string): Promise<void> {
    await this.db
      .deleteFrom('idempotency_key')
      .where('user_id', '=', userId)
      .where('idempotency_key', '=', key)
      .where('state', '=', 'pending')
      .where('claim_id', '=', claimId)
      .execute();
  }

  async deleteOlderThan(at: string): Promise<void> {
    await this.db.deleteFrom('idempotency_key').where('created_at', '<', at).execute();
  }
}
