import { type Kysely, sql } from 'kysely';
import type { Engine } from '../../../kernel/db/engine.ts';

/**
 * PostgreSQL: the numbers of new retail clients come from a sequence (`client_no_seq`), so creating
 * a client reads no maximum and two creations at once never pick the same number; the write takes
 * its SCN at the end (docs/architecture.md, "Taken at the end"). The sequence starts after the
 * highest number in use (or at the first client number, 100001). SQLite serialises writers, and
 * keeps taking the highest number plus one.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  if (engine !== 'postgres') return;
  await sql`CREATE SEQUENCE client_no_seq MINVALUE 1`.execute(db);
  await sql`SELECT setval('client_no_seq', greatest(100000, (SELECT coalesce(max(client_no), 0) FROM client)))`.execute(
    db,
  );
}
