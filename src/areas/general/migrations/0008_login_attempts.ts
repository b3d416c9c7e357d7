import type { Kysely } from 'kysely';
import type { Engine } from '../../../kernel/db/engine.ts';

/**
 * GetToken attempts per client address and per user name in a fixed window, shared by every API
 * process on the database (src/areas/general/login-throttle.ts). Not synchronised data: no SCN.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is
export async function up(db: Kysely<any>, _engine: Engine): Promise<void> {
  await db.schema
    .createTable('login_attempt')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('window_start_ms', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_attempt_window').on('login_attempt').column('window_start_ms').execute();
}
