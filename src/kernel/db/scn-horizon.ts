import { CompiledQuery, type Kysely, sql } from 'kysely';
import type { DB } from './schema.ts';

/**
 * The SCN on PostgreSQL: the transaction's own id, read by a horizon (docs/architecture.md, "SCN").
 *
 * A write transaction's SCN is its transaction id (`pg_current_xact_id()`, 64 bits, never reused)
 * plus the base kept in `scn_counter.value` (row 1): known at once, taken without a lock, so writers
 * never queue on one row and commits share WAL flushes. Transaction ids are handed out in start
 * order, not commit order, so a reader cannot take the highest committed SCN as its cursor: a
 * transaction with a lower id may still commit. The reader's SCN is the horizon instead: one below
 * the lowest id still running in this database (or below the next id to be handed out when none
 * runs), so every transaction with an SCN up to the horizon has ended, committed or not, when the
 * horizon is read. A feed reads the horizon first and the rows after it; a commit never hides
 * behind a cursor, as with the counter's row lock before, and a long write only holds the horizon
 * back (its rows and those after it are sent again, never lost).
 *
 * Running transactions of other databases on the same server, and autovacuum's, are left out: they
 * never write these tables. Which database a running id belongs to is read from pg_stat_activity;
 * an id found there for no other database counts as this one's (the safe side).
 *
 * The base: a database first run by this code keeps the counter's last SCN as its base, so every
 * new SCN is above every old one. A database restored into another server (pg_dump, pg_restore)
 * meets transaction ids that start again low; the server's system identifier, kept in row 2, tells
 * that apart, and the base is then raised above the highest SCN any table holds.
 */

/** Serialises the installation between processes starting at once (pg_advisory_xact_lock key). */
const INSTALL_LOCK = 0x74763273; // 'tv2s'
/** Row 2 of scn_counter holds the server's system identifier the base was checked against. */
const SYSTEM_ROW = 2;

/** The SCN of the calling transaction (assigns it a transaction id if it has none yet). */
const SCN_FUNCTION = `
  SELECT pg_current_xact_id()::text::bigint + value FROM scn_counter WHERE id = 1`;

/**
 * The highest SCN every transaction up to which has ended: see above. With no transaction running
 * it is the next id less one (no look at the backends); otherwise the lowest running id that is
 * not another database's or autovacuum's, read from pg_stat_get_activity (the function under the
 * pg_stat_activity view, without its joins), whose 32-bit backend_xid is compared with the 64-bit
 * ids of the snapshot modulo 2^32.
 */
const HORIZON_FUNCTION = `
DECLARE
  snap pg_snapshot := pg_current_snapshot();
  lowest bigint;
BEGIN
  IF pg_snapshot_xmin(snap) <> pg_snapshot_xmax(snap) THEN
    SELECT min(x::text::bigint) INTO lowest FROM pg_snapshot_xip(snap) AS x
    WHERE (x::text::bigint % 4294967296) NOT IN (
      SELECT a.backend_xid::text::bigint FROM pg_stat_get_activity(NULL::integer) AS a
      WHERE a.backend_xid IS NOT NULL
        AND (a.datid IS DISTINCT FROM (SELECT oid FROM pg_database WHERE datname = current_database())
             OR a.backend_type = 'autovacuum worker'));
  END IF;
  RETURN coalesce(lowest, pg_snapshot_xmax(snap)::text::bigint) - 1
    + (SELECT value FROM scn_counter WHERE id = 1);
END`;

/**
 * Installs the SCN functions (after the migrations), checks the base against the server (see
 * above) and removes what the SCN taken at the end needed (its function and partial indexes).
 */
