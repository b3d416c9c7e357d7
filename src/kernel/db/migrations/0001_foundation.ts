import { type Kysely, sql } from 'kysely';
import type { Engine } from '../engine.ts';

/** Column types that differ between the engines. */
function types(engine: Engine) {
  return {
    id: engine === 'postgres' ? sql`bigserial` : sql`integer`,
    blob: engine === 'postgres' ? sql`bytea` : sql`blob`,
  } as const;
}

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  const t = types(engine);

  await db.schema
    .createTable('scn_counter')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('value', 'bigint', (c) => c.notNull())
    .execute();
  await db.insertInto('scn_counter').values({ id: 1, value: 0 }).execute();

  await db.schema
    .createTable('api_user')
    .addColumn('id', t.id, (c) => (engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('roles', 'text', (c) => c.notNull())
    .addColumn('customer_no', 'integer')
    .addColumn('client_no', 'integer')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();

  await db.schema
    .createTable('api_token')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('api_user.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('api_token_user').on('api_token').column('user_id').execute();

  await db.schema
    .createTable('size_table')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('size_table_scn').on('size_table').column('scn').execute();

  await db.schema
    .createTable('size_table_size')
    .addColumn('size_table_code', 'text', (c) =>
      c.notNull().references('size_table.code').onDelete('cascade'),
    )
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('sizex', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('size_table_size_pk', ['size_table_code', 'position'])
    .execute();

  await db.schema
    .createTable('article')
    .addColumn('article_no', 'text', (c) => c.primaryKey())
    .addColumn('model_no', 'text', (c) => c.notNull())
    .addColumn('colour_code', 'text', (c) => c.notNull())
    .addColumn('colour_description', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('model_description', 'text', (c) => c.notNull())
    .addColumn('search_name1', 'text', (c) => c.notNull())
    .addColumn('search_name2', 'text', (c) => c.notNull())
    .addColumn('search_name3', 'text', (c) => c.notNull())
    .addColumn('brand', 'text', (c) => c.notNull())
    .addColumn('season', 'text', (c) => c.notNull())
    .addColumn('article_group', 'text', (c) => c.notNull())
    .addColumn('vat_rate_bp', 'integer', (c) => c.notNull())
    .addColumn('size_table_code', 'text', (c) => c.notNull().references('size_table.code'))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('retail', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('article_scn').on('article').column('scn').execute();
  await db.schema.createIndex('article_model').on('article').column('model_no').execute();

  await db.schema
    .createTable('article_size')
    .addColumn('article_no', 'text', (c) => c.notNull().references('article.article_no').onDelete('cascade'))
    .addColumn('sizex', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('barcode', 'text', (c) => c.notNull().unique())
    .addPrimaryKeyConstraint('article_size_pk', ['article_no', 'sizex'])
    .execute();

  await db.schema
    .createTable('article_parameter_code')
    .addColumn('article_no', 'text', (c) => c.notNull().references('article.article_no').onDelete('cascade'))
    .addColumn('parameter_code', 'integer', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('article_parameter_code_pk', ['article_no', 'parameter_code'])
    .execute();

  await db.schema
    .createTable('article_parameter_number')
    .addColumn('article_no', 'text', (c) => c.notNull().references('article.article_no').onDelete('cascade'))
    .addColumn('parameter_code', 'integer', (c) => c.notNull())
    .addColumn('parameter_no', 'integer', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('article_parameter_number_pk', ['article_no', 'parameter_code', 'parameter_no'])
    .execute();

  await db.schema
    .createTable('article_image')
    .addColumn('article_no', 'text', (c) => c.notNull().references('article.article_no').onDelete('cascade'))
    .addColumn('image_no', 'integer', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('byte_size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('data', t.blob, (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('article_image_pk', ['article_no', 'image_no'])
    .execute();
  await db.schema.createIndex('article_image_scn').on('article_image').column('scn').execute();
}
