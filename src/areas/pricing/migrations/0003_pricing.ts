import { type Kysely, sql } from 'kysely';
import type { Engine } from '../../../kernel/db/engine.ts';

/** Customers (minimal), list prices, price agreements, customer line discounts, action prices. */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  const id = engine === 'postgres' ? sql`bigserial` : sql`integer`;
  const money = 'bigint';

  await db.schema
    .createTable('customer')
    .addColumn('customer_no', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('price_group', 'integer', (c) => c.notNull())
    .addColumn('customer_group', 'text')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('discount_bp', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('customer_scn').on('customer').column('scn').execute();

  await db.schema
    .createTable('list_price')
    .addColumn('article_no', 'text', (c) => c.notNull().references('article.article_no'))
    .addColumn('price_type', 'text', (c) => c.notNull())
    .addColumn('price_group', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('sizex', 'text', (c) => c.notNull())
    .addColumn('price_minor', money, (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('list_price_pk', [
      'article_no',
      'price_type',
      'price_group',
      'currency',
      'sizex',
    ])
    .execute();
  await db.schema.createIndex('list_price_scn').on('list_price').column('scn').execute();

  await db.schema
    .createTable('price_article')
    .addColumn('article_no', 'text', (c) => c.primaryKey().references('article.article_no'))
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .execute();
  // Covering index: paging by offset in article order skips entries without touching the table.
  await db.schema
    .createIndex('price_article_order')
    .on('price_article')
    .columns(['article_no', 'scn', 'deleted'])
    .execute();
  await db.schema.createIndex('price_article_scn').on('price_article').column('scn').execute();

  await db.schema
    .createTable('price_agreement')
    .addColumn('id', id, (c) => (engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('customer_no', 'integer', (c) => c.references('customer.customer_no'))
    .addColumn('customer_group', 'text')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('scope_value', 'text', (c) => c.notNull())
    .addColumn('min_quantity', 'integer', (c) => c.notNull())
    .addColumn('valid_from', 'text', (c) => c.notNull())
    .addColumn('valid_to', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('discount_bp', 'integer')
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('price_agreement_scn').on('price_agreement').column('scn').execute();
  await db.schema
    .createIndex('price_agreement_scope')
    .on('price_agreement')
    .columns(['scope', 'scope_value'])
    .execute();
  await db.schema
    .createIndex('price_agreement_customer')
    .on('price_agreement')
    .column('customer_no')
    .execute();
  await db.schema
    .createIndex('price_agreement_group')
    .on('price_agreement')
    .column('customer_group')
    .execute();

  await db.schema
    .createTable('price_agreement_price')
    .addColumn('agreement_id', 'bigint', (c) =>
      c.notNull().references('price_agreement.id').onDelete('cascade'),
    )
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('price_minor', money, (c) => c.notNull())
    .addPrimaryKeyConstraint('price_agreement_price_pk', ['agreement_id', 'currency'])
    .execute();

  await db.schema
    .createTable('customer_line_discount')
    .addColumn('id', id, (c) => (engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('customer_no', 'integer', (c) => c.notNull().references('customer.customer_no'))
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('scope_value', 'text', (c) => c.notNull())
    .addColumn('discount_bp', 'integer', (c) => c.notNull())
    .addColumn('valid_from', 'text', (c) => c.notNull())
    .addColumn('valid_to', 'text')
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('customer_line_discount_scn')
    .on('customer_line_discount')
    .column('scn')
    .execute();
  await db.schema
    .createIndex('customer_line_discount_customer')
    .on('customer_line_discount')
    .column('customer_no')
    .execute();

  await db.schema
    .createTable('action_price')
    .addColumn('id', id, (c) => (engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('article_no', 'text', (c) => c.notNull().references('article.article_no'))
    .addColumn('sizex', 'text')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('price_minor', money, (c) => c.notNull())
    .addColumn('start_date', 'text', (c) => c.notNull())
    .addColumn('end_date', 'text', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('action_price_scn').on('action_price').column('scn').execute();
  await db.schema.createIndex('action_price_article').on('action_price').column('article_no').execute();
}
