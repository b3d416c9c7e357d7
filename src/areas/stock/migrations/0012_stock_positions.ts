import type { Kysely } from 'kysely';
import type { Engine } from '../../../kernel/db/engine.ts';
import { addPositionColumn } from '../../../kernel/db/position.ts';

/**
 * Stable paging positions for the stock area (docs/architecture.md, "Paging"; docs/stock.md): stock
 * levels (the stock lists and change feeds page by them) and locations (the shops area pages the
 * locations it shows by them, through `locationRows`). Existing rows are numbered in key order.
 *
 * A list of one location (`strlocation`) reads `location_code = ? AND pos >= ? ORDER BY pos`: the
 * index on the location alone becomes one on (location, position), which also serves every lookup
 * by location the old one served.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  await addPositionColumn(db, engine, 'stock_level', ['article_no', 'sizex', 'location_code']);
  await addPositionColumn(db, engine, 'stock_location', ['code']);
  await db.schema.dropIndex('stock_level_location').execute();
  await db.schema
    .createIndex('stock_level_location_pos')
    .on('stock_level')
    .columns(['location_code', 'pos'])
    .execute();
}
