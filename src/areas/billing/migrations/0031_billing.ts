import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely';
import type { Engine } from '../../../kernel/db/engine.ts';

/**
 * Billing (docs/billing-issuing.md): the numbering series (one counter row per document type,
 * company and year: gapless because the row is updated in the issuing transaction and rolled back
 * with it, unlike a database sequence), the issued documents (never updated or deleted: the
 * snapshot as JSON text and its sha256), the delivery lines each invoice took (unique: a delivery
 * line is invoiced once), and the invoice lines each credit note gives back.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  const id = engine === 'postgres' ? sql`bigserial` : sql`integer`;
  const key = (c: ColumnDefinitionBuilder) =>
    engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement();
  const money = 'bigint';

  await db.schema
    .createTable('billing_series')
    .addColumn('doc_type', 'text', (c) => c.notNull())
    .addColumn('company', 'text', (c) => c.notNull())
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('last_number', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('billing_series_pk', ['doc_type', 'company', 'year'])
    .addCheckConstraint('billing_series_number', sql`last_number >= 1`)
    .execute();

  await db.schema
    .createTable('billing_document')
    // The paging position: documents are never deleted, so it never moves.
    .addColumn('document_id', id, key)
    .addColumn('doc_type', 'text', (c) => c.notNull())
    .addColumn('company', 'text', (c) => c.notNull())
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('number', 'text', (c) => c.notNull().unique())
    .addColumn('issue_date', 'text', (c) => c.notNull())
    .addColumn('due_date', 'text', (c) => c.notNull())
    .addColumn('customer_no', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('net', money, (c) => c.notNull())
    .addColumn('vat', money, (c) => c.notNull())
    .addColumn('gross', money, (c) => c.notNull())
    .addColumn('payment_reference', 'text', (c) => c.notNull().unique())
    .addColumn('corrects_document_id', 'bigint', (c) => c.references('billing_document.document_id'))
    .addColumn('snapshot', 'text', (c) => c.notNull())
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addCheckConstraint('billing_document_type', sql`doc_type in ('INVOICE', 'CREDIT_NOTE')`)
    .addCheckConstraint(
      'billing_document_corrects',
      sql`(doc_type = 'CREDIT_NOTE') = (corrects_document_id is not null)`,
    )
    .addCheckConstraint('billing_document_totals', sql`net >= 0 and vat >= 0 and gross = net + vat`)
    .execute();
  await db.schema
    .createIndex('billing_document_series')
    .on('billing_document')
    .columns(['doc_type', 'company', 'year', 'seq'])
    .unique()
    .execute();
  await db.schema
    .createIndex('billing_document_customer')
    .on('billing_document')
    .columns(['customer_no', 'document_id'])
    .execute();
  await db.schema.createIndex('billing_document_scn').on('billing_document').column('scn').execute();
  await db.schema
    .createIndex('billing_document_corrects_idx')
    .on('billing_document')
    .column('corrects_document_id')
    .execute();

  // One row per invoice line: the delivery line it bills. The unique key is the "invoiced once".
  await db.schema
    .createTable('billing_invoice_line')
    .addColumn('document_id', 'bigint', (c) => c.notNull().references('billing_document.document_id'))
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('delivery_no', 'bigint', (c) => c.notNull())
    .addColumn('delivery_line_no', 'integer', (c) => c.notNull())
    .addColumn('order_no', 'bigint', (c) => c.notNull())
    .addColumn('delivered', 'integer', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('billing_invoice_line_pk', ['document_id', 'line_no'])
    .addUniqueConstraint('billing_invoice_line_delivery', ['delivery_no', 'delivery_line_no'])
    .addCheckConstraint('billing_invoice_line_quantity', sql`quantity >= 1 and quantity <= delivered`)
    .execute();

  // One row per credit note line: the invoice line it gives back, and how many pieces.
  await db.schema
    .createTable('billing_credit_line')
    .addColumn('document_id', 'bigint', (c) => c.notNull().references('billing_document.document_id'))
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('invoice_id', 'bigint', (c) => c.notNull().references('billing_document.document_id'))
    .addColumn('invoice_line_no', 'integer', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('billing_credit_line_pk', ['document_id', 'line_no'])
    .addCheckConstraint('billing_credit_line_quantity', sql`quantity >= 1`)
    .execute();
  await db.schema
    .createIndex('billing_credit_line_invoice')
    .on('billing_credit_line')
    .columns(['invoice_id', 'invoice_line_no'])
    .execute();
}

/**
 * Its name from bee598b until d002e77, which renumbered it after tenders' 0030 (unchanged): a
 * database written in between applied it as 0021_billing (kernel migrations.ts, adoptFormerNames).
 */
export const formerNames = ['0021_billing'];
