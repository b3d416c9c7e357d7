import type { Insertable, Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { DB } from '../../kernel/db/schema.ts';
import type { BilledLine } from './credit-rules.ts';
import type { DocumentType } from './document.ts';
import type {
  BillingCreditLineTable,
  BillingDocumentTable,
  BillingInvoiceLineTable,
  BillingOpenItemTable,
} from './tables.ts';

export type DocumentRow = Selectable<BillingDocumentTable>;
export type NewDocumentRow = Insertable<BillingDocumentTable>;
export type InvoiceLineRow = Selectable<BillingInvoiceLineTable>;
export type CreditLineRow = Selectable<BillingCreditLineTable>;

/** A statement's IN list stays well below both engines' parameter limits. */
const CHUNK = 500;

/**
 * Issued documents, their lines and the numbering series (docs/billing-issuing.md). Issued
 * documents are written once: this repository has no statement that updates or deletes one (a test
 * asserts it), and the series counter is only ever moved up, inside the issuing transaction.
 */
export class DocumentRepository {
  readonly db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.db = db;
  }

  /**
   * The next number of a series: the counter row created at 1 or moved up by one, in the caller's
   * transaction. The row stays locked until that transaction ends (PostgreSQL's row lock; SQLite's
   * single writer), so issuers of one series take their numbers one after the other, and a
   * rollback gives the number back: no gap.
   */
  async takeNumber(docType: DocumentType, company: string, year: number): Promise<number> {
    const row = await this.db
      .insertInto('billing_series')
      .values({ doc_type: docType, company, year, last_number: 1 })
      .onConflict((oc) =>
        oc
          .columns(['doc_type', 'company', 'year'])
          .doUpdateSet({ last_number: sql<number>`billing_series.last_number + 1` }),
      )
      .returning('last_number')
      .executeTakeFirstOrThrow();
    return Number(row.last_number);
  }

  /**
   * Locks a customer's billing in the caller's transaction until it ends: an upsert of its lock
   * row that changes nothing (PostgreSQL's row lock; SQLite has one writer). Invoices and the
   * credit run take it before they read what is billed, so neither reads a customer's billed
   * lines while the other is writing them.
   */
  async lockCustomer(customerNo: number): Promise<void> {
    await this.db
      .insertInto('billing_customer_lock')
      .values({ customer_no: customerNo })
      .onConflict((oc) =>
        oc.column('customer_no').doUpdateSet({ customer_no: sql<number>`billing_customer_lock.customer_no` }),
      )
      .execute();
  }

  async insertDocument(row: NewDocumentRow): Promise<number> {
    const inserted = await this.db
      .insertInto('billing_document')
      .values(row)
      .returning('document_id')
      .executeTakeFirstOrThrow();
    return Number(inserted.document_id);
  }

  /** A new document's open item: all of its gross is open (docs/billing-issuing.md, "Payments and open items"). */
  async insertOpenItem(row: Selectable<BillingOpenItemTable>): Promise<void> {
    await this.db.insertInto('billing_open_item').values(row).execute();
  }

  async insertInvoiceLines(rows: readonly InvoiceLineRow[]): Promise<void> {
    for (let i = 0; i < rows.length; i += CHUNK / 10)
      await this.db
        .insertInto('billing_invoice_line')
        .values(rows.slice(i, i + CHUNK / 10))
        .execute();
  }

  async insertCreditLines(rows: readonly CreditLineRow[]): Promise<void> {
    for (let i = 0; i < rows.length; i += CHUNK / 10)
      await this.db
        .insertInto('billing_credit_line')
        .values(rows.slice(i, i + CHUNK / 10))
        .execute();
  }

  /** Which lines of these deliveries are invoiced already, as "delivery/line" keys. */
  async invoicedDeliveryLines(deliveryNos: readonly number[]): Promise<Set<string>> {
    const out = new Set<string>();
    const distinct = [...new Set(deliveryNos)];
    for (let i = 0; i < distinct.length; i += CHUNK) {
      const rows = await this.db
        .selectFrom('billing_invoice_line')
        .select(['delivery_no', 'delivery_line_no'])
        .where('delivery_no', 'in', distinct.slice(i, i + CHUNK))
        .execute();
      for (const r of rows) out.add(`${Number(r.delivery_no)}/${r.delivery_line_no}`);
    }
    return out;
  }

  /**
   * Every invoice line of a customer's invoices with the pieces its credit notes gave back so far
   * (the index billing_document (customer_no, document_id), then each invoice's lines and credit
   * lines by key): what the invoice and credit runs take as billed.
   */
  async billedLinesOf(customerNo: number): Promise<BilledLine[]> {
    const rows = await this.db
      .selectFrom('billing_document as d')
      .innerJoin('billing_invoice_line as il', 'il.document_id', 'd.document_id')
      .leftJoin('billing_credit_line as cl', (j) =>
        j.onRef('cl.invoice_id', '=', 'il.document_id').onRef('cl.invoice_line_no', '=', 'il.line_no'),
      )
      .select([
        'il.document_id',
        'il.line_no',
        'il.delivery_no',
        'il.delivery_line_no',
        'il.delivered',
        'il.quantity',
        (eb) => eb.fn.coalesce(eb.fn.sum<number>('cl.quantity'), eb.lit(0)).as('credited'),
      ])
      .where('d.customer_no', '=', customerNo)
      .where('d.doc_type', '=', 'INVOICE')
      .groupBy([
        'il.document_id',
        'il.line_no',
        'il.delivery_no',
        'il.delivery_line_no',
        'il.delivered',
        'il.quantity',
      ])
      .orderBy('il.document_id')
      .orderBy('il.line_no')
      .execute();
    return rows.map((r) => ({
      invoiceId: Number(r.document_id),
      invoiceLineNo: r.line_no,
      deliveryNo: Number(r.delivery_no),
      deliveryLineNo: r.delivery_line_no,
      delivered: r.delivered,
      invoiced: r.quantity,
      credited: Number(r.credited),
    }));
  }

  /**
   * Customers with an invoice, by customer number after `afterCustomer`, at most `limit` (the
   * credit run's pages: a distinct walk of the index billing_document (customer_no, document_id)).
   */
  async customersWithInvoices(afterCustomer: number, limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('billing_document')
      .select('customer_no')
      .distinct()
      .where('customer_no', '>', afterCustomer)
      .where('doc_type', '=', 'INVOICE')
      .orderBy('customer_no')
      .limit(limit)
      .execute();
    return rows.map((r) => Number(r.customer_no));
  }

  findById(documentId: number): Promise<DocumentRow | undefined> {
    return this.db
      .selectFrom('billing_document')
      .selectAll()
      .where('document_id', '=', documentId)
      .executeTakeFirst();
  }

  findByNumber(number: string): Promise<DocumentRow | undefined> {
    return this.db.selectFrom('billing_document').selectAll().where('number', '=', number).executeTakeFirst();
  }

  invoiceLinesOf(documentId: number): Promise<InvoiceLineRow[]> {
    return this.db
      .selectFrom('billing_invoice_line')
      .selectAll()
      .where('document_id', '=', documentId)
      .orderBy('line_no')
      .execute();
  }

  /** Pieces already given back per line of an invoice, by all its credit notes. */
  async creditedOf(invoiceId: number): Promise<Map<number, number>> {
    const rows = await this.db
      .selectFrom('billing_credit_line')
      .select(['invoice_line_no', (eb) => eb.fn.sum<number>('quantity').as('credited')])
      .where('invoice_id', '=', invoiceId)
      .groupBy('invoice_line_no')
      .execute();
    return new Map(rows.map((r) => [Number(r.invoice_line_no), Number(r.credited)]));
  }
}
