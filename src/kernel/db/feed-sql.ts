import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { DB } from './schema.ts';

/**
 * SQL of the change feeds (docs/architecture.md, "Query plans").
 *
 * A feed page is `WHERE scn > :since AND pos >= :from ORDER BY pos LIMIT n`. Two indexes could serve
 * it: the `pos` index (in order, filtering on scn: it reads the whole table after `from` when few
 * rows changed) and the `scn` index (reads what changed, then sorts it). Which is right depends on
 * `since`, which SQLite cannot see without full statistics (STAT4 samples, a full ANALYZE); by
 * default it takes the `pos` index, and a feed after 100 changes in a million rows reads a million.
 * So the condition tells the planner that few rows changed: `likelihood(scn > :since, 0.001)`, which
 * SQLite reads as a selectivity hint. PostgreSQL has the same function from `installFeedSql` (an
 * SQL function returning its first argument, which the planner inlines: its own statistics decide,
 * and they see `since`). A feed's cost is then what changed, whatever the table size.
 */
export function changedAfter(column: string, sinceScn: number): Expression<SqlBool> {
  return sql<SqlBool>`likelihood(${sql.ref(column)} > ${sinceScn}, 0.001)`;
}

/** PostgreSQL: the `likelihood(condition, probability)` SQLite has built in, inlined by the planner. */
export async function installFeedSql(db: Kysely<DB>): Promise<void> {
  await sql`CREATE OR REPLACE FUNCTION likelihood(boolean, double precision) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT $1'`.execute(db);
}
