import { sql } from 'kysely';
import { keptPerCount } from '../../kernel/db/compiled-once.ts';
import type { StockLevelTable, StockMovementTable } from './tables.ts';

/**
 * The multi-row statements of the stock repository: rows per statement, the levels with quantities
 * as a VALUES table, and the statements kept compiled per count of rows.
 */

/** One stock level: an article's size at a location. */
export interface LevelKey {
  articleNo: string;
  sizex: string;
  locationCode: string;
}

/** A level as the repository reads and writes it (its paging position is the database's). */
export type LevelRow = Omit<StockLevelTable, 'pos'>;

export type MovementRow = Omit<StockMovementTable, 'id'>;

/** Rows per multi-row statement: well under SQLite's and PostgreSQL's bound-parameter limits. */
export const CHUNK = 500;

export function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** A ledger row's columns in the order its insert binds them (keptMovements). */
export const MOVEMENT_COLUMNS = [
  'scn',
  'article_no',
  'sizex',
  'location_code',
  'reason',
  'on_hand_delta',
  'reserved_delta',
  'reference',
  'created_at',
] as const satisfies ReadonlyArray<keyof MovementRow>;

export function pick<T, K extends keyof T>(row: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((k) => [k, row[k]])) as Pick<T, K>;
}

/**
 * The statements an order runs per count of its levels, kept compiled (kernel/db/compiled-once.ts):
 * building them anew was about a tenth of a web order's CPU (docs/benchmarks.md, "Seventh round").
 */
export const keptReservations = keptPerCount<LevelRow>();
export const keptMovements = keptPerCount<unknown>();

/**
 * Level keys with a quantity as a table for one statement: `(select column1 as key_article, ...
 * from (values (?, ?, ?, ?), ...))`, with columns named apart from stock_level's so that neither
 * engine finds a bare column name ambiguous. The quantity is cast: PostgreSQL types a bare
 * parameter in VALUES as text.
 */
export function quantitiesOf(rows: ReadonlyArray<LevelKey & { quantity: number }>) {
  const values = sql.join(
    rows.map((r) => sql`(${r.articleNo}, ${r.sizex}, ${r.locationCode}, cast(${r.quantity} as integer))`),
  );
  return sql<{
    key_article: string;
    key_sizex: string;
    key_location: string;
    quantity: number;
  }>`(select column1 as key_article, column2 as key_sizex, column3 as key_location, column4 as quantity from (values ${values}) as v)`;
}
