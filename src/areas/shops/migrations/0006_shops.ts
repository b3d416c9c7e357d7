import { type Kysely, sql } from 'kysely';
import type { Engine } from '../../../kernel/db/engine.ts';

/**
 * The shops area (docs/shops.md): details of the stock locations of kind SHOP (contact, geo
 * position in micro-degrees, opening hours as JSON text, pickup flag), their images and assistants,
 * external pickup points, the content blocks of the consumer app's pages and the validation
 * patterns for client apps. Every listed row has an `scn`; deletions are flagged rows.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  const blob = engine === 'postgres' ? sql`bytea` : sql`blob`;

  await db.schema
    .createTable('shop_detail')
    .addColumn('location_code', 'text', (c) => c.primaryKey().references('stock_location.code'))
    .addColumn('phone', 'text')
    .addColumn('email', 'text')
    .addColumn('latitude_micro', 'integer')
    .addColumn('longitude_micro', 'integer')
    .addColumn('pickup', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('opening_hours', 'text', (c) => c.notNull())
    .addColumn('hours_exceptions', 'text', (c) => c.notNull())
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('shop_detail_scn').on('shop_detail').column('scn').execute();

  await db.schema
    .createTable('shop_image')
    .addColumn('location_code', 'text', (c) => c.notNull().references('stock_location.code'))
    .addColumn('image_no', 'integer', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('byte_size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('data', blob, (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('shop_image_pk', ['location_code', 'image_no'])
    .execute();
  await db.schema.createIndex('shop_image_scn').on('shop_image').column('scn').execute();

  await db.schema
    .createTable('shop_assistant')
    .addColumn('location_code', 'text', (c) => c.notNull().references('stock_location.code'))
    .addColumn('assistant_no', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('photo_image_no', 'integer')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('shop_assistant_pk', ['location_code', 'assistant_no'])
    .execute();
  await db.schema.createIndex('shop_assistant_scn').on('shop_assistant').column('scn').execute();

  await db.schema
    .createTable('pickup_point')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('house_number', 'text')
    .addColumn('postal_code', 'text')
    .addColumn('city', 'text')
    .addColumn('country', 'text')
    .addColumn('latitude_micro', 'integer', (c) => c.notNull())
    .addColumn('longitude_micro', 'integer', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pickup_point_scn').on('pickup_point').column('scn').execute();

  await db.schema
    .createTable('home_page_block')
    .addColumn('page', 'text', (c) => c.notNull())
    .addColumn('block_no', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('image', 'text')
    .addColumn('link', 'text')
    .addColumn('valid_from', 'text')
    .addColumn('valid_to', 'text')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('home_page_block_pk', ['page', 'block_no'])
    .execute();
  await db.schema.createIndex('home_page_block_scn').on('home_page_block').column('scn').execute();

  await db.schema
    .createTable('company_regex')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('pattern', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('company_regex_pk', ['name', 'country'])
    .execute();
  await db.schema.createIndex('company_regex_scn').on('company_regex').column('scn').execute();
}
