import type { Kysely } from 'kysely';
import type { DB } from '../../kernel/db/schema.ts';

// --- query fragments: the stock area's tables inside another area's statement -----------------
// Another area's statement that must join the locations (shops: a shop is a stock location with
// details) joins this subquery instead of naming the table; both engines flatten it into the
// statement, so the plan is that of a plain join.

/** A location's own columns, as every read of it selects them. */
export const LOCATION_FIELDS = [
  'code',
  'name',
  'kind',
  'serves_wholesale',
  'serves_retail',
  'active',
  'address',
  'house_number',
  'postal_code',
  'city',
  'country',
  'deleted',
  'scn',
] as const;

/**
 * Every stock location (deleted ones included), with its stable paging position `pos`: join as
 * `.innerJoin(locationRows(db).as('l'), 'l.code', ...)`, page as `l.pos >= ? ORDER BY l.pos`.
 */
export function locationRows(db: Kysely<DB>) {
  return db.selectFrom('stock_location').select(['pos', 'seen_shop', ...LOCATION_FIELDS]);
}
