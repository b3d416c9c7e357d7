import type { Kysely } from 'kysely';
import type { DB, IdempotencyKeyTable } from '../../db/schema.ts';

export class IdempotencyRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Claims a key; false when it is already taken (by this request earlier, or another one). */
  async claim(userId: number, key: string, requestHash: string, at: string): Promise<boolean> {
    const result = await this.db
      .insertInto('idempotency_key')
      .values({
        user_id: userId,
        idempotency_key: key,
        request_hash: requestHash,
        state: 'pending',
        created_at: at,
      })
      .onConflict((oc) => oc.columns(['user_id', 'idempotency_key']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  find(userId: number, key: string): Promise<IdempotencyKeyTable | undefined> {
    return this.db
      .selectFrom('idempotency_key')
      .selectAll()
      .where('user_id', '=', userId)
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
  }

  async complete(userId: number, key: string, status: number, type: string, body: string): Promise<void> {
    await this.db
      .updateTable('idempotency_key')
      .set({ state: 'done', response_status: status, response_type: type, response_body: body })
      .where('user_id', '=', userId)
      .where('idempotency_key', '=', key)
      .execute();
  }

  async release(userId: number, key: string): Promise<void> {
    await this.db
      .deleteFrom('idempotency_key')
      .where('user_id', '=', userId)
      .where('idempotency_key', '=', key)
      .execute();
  }

  async deleteOlderThan(at: string): Promise<void> {
    await this.db.deleteFrom('idempotency_key').where('created_at', '<', at).execute();
  }
}
