import type { Kysely } from 'kysely';
import type { Engine } from '../../../kernel/db/engine.ts';

/**
 * The business day an entry is for, as its poster states it (B2C_UpdateBonusCardValue's DATE);
 * null when none was stated (the instant `at` is when it was posted).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is
export async function up(db: Kysely<any>, _engine: Engine): Promise<void> {
  await db.schema.alterTable('tender_entry').addColumn('day', 'text').execute();
}
