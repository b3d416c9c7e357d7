import { CompiledQuery, type Kysely, sql } from 'kysely';
import { onPostgres } from './engine.ts';
import type { DB } from './schema.ts';
import { horizonScn, snapshotToken, transactionScn } from './scn-horizon.ts';

/**
 * SQLite: takes the next SCN from the counter row (BEGIN IMMEDIATE has already serialised the
 * writers, so the counter counts commits in order).
 */
export async function nextScn(db: Kysely<DB>): Promise<number> {
  // The statement Kysely builds for it, kept as text: building it anew cost about 1.5 % of a web
  // order's CPU (docs/benchmarks.md, "Fifth round"), and every SQLite write transaction takes one.
  const { rows } = await db.executeQuery<{ value: number }>(CompiledQuery.raw(NEXT_SCN, [1]));
  const row = rows[0];
  if (row === undefined) throw new Error('the SCN counter row is missing');
  return Number(row.value);
}

const NEXT_SCN = 'update "scn_counter" set "value" = value + 1 where "id" = ? returning "value"';

/**
 * PostgreSQL: the transaction's SCN (scn-horizon.ts), and with `lock` the counter row's lock until
 * the transaction ends, which orders the transaction after every writer that took it before and
 * before every writer that takes it later (for check-then-act work).
 */
export async function postgresScn(db: Kysely<DB>, lock: boolean): Promise<number> {
  if (lock) await sql`SELECT 1 FROM scn_counter WHERE id = 1 FOR UPDATE`.execute(db);
  return transactionScn(db);
}

/**
 * The SCN a reader may take as its cursor: every transaction with an SCN up to it has ended, so
 * reading it before the rows it bounds misses no commit. SQLite: the counter; PostgreSQL: the
 * horizon (scn-horizon.ts).
 */
export async function currentScn(db: Kysely<DB>): Promise<number> {
  if (onPostgres(db)) return horizonScn(db);
  // compiled once and kept as text, as NEXT_SCN: the single-article read takes one a turn
  // (decision 52); the text is scnCounterValue's, so the two reads of the counter cannot part
  currentScnText ??= scnCounterValue(db).compile();
  const { rows } = await db.executeQuery<{ value: number }>(
    CompiledQuery.raw(currentScnText.sql, currentScnText.parameters as unknown[]),
  );
  const row = rows[0];
  if (row === undefined) throw new Error('the SCN counter row is missing');
  return Number(row.value);
}

let currentScnText: CompiledQuery | undefined;

/**
 * SQLite: the counter's value as a one-row query (`value`), for a statement that reads it with the
 * rows it bounds: one statement reads in one snapshot, so the value counts exactly the commits in
 * them (one article's stock: decision 49). On PostgreSQL the counter is no reader's cursor (the
 * horizon is: `currentScn`).
 */
export function scnCounterValue(db: Kysely<DB>) {
  return db.selectFrom('scn_counter').select('value').where('id', '=', 1);
}

/**
 * A value that changes whenever a write commits (for caches: equal values mean nothing committed
 * in between). SQLite: the counter; PostgreSQL: the snapshot (the horizon may stand still while a
 * later transaction commits).
 */
export async function changeToken(db: Kysely<DB>): Promise<string> {
  if (onPostgres(db)) return snapshotToken(db);
  return String(await currentScn(db));
}

/**
 * Whether the database has never been written (no SCN was ever handed out): SQLite, the counter is
 * 0; PostgreSQL, no table holds a row (the counter's base says nothing).
 */
export async function neverWritten(db: Kysely<DB>): Promise<boolean> {
  if (!onPostgres(db)) return (await currentScn(db)) === 0;
  const { rows } = await sql<{ tables: string[] | null }>`
    SELECT array_agg(table_name::text) AS tables FROM information_schema.columns
    WHERE table_schema = current_schema() AND column_name = 'scn' AND table_name <> 'scn_counter'`.execute(
    db,
  );
  for (const table of rows[0]?.tables ?? []) {
    const { rows: found } = await sql`SELECT 1 FROM ${sql.table(table)} LIMIT 1`.execute(db);
    if (found.length > 0) return false;
  }
  return true;
}
