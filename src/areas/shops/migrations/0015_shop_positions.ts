import type { Kysely } from 'kysely';
import type { Engine } from '../../../kernel/db/engine.ts';
import { addPositionColumn } from '../../../kernel/db/position.ts';

/**
 * Stable paging positions for the shops area (docs/architecture.md, "Paging"; docs/shops.md, "Paging"):
 * shop images, assistants, home page blocks and validation patterns, each numbered in the key order
 * its list had; shop details (whose position orders the shops that allow pickup) and pickup points.
 * The shops list itself pages by the stock location's position (the stock area's migration 0012).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  await addPositionColumn(db, engine, 'shop_detail', ['location_code']);
  await addPositionColumn(db, engine, 'shop_image', ['location_code', 'image_no']);
  await addPositionColumn(db, engine, 'shop_assistant', ['location_code', 'assistant_no']);
  await addPositionColumn(db, engine, 'pickup_point', ['code']);
  await addPositionColumn(db, engine, 'home_page_block', ['page', 'block_no']);
  await addPositionColumn(db, engine, 'company_regex', ['name', 'country']);
}
