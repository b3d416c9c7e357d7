import type { Generated } from 'kysely';
import type { Instant } from '../../kernel/db/schema.ts';
import type { DocumentType } from './document.ts';

/** A numbering series (migration 0031_billing): the last number given, gapless, per type, company and year. */
export interface BillingSeriesTable {
  doc_type: DocumentType;
  company: string;
  year: number;
  last_number: number;
}

/** An issued invoice or credit note: never updated or deleted. */
export interface BillingDocumentTable {
  /** The stable paging position (documents are never deleted). */
  document_id: Generated<number>;
  doc_type: DocumentType;
  company: string;
  year: number;
  /** The number within the series: 1, 2, 3, ... without gaps. */
  seq: number;
  /** The written number, e.g. "INV-2026-000123" (the snapshot's `number`). */
  number: string;
  issue_date: string;
  due_date: string;
  customer_no: number;
  currency: string;
  net: number;
  vat: number;
  gross: number;
  /** The structured communication, "+++123/4567/89012+++". */
  payment_reference: string;
  /** A credit note: the invoice it corrects. */
  corrects_document_id: number | null;
  /** The DocumentSnapshot as JSON text, exactly as hashed. */
  snapshot: string;
  /** sha256 (hex) of `snapshot`. */
  content_hash: string;
  scn: number;
  created_at: Instant;
}

/** An invoice line and the delivery line it bills (a delivery line is invoiced once). */
export interface BillingInvoiceLineTable {
  document_id: number;
  line_no: number;
  delivery_no: number;
  delivery_line_no: number;
  order_no: number;
  /** The pieces the delivery line shipped; `quantity` never exceeds it. */
  delivered: number;
  quantity: number;
}

/** A credit note line and the invoice line it gives back. */
export interface BillingCreditLineTable {
  document_id: number;
  line_no: number;
  invoice_id: number;
  invoice_line_no: number;
  quantity: number;
  /** Why (migration 0038): "RETURN 7", "DELIVERY 12 CANCELLED"; null by hand. */
  reason: string | null;
}

/** What is still open of a document (migration 0036): to pay (an invoice) or to refund (a credit note). */
export interface BillingOpenItemTable {
  document_id: number;
  customer_no: number;
  /** Minor units, never below 0 (the allocation's condition and a check). */
  open_amount: number;
  scn: number;
}

/** A payment as registered (once per external reference). */
export interface BillingPaymentTable {
  payment_id: Generated<number>;
  /** The bank's (or the registrar's) reference: unique, so the same payment twice is one row. */
  external_ref: string;
  payment_date: string;
  /** Minor units: above 0 received, below 0 paid out (a refund of a credit note). */
  amount: number;
  currency: string;
  /** As given: a structured communication (canonical form) or a document number. */
  reference: string;
  /** The customer of the document it matched, if any. */
  customer_no: number | null;
  /** Minor units not allocated (|amount| at most). */
  unallocated: number;
  /** Why something is unallocated (NO_MATCH, OVERPAYMENT, ...), null when all is allocated. */
  reason: string | null;
  scn: number;
  created_at: Instant;
}

/** A part of a payment allocated to a document (minor units, always positive). */
export interface BillingAllocationTable {
  payment_id: number;
  document_id: number;
  amount: number;
  scn: number;
}

/** A customer an invoice or a credit run locked (migration 0038): the row is the lock, nothing else. */
export interface BillingCustomerLockTable {
  customer_no: number;
}

/** Tables of the billing area (migrations 0031_billing, 0036_billing_payments, 0038_billing_credit_run). */
export interface BillingTables {
  billing_open_item: BillingOpenItemTable;
  billing_payment: BillingPaymentTable;
  billing_allocation: BillingAllocationTable;
  billing_series: BillingSeriesTable;
  billing_document: BillingDocumentTable;
  billing_invoice_line: BillingInvoiceLineTable;
  billing_credit_line: BillingCreditLineTable;
  billing_customer_lock: BillingCustomerLockTable;
}

declare module '../../kernel/db/schema.ts' {
  interface DB extends BillingTables {}
}
