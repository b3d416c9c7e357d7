import type { Kysely } from 'kysely';
import type { Engine } from '../../../kernel/db/engine.ts';
import { addPositionColumn } from '../../../kernel/db/position.ts';

/**
 * Stable paging positions for the catalog (docs/architecture.md, "Paging"): articles (whose position
 * also orders the price and stock lists paged by article), size tables and article images.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  await addPositionColumn(db, engine, 'article', ['article_no']);
  await addPositionColumn(db, engine, 'size_table', ['code']);
  await addPositionColumn(db, engine, 'article_image', ['article_no', 'image_no']);
}
