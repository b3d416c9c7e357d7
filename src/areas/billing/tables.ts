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
}

/** Tables of the billing area (migration 0031_billing). */
export interface BillingTables {
  billing_series: BillingSeriesTable;
  billing_document: BillingDocumentTable;
  billing_invoice_line: BillingInvoiceLineTable;
  billing_credit_line: BillingCreditLineTable;
}

declare module '../../kernel/db/schema.ts' {
  interface DB extends BillingTables {}
}
