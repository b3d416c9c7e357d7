import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely';
import type { Engine } from '../../../kernel/db/engine.ts';

/**
 * Open items and payments (docs/billing-issuing.md, "Payments and open items"): one open-item row
 * per issued document (what is still to pay or to refund, never below 0: the allocation's
 * conditional update and, under it, a check), the payments as registered (a unique external
 * reference: the same payment twice is one row, allocated once) and their allocations to
 * documents. Documents issued before this migration get their open item at their gross amount.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  const id = engine === 'postgres' ? sql`bigserial` : sql`integer`;
  const key = (c: ColumnDefinitionBuilder) =>
    engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement();

  await db.schema
    .createTable('billing_open_item')
    .addColumn('document_id', 'bigint', (c) => c.primaryKey().references('billing_document.document_id'))
    .addColumn('customer_no', 'integer', (c) => c.notNull())
    .addColumn('open_amount', 'bigint', (c) => c.notNull())
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addCheckConstraint('billing_open_item_open', sql`open_amount >= 0`)
    .execute();
  await db.schema
    .createIndex('billing_open_item_customer')
    .on('billing_open_item')
    .columns(['customer_no', 'document_id'])
    .execute();
  await sql`insert into billing_open_item (document_id, customer_no, open_amount, scn)
    select document_id, customer_no, gross, scn from billing_document`.execute(db);

  await db.schema
    .createTable('billing_payment')
    .addColumn('payment_id', id, key)
    .addColumn('external_ref', 'text', (c) => c.notNull())
    .addColumn('payment_date', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('customer_no', 'integer')
    .addColumn('unallocated', 'bigint', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    // The "same payment twice is allocated once": a second registration finds this key taken.
    .addUniqueConstraint('billing_payment_external_ref', ['external_ref'])
    .addCheckConstraint('billing_payment_amount', sql`amount <> 0`)
    .addCheckConstraint('billing_payment_unallocated', sql`unallocated >= 0 and unallocated <= abs(amount)`)
    .execute();

  await db.schema
    .createTable('billing_allocation')
    .addColumn('payment_id', 'bigint', (c) => c.notNull().references('billing_payment.payment_id'))
    .addColumn('document_id', 'bigint', (c) => c.notNull().references('billing_document.document_id'))
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('billing_allocation_pk', ['payment_id', 'document_id'])
    .addCheckConstraint('billing_allocation_amount', sql`amount > 0`)
    .execute();
  await db.schema
    .createIndex('billing_allocation_document')
    .on('billing_allocation')
    .column('document_id')
    .execute();
}
