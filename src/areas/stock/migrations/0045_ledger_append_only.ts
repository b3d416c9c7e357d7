import { type Kysely, sql } from 'kysely';
import type { Engine } from '../../../kernel/db/engine.ts';

/**
 * The ledger is written at its end only (docs/stock.md, "Storage"; decision 44). The index of
 * movements by level (article, size, location) put each new movement in the middle of that index,
 * on a page of its own level: a web order of five sizes changed five such pages, which SQLite writes
 * to its WAL at the commit and copies back at the checkpoint; dropped, the order's SQLite
 * placements went from about 0.21 to 0.26 of the bare insert (bench:orders). The index served one
 * read, a level's newest movements, which no operation or route serves (tests and an
 * administrator's look at the ledger read it, by a scan from the newest movement back). What is
 * left is written at the end: the key (`id`) and the SCN.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is
export async function up(db: Kysely<any>, _engine: Engine): Promise<void> {
  await sql`DROP INDEX IF EXISTS stock_movement_level`.execute(db);
}
