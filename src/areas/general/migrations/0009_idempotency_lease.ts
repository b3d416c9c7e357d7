import type { Kysely } from 'kysely';
import type { Engine } from '../../../kernel/db/engine.ts';

/**
 * A pending Idempotency-Key claim gets a lease and an owner, so a claim whose request is no longer
 * running (its process was killed, its machine lost) can be taken over by a retry instead of
 * answering 409 for a day. Rows claimed before this migration have no lease: they count as leased
 * from `created_at` for the configured lease.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is
export async function up(db: Kysely<any>, _engine: Engine): Promise<void> {
  // One column per statement: SQLite's ALTER TABLE adds one column at a time.
  await db.schema.alterTable('idempotency_key').addColumn('lease_until', 'text').execute();
  await db.schema.alterTable('idempotency_key').addColumn('claim_id', 'text').execute();
  await db.schema.alterTable('idempotency_key').addColumn('claimed_by', 'text').execute();
}
