import type { Insertable, Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { DB } from '../../kernel/db/schema.ts';
import type { BillingAllocationTable, BillingPaymentTable } from './tables.ts';

export type PaymentRow = Selectable<BillingPaymentTable>;
export type NewPaymentRow = Insertable<BillingPaymentTable>;
export type AllocationRow = Selectable<BillingAllocationTable>;

/** The document a payment reference points at, with what is still open of it. */
export interface MatchRow {
  document_id: number;
  doc_type: 'INVOICE' | 'CREDIT_NOTE';
  number: string;
  customer_no: number;
  currency: string;
  open_amount: number;
}

/**
 * Payments and their allocations (docs/billing-issuing.md, "Payments and open items"). Two
 * guarded statements hold the ledger: a payment is claimed by its unique external reference
 * (`claim`: a second registration of the same payment inserts nothing and allocates nothing), and
 * an allocation takes from a document's open amount only while that much is open (`takeOpen`'s
 * condition; a check under it), so concurrent payments never settle more than was invoiced.
 */
export class PaymentRepository {
  readonly db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.db = db;
  }

  /** Inserts the payment unless its external reference is taken: its id, or undefined for a repeat. */
  async claim(row: NewPaymentRow): Promise<number | undefined> {
    const inserted = await this.db
      .insertInto('billing_payment')
      .values(row)
      .onConflict((oc) => oc.column('external_ref').doNothing())
      .returning('payment_id')
      .executeTakeFirst();
    return inserted ? Number(inserted.payment_id) : undefined;
  }

  paymentByExternalRef(externalRef: string): Promise<PaymentRow | undefined> {
    return this.db
      .selectFrom('billing_payment')
      .selectAll()
      .where('external_ref', '=', externalRef)
      .executeTakeFirst();
  }

  /** The document with this payment reference (structured communication) or this number. */
  match(by: { paymentReference: string } | { number: string }): Promise<MatchRow | undefined> {
    return this.db
      .selectFrom('billing_document as d')
      .innerJoin('billing_open_item as o', 'o.document_id', 'd.document_id')
      .select(['d.document_id', 'd.doc_type', 'd.number', 'd.customer_no', 'd.currency', 'o.open_amount'])
      .$if('paymentReference' in by, (q) =>
        q.where('d.payment_reference', '=', (by as { paymentReference: string }).paymentReference),
      )
      .$if('number' in by, (q) => q.where('d.number', '=', (by as { number: string }).number))
      .executeTakeFirst();
  }

  async openOf(documentId: number): Promise<number> {
    const row = await this.db
      .selectFrom('billing_open_item')
      .select('open_amount')
      .where('document_id', '=', documentId)
      .executeTakeFirstOrThrow();
    return Number(row.open_amount);
  }

  /**
   * Takes `amount` off a document's open amount if at least that much is open (the allocation's
   * condition): true when it did. On PostgreSQL a concurrent allocation holds the row until it
   * ends, and the condition is then evaluated again on what it left.
   */
  async takeOpen(documentId: number, amount: number, scn: number): Promise<boolean> {
    const result = await this.db
      .updateTable('billing_open_item')
      .set({ open_amount: sql<number>`open_amount - ${amount}`, scn })
      .where('document_id', '=', documentId)
      .where('open_amount', '>=', amount)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async insertAllocation(row: AllocationRow): Promise<void> {
    await this.db.insertInto('billing_allocation').values(row).execute();
  }

  /** Records what the allocation left: the customer matched, the amount unallocated and why. */
  async settle(
    paymentId: number,
    outcome: { customer_no: number | null; unallocated: number; reason: string | null },
  ): Promise<void> {
    await this.db.updateTable('billing_payment').set(outcome).where('payment_id', '=', paymentId).execute();
  }

  /** A payment's allocations with the documents' numbers. */
  allocationsOf(paymentId: number): Promise<Array<{ number: string; amount: number }>> {
    return this.db
      .selectFrom('billing_allocation as a')
      .innerJoin('billing_document as d', 'd.document_id', 'a.document_id')
      .select(['d.number', 'a.amount'])
      .where('a.payment_id', '=', paymentId)
      .orderBy('a.document_id')
      .execute();
  }
}
