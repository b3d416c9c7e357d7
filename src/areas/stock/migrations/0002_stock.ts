import { type Kysely, sql } from 'kysely';
import type { Engine } from '../../../kernel/db/engine.ts';

/**
 * The stock area: locations, stock levels per location/article/size, and the ledger of movements
 * whose sum every level is (docs/stock.md). Quantities are `integer` on both engines (SUM of an
 * integer column is a bigint on PostgreSQL, read back as a JS number).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  await db.schema
    .createTable('stock_location')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('serves_wholesale', 'integer', (c) => c.notNull())
    .addColumn('serves_retail', 'integer', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('address', 'text')
    .addColumn('house_number', 'text')
    .addColumn('postal_code', 'text')
    .addColumn('city', 'text')
    .addColumn('country', 'text')
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addCheckConstraint('stock_location_kind', sql`kind in ('SHOP', 'WAREHOUSE')`)
    .execute();
  await db.schema.createIndex('stock_location_scn').on('stock_location').column('scn').execute();

  await db.schema
    .createTable('stock_level')
    .addColumn('article_no', 'text', (c) => c.notNull().references('article.article_no'))
    .addColumn('sizex', 'text', (c) => c.notNull())
    .addColumn('location_code', 'text', (c) => c.notNull().references('stock_location.code'))
    .addColumn('on_hand', 'integer', (c) => c.notNull())
    .addColumn('reserved', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('stock_level_pk', ['article_no', 'sizex', 'location_code'])
    // The last line of defence of "never oversold": the service's conditional updates keep this
    // true, and a bug that would break it fails the transaction instead of selling stock twice.
    .addCheckConstraint('stock_level_available', sql`reserved >= 0 and on_hand >= reserved`)
    .execute();
  await db.schema.createIndex('stock_level_scn').on('stock_level').column('scn').execute();
  await db.schema.createIndex('stock_level_location').on('stock_level').column('location_code').execute();

  await db.schema
    .createTable('stock_movement')
    .addColumn('id', engine === 'postgres' ? sql`bigserial` : sql`integer`, (c) =>
      engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addColumn('article_no', 'text', (c) => c.notNull().references('article.article_no'))
    .addColumn('sizex', 'text', (c) => c.notNull())
    .addColumn('location_code', 'text', (c) => c.notNull().references('stock_location.code'))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('on_hand_delta', 'integer', (c) => c.notNull())
    .addColumn('reserved_delta', 'integer', (c) => c.notNull())
    .addColumn('reference', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('stock_movement_scn').on('stock_movement').column('scn').execute();
  await db.schema
    .createIndex('stock_movement_level')
    .on('stock_movement')
    .columns(['article_no', 'sizex', 'location_code'])
    .execute();
}
