import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Engine } from '../../../kernel/db/engine.ts';

/**
 * Wholesale customers in full (docs/customers.md): the pricing area's `customer` table gains names,
 * VAT number, language, payment terms, credit limit, an external key and a representative (columns
 * with defaults, so rows pricing wrote stay valid); new tables for numbered addresses,
 * representatives, which representative has (or had) which customer, and customer-article links.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is
export async function up(db: Kysely<any>, _engine: Engine): Promise<void> {
  await db.schema
    .createTable('representative')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('phone', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('representative_scn').on('representative').column('scn').execute();

  // One ALTER per column: SQLite adds one column a statement.
  type Build = (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
  const columns: Array<[string, 'text' | 'integer' | 'bigint', Build]> = [
    ['external_key', 'text', (c) => c],
    ['name2', 'text', (c) => c.notNull().defaultTo('')],
    ['vat_no', 'text', (c) => c.notNull().defaultTo('')],
    ['language', 'text', (c) => c.notNull().defaultTo('LANGUAGE_1')],
    ['payment_days', 'integer', (c) => c.notNull().defaultTo(30)],
    ['credit_limit_minor', 'bigint', (c) => c.notNull().defaultTo(0)],
    ['representative_code', 'text', (c) => c.references('representative.code')],
  ];
  for (const [name, type, build] of columns) {
    await db.schema.alterTable('customer').addColumn(name, type, build).execute();
  }
  await db.schema
    .createIndex('customer_external_key')
    .unique()
    .on('customer')
    .column('external_key')
    .execute();
  await db.schema
    .createIndex('customer_representative')
    .on('customer')
    .column('representative_code')
    .execute();

  // Address 0 is the invoice address, 1, 2, ... delivery addresses; numbers are never reused.
  await db.schema
    .createTable('customer_address')
    .addColumn('customer_no', 'integer', (c) => c.notNull().references('customer.customer_no'))
    .addColumn('address_no', 'integer', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('house_number', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('postal_code', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('city', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('country', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('map_area', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('post_box', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('customer_address_pk', ['customer_no', 'address_no'])
    .execute();

  // Membership of a customer in a representative's list; a customer that moves away keeps its row,
  // flagged, so paging a representative's customers never shifts and the feed reports it.
  await db.schema
    .createTable('representative_customer')
    .addColumn('representative_code', 'text', (c) => c.notNull().references('representative.code'))
    .addColumn('customer_no', 'integer', (c) => c.notNull().references('customer.customer_no'))
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('representative_customer_pk', ['representative_code', 'customer_no'])
    .execute();
  await db.schema
    .createIndex('representative_customer_customer')
    .on('representative_customer')
    .column('customer_no')
    .execute();

  await db.schema
    .createTable('customer_article_link')
    .addColumn('customer_no', 'integer', (c) => c.notNull().references('customer.customer_no'))
    .addColumn('article_no', 'text', (c) => c.notNull().references('article.article_no'))
    .addColumn('customer_article_no', 'text', (c) => c.notNull())
    .addColumn('customer_description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('customer_barcode', 'text')
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('customer_article_link_pk', ['customer_no', 'article_no'])
    .execute();
  await db.schema
    .createIndex('customer_article_link_scn')
    .on('customer_article_link')
    .column('scn')
    .execute();
  await db.schema
    .createIndex('customer_article_link_own')
    .on('customer_article_link')
    .columns(['customer_no', 'customer_article_no'])
    .execute();
}
