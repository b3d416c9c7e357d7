import { type Kysely, sql } from 'kysely';
import type { Engine } from '../../../kernel/db/engine.ts';

/**
 * Retail clients (docs/clients.md): the client with contact data, consents and member card; photos;
 * purchases (filled by the orders area); on-account entries; user messages; client actions and
 * their claims. Money is integer minor units (`bigint`), flags integers, instants and days text.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  const id = engine === 'postgres' ? sql`bigserial` : sql`integer`;
  const blob = engine === 'postgres' ? sql`bytea` : sql`blob`;
  const money = 'bigint';

  await db.schema
    .createTable('client')
    .addColumn('client_no', 'integer', (c) => c.primaryKey())
    .addColumn('email', 'text')
    .addColumn('email_norm', 'text')
    .addColumn('first_name', 'text')
    .addColumn('middle_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('phone', 'text')
    .addColumn('address', 'text')
    .addColumn('house_number', 'text')
    .addColumn('postal_code', 'text')
    .addColumn('city', 'text')
    .addColumn('country', 'text')
    .addColumn('birth_date', 'text')
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('consent_newsletter_at', 'text')
    .addColumn('consent_sms_at', 'text')
    .addColumn('consent_profiling_at', 'text')
    .addColumn('card_no', 'text')
    .addColumn('card_level', 'text')
    .addColumn('card_valid_from', 'text')
    .addColumn('card_valid_to', 'text')
    .addColumn('home_shop', 'text')
    .addColumn('marked_for_deletion', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('marked_at', 'text')
    .addColumn('anonymised', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('anonymised_at', 'text')
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // One client per e-mail address, also under concurrent creates; NULLs (anonymised) do not clash.
  await db.schema.createIndex('client_email_norm').on('client').column('email_norm').unique().execute();
  await db.schema.createIndex('client_card_no').on('client').column('card_no').unique().execute();
  await db.schema.createIndex('client_scn').on('client').column('scn').execute();
  await db.schema
    .createIndex('client_marked')
    .on('client')
    .columns(['marked_for_deletion', 'marked_at'])
    .execute();

  await db.schema
    .createTable('client_photo')
    .addColumn('client_no', 'integer', (c) => c.notNull().references('client.client_no'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('byte_size', 'integer', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('data', blob, (c) => c.notNull())
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('client_photo_pk', ['client_no', 'kind'])
    .addCheckConstraint('client_photo_kind', sql`kind in ('PROFILE', 'CARD')`)
    .execute();

  await db.schema
    .createTable('client_purchase')
    .addColumn('purchase_no', id, (c) =>
      engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('client_no', 'integer', (c) => c.notNull().references('client.client_no'))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('shop_code', 'text')
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('purchased_at', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('total_minor', money, (c) => c.notNull())
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('client_purchase_reference', ['source', 'reference'])
    .addCheckConstraint('client_purchase_source', sql`source in ('SHOP', 'WEB')`)
    .execute();
  await db.schema
    .createIndex('client_purchase_client')
    .on('client_purchase')
    .columns(['client_no', 'purchase_no'])
    .execute();

  await db.schema
    .createTable('client_purchase_line')
    .addColumn('purchase_no', 'bigint', (c) =>
      c.notNull().references('client_purchase.purchase_no').onDelete('cascade'),
    )
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('article_no', 'text', (c) => c.notNull())
    .addColumn('sizex', 'text', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('unit_price_minor', money, (c) => c.notNull())
    .addColumn('amount_minor', money, (c) => c.notNull())
    .addPrimaryKeyConstraint('client_purchase_line_pk', ['purchase_no', 'line_no'])
    .execute();

  await db.schema
    .createTable('client_on_account')
    .addColumn('entry_no', id, (c) =>
      engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('client_no', 'integer', (c) => c.notNull().references('client.client_no'))
    .addColumn('document_no', 'text', (c) => c.notNull().unique())
    .addColumn('document_type', 'text', (c) => c.notNull())
    .addColumn('document_date', 'text', (c) => c.notNull())
    .addColumn('due_date', 'text')
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('amount_minor', money, (c) => c.notNull())
    .addColumn('open_minor', money, (c) => c.notNull())
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('client_on_account_client')
    .on('client_on_account')
    .columns(['client_no', 'document_date'])
    .execute();

  await db.schema
    .createTable('client_message')
    .addColumn('message_no', id, (c) =>
      engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('client_no', 'integer', (c) => c.notNull().references('client.client_no'))
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text', (c) => c.notNull())
    .addColumn('read_at', 'text')
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('client_message_client')
    .on('client_message')
    .columns(['client_no', 'message_no'])
    .execute();

  await db.schema
    .createTable('client_action')
    .addColumn('action_code', 'text', (c) => c.primaryKey())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('client_no', 'integer', (c) => c.references('client.client_no'))
    .addColumn('member_level', 'text')
    .addColumn('valid_from', 'text', (c) => c.notNull())
    .addColumn('valid_to', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('client_action_client').on('client_action').column('client_no').execute();

  await db.schema
    .createTable('client_action_claim')
    .addColumn('action_code', 'text', (c) => c.notNull().references('client_action.action_code'))
    .addColumn('client_no', 'integer', (c) => c.notNull().references('client.client_no'))
    .addColumn('claimed_at', 'text', (c) => c.notNull())
    .addColumn('scn', 'bigint', (c) => c.notNull())
    // Claimed once: the primary key makes a second (or concurrent) claim insert nothing.
    .addPrimaryKeyConstraint('client_action_claim_pk', ['action_code', 'client_no'])
    .execute();
  await db.schema
    .createIndex('client_action_claim_client')
    .on('client_action_claim')
    .column('client_no')
    .execute();
}
