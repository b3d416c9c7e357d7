import { type Kysely, sql } from 'kysely';
import type { DB } from './schema.ts';

/**
 * The SCN taken at the end of a write transaction (PostgreSQL; docs/architecture.md, "SCN").
 *
 * A write transaction stamps the rows it changes with a provisional number (negative, unique to the
 * transaction) and takes its real SCN only as its last statement before COMMIT: one call of the
 * function `tv2_stamp_scn(provisional, scn)` increments the counter (its row lock orders the
 * commits, as before) and restamps every row carrying the provisional number with the real one.
 * So the counter's lock is held for one statement and the commit, not for the whole transaction,
 * and never while Node works. Readers never see a provisional number: it is replaced before the
 * transaction commits.
 *
 * The function is written by `installScnStamping` after the migrations, from the tables that have
 * an `scn` column at that time, each with a partial index on the provisional rows (`scn < 0`,
 * normally empty), so a restamp costs what the transaction wrote.
 */

/** The name of the function; its body lists the tables with an `scn` column. */
const FUNCTION = 'tv2_stamp_scn';
/** Serialises the installation between processes starting at once (pg_advisory_xact_lock key). */
const INSTALL_LOCK = 0x74763273; // 'tv2s'

/** Writes (or rewrites, when the tables changed) the stamping function and the partial indexes. */
export async function installScnStamping(db: Kysely<DB>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${INSTALL_LOCK})`.execute(trx);
    const { rows } = await sql<{ table_name: string }>`
      SELECT table_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND column_name = 'scn' AND table_name <> 'scn_counter'
      ORDER BY table_name`.execute(trx);
    const tables = rows.map((r) => r.table_name);
    for (const table of tables) {
      await sql`CREATE INDEX IF NOT EXISTS ${sql.id(`${table}_scn_provisional`)} ON ${sql.table(table)} (scn) WHERE scn < 0`.execute(
        trx,
      );
    }
    const body = functionBody(tables);
    const { rows: existing } = await sql<{ prosrc: string }>`
      SELECT prosrc FROM pg_proc WHERE proname = ${FUNCTION} AND pronamespace = current_schema()::regnamespace`.execute(
      trx,
    );
    if (existing[0]?.prosrc === body) return;
    await sql`CREATE OR REPLACE FUNCTION ${sql.id(FUNCTION)}(provisional bigint, taken bigint) RETURNS bigint
      LANGUAGE plpgsql AS ${sql.lit(body)}`.execute(trx);
  });
}

function functionBody(tables: string[]): string {
  const restamp = tables.map((t) => `  UPDATE "${t}" SET scn = s WHERE scn = provisional;`).join('\n');
  return `
DECLARE s bigint := taken;
BEGIN
  IF s IS NULL THEN
    UPDATE scn_counter SET value = value + 1 WHERE id = 1 RETURNING value INTO s;
  END IF;
${restamp}
  RETURN s;
END`;
}

/**
 * Takes the transaction's SCN (unless `taken` already holds it) and restamps the rows stamped with
 * `provisional`: the last statement of the transaction.
 */
export async function stampScn(trx: Kysely<DB>, provisional: number, taken: number | null): Promise<number> {
  const { rows } = await sql<{
    scn: string | number;
  }>`SELECT ${sql.id(FUNCTION)}(${provisional}::bigint, ${taken}::bigint) AS scn`.execute(trx);
  return Number(rows[0]?.scn);
}

let provisionalCount = 0;

/**
 * A provisional SCN: negative, different for every transaction of this process and (by its random
 * part) practically never equal to another process's. Uniqueness is a second line only: a row
 * another transaction stamped and has not committed is not visible to this one's restamp.
 */
export function provisionalScn(): number {
  provisionalCount = (provisionalCount + 1) % 1024;
  return -(Math.floor(Math.random() * 2 ** 42) * 1024 + provisionalCount + 1);
}

/**
 * `value` with every number equal to `provisional` replaced by `scn`, in plain objects and arrays:
 * a transaction's answer may carry the number it stamped its rows with (an admin write answers its
 * SCN), and it leaves the transaction as the real one.
 */
export function settleScn<T>(value: T, provisional: number, scn: number): T {
  if (value === provisional) return scn as T;
  if (Array.isArray(value)) return value.map((v) => settleScn(v, provisional, scn)) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = settleScn(v, provisional, scn);
    return out as T;
  }
  return value;
}