export async function installScnHorizon(db: Kysely<DB>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${INSTALL_LOCK})`.execute(trx);
    await sql`CREATE OR REPLACE FUNCTION tv2_scn() RETURNS bigint LANGUAGE sql VOLATILE AS ${sql.lit(SCN_FUNCTION)}`.execute(
      trx,
    );
    await sql`CREATE OR REPLACE FUNCTION tv2_scn_horizon() RETURNS bigint LANGUAGE plpgsql VOLATILE AS ${sql.lit(HORIZON_FUNCTION)}`.execute(
      trx,
    );
    const tables = await scnTables(trx);
    await sql`DROP FUNCTION IF EXISTS tv2_stamp_scn(bigint, bigint)`.execute(trx);
    for (const table of tables) {
      await sql`DROP INDEX IF EXISTS ${sql.id(`${table}_scn_provisional`)}`.execute(trx);
    }
    await checkBase(trx, tables);
  });
}

async function scnTables(db: Kysely<DB>): Promise<string[]> {
  const { rows } = await sql<{ table_name: string }>`
    SELECT table_name FROM information_schema.columns
    WHERE table_schema = current_schema() AND column_name = 'scn' AND table_name <> 'scn_counter'
    ORDER BY table_name`.execute(db);
  return rows.map((r) => r.table_name);
}

/**
 * Raises the base when the database moved to another server: every SCN handed out from now on is
 * above every SCN the tables hold. On the server the base was last checked on, nothing is read.
 */
async function checkBase(trx: Kysely<DB>, tables: string[]): Promise<void> {
  const { rows } = await sql<{ system: string; checked: string | null }>`
    SELECT (SELECT system_identifier FROM pg_control_system())::text AS system,
           (SELECT value::text FROM scn_counter WHERE id = ${SYSTEM_ROW}) AS checked`.execute(trx);
  const system = rows[0]?.system ?? '0';
  const checked = rows[0]?.checked ?? null;
  if (checked === system) return;
  if (checked !== null) {
    // Another server: transaction ids start again; the base goes above the highest stored SCN.
    const highest = tables.length
      ? sql.join(
          tables.map((t) => sql`(SELECT max(scn) FROM ${sql.table(t)})`),
          sql`, `,
        )
      : sql`0`;
    await sql`
      UPDATE scn_counter SET value = value + greatest(0, greatest(${highest}, 0) - tv2_scn() + 1)
      WHERE id = 1`.execute(trx);
  }
  // First run of this code on the database (the counter's last SCN is the base) or just raised.
  await sql`
    INSERT INTO scn_counter (id, value) VALUES (${SYSTEM_ROW}, ${system}::bigint)
    ON CONFLICT (id) DO UPDATE SET value = excluded.value`.execute(trx);
}

// Run as compiled text: these run on every write and every read of an SCN, nothing to build.
const TRANSACTION_SCN = CompiledQuery.raw('SELECT tv2_scn() AS scn') as CompiledQuery<{
  scn: string | number;
}>;
const HORIZON_SCN = CompiledQuery.raw('SELECT tv2_scn_horizon() AS scn') as CompiledQuery<{
  scn: string | number;
}>;

/**
 * The calling transaction's SCN as an SQL expression, for a statement that takes it itself (a
 * write of one statement: unit-of-work.ts, inOneStatement); the same number as transactionScn.
 */
export const transactionScnSql = sql<number>`tv2_scn()`;

/** The calling transaction's SCN (no lock). */
export async function transactionScn(trx: Kysely<DB>): Promise<number> {
  const { rows } = await trx.executeQuery(TRANSACTION_SCN);
  return Number(rows[0]?.scn);
}

/** The horizon: the highest SCN every transaction up to which has ended. */
export async function horizonScn(db: Kysely<DB>): Promise<number> {
  const { rows } = await db.executeQuery(HORIZON_SCN);
  return Number(rows[0]?.scn);
}

/**
 * A value that changes whenever a transaction of the server ends: the snapshot's text
 * (`xmin:xmax:running ids`). Equal values mean no write committed in between (caches).
 */
export async function snapshotToken(db: Kysely<DB>): Promise<string> {
  const { rows } = await sql<{ s: string }>`SELECT pg_current_snapshot()::text AS s`.execute(db);
  return String(rows[0]?.s);
}
