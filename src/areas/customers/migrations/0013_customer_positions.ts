import type { Kysely } from 'kysely';
import type { Engine } from '../../../kernel/db/engine.ts';
import { addPositionColumn } from '../../../kernel/db/position.ts';

/**
 * Stable paging positions for the customers area (docs/architecture.md, "Paging"; docs/customers.md):
 * customers, representatives, the representative memberships (which order a representative's
 * customers and a customer's representatives) and customer-article links, each numbered in the key
 * order its list had. A representative's customers and a customer's links are read per owner, so
 * those two lists get an index on (owner, pos); the memberships an index on scn for their feed.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  await addPositionColumn(db, engine, 'customer', ['customer_no']);
  await addPositionColumn(db, engine, 'representative', ['code']);
  await addPositionColumn(db, engine, 'representative_customer', ['representative_code', 'customer_no']);
  await addPositionColumn(db, engine, 'customer_article_link', ['customer_no', 'article_no']);
  await db.schema
    .createIndex('representative_customer_scn')
    .on('representative_customer')
    .column('scn')
    .execute();
  await db.schema
    .createIndex('representative_customer_representative_pos')
    .on('representative_customer')
    .columns(['representative_code', 'pos'])
    .execute();
  await db.schema
    .createIndex('customer_article_link_customer_pos')
    .on('customer_article_link')
    .columns(['customer_no', 'pos'])
    .execute();
}
