import { type Kysely, sql } from 'kysely';
import type { Engine } from './engine.ts';
import type { DB } from './schema.ts';

/**
 * Query planner statistics on SQLite (docs/architecture.md, "Query plans"). SQLite plans from
 * `sqlite_stat1`, which only ANALYZE writes; without it a join or a filter over a large table can be
 * planned as if every table were small. PostgreSQL keeps its own (autovacuum's ANALYZE).
 *
 * A table is analysed when it has no statistics yet, when one of its indexes has none (an index a
 * migration added to a table analysed before it: the planner would not choose it; ANALYZE writes a
 * row for every index of a table with rows, "0 0" for an empty partial index), or when its size
 * moved by more than a factor of two since they were taken (its size read off the ends of the
 * rowid b-tree, or of the position index of a WITHOUT ROWID table, O(log n)); ANALYZE runs with
 * `analysis_limit` so it reads a bounded sample of each index (about 0.2 s for a million rows)
 * instead of the whole table. It runs after the migrations (so at every start), after an import,
 * and at most every ten minutes after writes, as the data grows. Change feeds do not depend on it:
 * their "changed after" condition carries its own selectivity (feed-sql.ts).
 */

/** The database as statistics need it (a Database; not imported, which would make a cycle). */
interface Analysable {
  db: Kysely<DB>;
  engine: Engine;
}

/**
 * Rows read per index by one ANALYZE (SQLite's analysis_limit). With a limit SQLite also writes no
 * sqlite_stat4 samples (better-sqlite3 is built with STAT4): plans come from sqlite_stat1 alone and
 * never depend on a bound value through samples (see sqlite-driver.ts, valueBlindSql).
 */
const ANALYSIS_LIMIT = 1000;
/** A table is analysed again when its size moved by more than this factor. */
const GROWTH = 2;
/** Writes look again at most this often. */
const CHECK_EVERY_MS = 10 * 60 * 1000;

/**
 * The tables whose statistics are missing or out of date, with their size now and as analysed.
 * Each size is two index reads (the ends of the rowid b-tree or of the position index), not a count.
 */
export async function staleTables(
  db: Kysely<DB>,
): Promise<Array<{ table: string; rows: number; analysed: number | null }>> {
  // A WITHOUT ROWID table has no rowid to read its size off; one with a paging position (which
  // only grows, as a rowid does) is sized by it, one without is left out.
  const { rows: tables } = await sql<{ name: string; size_column: 'rowid' | 'pos' }>`
    SELECT name, CASE WHEN sql LIKE '%WITHOUT ROWID%' THEN 'pos' ELSE 'rowid' END AS size_column
    FROM sqlite_master m
    WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
      AND (sql NOT LIKE '%WITHOUT ROWID%'
        OR EXISTS (SELECT 1 FROM pragma_table_info(m.name) c WHERE c.name = 'pos'))`.execute(db);
  const analysed = new Map<string, number>();
  /** Tables with an index that has no statistics row. */
  const unanalysedIndex = new Set<string>();
  const hasStats = await sql<{
    n: number;
  }>`SELECT count(*) AS n FROM sqlite_master WHERE name = 'sqlite_stat1'`.execute(db);
  if (Number(hasStats.rows[0]?.n) > 0) {
    const { rows } = await sql<{ tbl: string; stat: string }>`SELECT tbl, stat FROM sqlite_stat1`.execute(db);
    for (const r of rows)
      analysed.set(r.tbl, Math.max(analysed.get(r.tbl) ?? 0, Number.parseInt(r.stat, 10) || 0));
    const { rows: missing } = await sql<{ tbl: string }>`
      SELECT DISTINCT i.tbl_name AS tbl FROM sqlite_master i
      WHERE i.type = 'index' AND NOT EXISTS (SELECT 1 FROM sqlite_stat1 s WHERE s.idx = i.name)`.execute(db);
    for (const r of missing) unanalysedIndex.add(r.tbl);
  }
  const stale = [];
  for (const { name, size_column } of tables) {
    const { rows } = await tableSize(name, size_column).execute(db);
    const size = Number(rows[0]?.n ?? 0);
    const before = analysed.get(name);
    const moved =
      before === undefined
        ? size > 0
        : size > Math.max(before, 1) * GROWTH ||
          size * GROWTH < before ||
          (size > 0 && unanalysedIndex.has(name));
    if (moved) {
      stale.push({ table: name, rows: size, analysed: before ?? null });
    }
  }
  return stale;
}

/**
 * A table's size: the span of its rowids (or of its paging positions, dense: max + 1 at each
 * insert), which is its row count for a table that only grows (as ours do: deletions are flagged).
 * A span, not max(rowid): a rowid may be a business number that starts high (customers from
 * 10001, clients from 100001), which max(rowid) alone took for a table that had doubled, at every
 * start. Two subqueries: SQLite reads max() or min() off the b-tree's end only when it stands alone
 * in its SELECT; `max(x) - min(x)` in one SELECT reads the whole table (0.8 s for 4M list prices).
 */
export function tableSize(table: string, column: 'rowid' | 'pos') {
  const c = sql.raw(column);
  return sql<{ n: number | null }>`SELECT (SELECT max(${c}) FROM ${sql.table(table)})
    - (SELECT min(${c}) FROM ${sql.table(table)}) + 1 AS n`;
}

/** Analyses the stale tables (SQLite; nothing on PostgreSQL). Answers the tables it analysed. */
export async function refreshStatistics(database: Analysable): Promise<string[]> {
  if (database.engine !== 'sqlite') return [];
  const stale = await staleTables(database.db);
  if (stale.length === 0) return [];
  await sql`PRAGMA analysis_limit = ${sql.raw(String(ANALYSIS_LIMIT))}`.execute(database.db);
  for (const { table } of stale) await sql`ANALYZE ${sql.table(table)}`.execute(database.db);
  // ANALYZE records nothing for an empty index; a table analysed while empty is looked at again
  // once it has rows, which the size check above sees.
  return stale.map((s) => s.table);
}

const lastCheck = new WeakMap<Analysable, number>();

/**
 * Told after a write transaction committed on SQLite: at most every ten minutes, looks for tables
 * that grew and analyses them, on a later turn of the event loop (never inside a transaction).
 */
export function afterWrite(database: Analysable, now = Date.now()): void {
  const last = lastCheck.get(database);
  if (last === undefined) {
    lastCheck.set(database, now);
    return;
  }
  if (now - last < CHECK_EVERY_MS) return;
  lastCheck.set(database, now);
  setImmediate(() => {
    refreshStatistics(database).catch(() => {
      // A database closed meanwhile, or busy: the next check tries again.
    });
  });
}
