import type { Database } from '../../kernel/db/database.ts';
import { inWriteTransaction } from '../../kernel/db/unit-of-work.ts';
import { BILLING_ERRORS } from './errors.ts';
import { type MatchRow, PaymentRepository, type PaymentRow } from './payment-repository.ts';
import { type PaymentReference, refusalOf, type UnallocatedReason } from './payment-rules.ts';

/** A payment to register: money received (amount > 0) or paid out (< 0), in minor units. */
export interface PaymentInput {
  /** YYYY-MM-DD. */
  date: string;
  amount: number;
  currency: string;
  reference: PaymentReference;
  /** The bank's reference of the payment: the same one twice is the same payment. */
  externalRef: string;
}

/** What registering a payment did (or, for a repeat, what the first registration did). */
export interface PaymentOutcome {
  paymentId: number;
  externalRef: string;
  /** True when the external reference was registered before: nothing was allocated this time. */
  repeated: boolean;
  date: string;
  amount: number;
  currency: string;
  reference: string;
  customerNo: number | null;
  allocations: Array<{ number: string; amount: number }>;
  unallocated: number;
  reason: string | null;
}

/**
 * Registering payments (docs/billing-issuing.md, "Payments and open items"). One write
 * transaction per payment (or per import batch, joined): the payment is claimed by its external
 * reference first, so a repeat stops there; then it is matched to a document by structured
 * communication or number and allocated up to what is open; what is left stays unallocated with
 * the reason (no document, another currency, the wrong direction, already settled, an over-payment).
 */
export class PaymentService {
  readonly database: Database;
  readonly now: () => Date;

  constructor(database: Database, now: () => Date = () => new Date()) {
    this.database = database;
    this.now = now;
  }

  register(input: PaymentInput): Promise<PaymentOutcome> {
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new PaymentRepository(uow.db);
      const scn = await uow.stamp();
      const paymentId = await repo.claim({
        external_ref: input.externalRef,
        payment_date: input.date,
        amount: input.amount,
        currency: input.currency,
        reference: input.reference.value,
        customer_no: null,
        unallocated: Math.abs(input.amount),
        reason: null,
        scn,
        created_at: this.now().toISOString(),
      });
      if (paymentId === undefined) return this.#repeat(repo, input);

      const match = await this.#match(repo, input.reference);
      const refusal = refusalOf(input, match && { type: match.doc_type, currency: match.currency });
      let unallocated = Math.abs(input.amount);
      let reason: UnallocatedReason | null = refusal;
      if (match && refusal === null) {
        const taken = await this.#allocate(
          repo,
          Number(match.document_id),
          unallocated,
          Number(match.open_amount),
          scn,
        );
        if (taken > 0)
          await repo.insertAllocation({
            payment_id: paymentId,
            document_id: Number(match.document_id),
            amount: taken,
            scn,
          });
        unallocated -= taken;
        reason = unallocated === 0 ? null : taken === 0 ? 'ALREADY_SETTLED' : 'OVERPAYMENT';
      }
      const customerNo = match ? Number(match.customer_no) : null;
      await repo.settle(paymentId, { customer_no: customerNo, unallocated, reason });
      return {
        paymentId,
        externalRef: input.externalRef,
        repeated: false,
        date: input.date,
        amount: input.amount,
        currency: input.currency,
        reference: input.reference.value,
        customerNo,
        allocations:
          match && unallocated < Math.abs(input.amount)
            ? [{ number: match.number, amount: Math.abs(input.amount) - unallocated }]
            : [],
        unallocated,
        reason,
      };
    });
  }

  #match(repo: PaymentRepository, reference: PaymentReference): Promise<MatchRow | undefined> {
    if (reference.kind === 'structured') return repo.match({ paymentReference: reference.value });
    if (reference.kind === 'number') return repo.match({ number: reference.value });
    return Promise.resolve(undefined);
  }

  /**
   * Takes up to `wanted` off the document's open amount: what it took. The conditional update
   * fails when a concurrent allocation took some of what was read as open; the open amount is then
   * read again (a new statement sees what that allocation committed) and the take retried.
   */
  async #allocate(repo: PaymentRepository, documentId: number, wanted: number, open: number, scn: number) {
    let available = open;
    for (;;) {
      const take = Math.min(wanted, available);
      if (take === 0) return 0;
      if (await repo.takeOpen(documentId, take, scn)) return take;
      available = await repo.openOf(documentId);
    }
  }

  /** The first registration of this external id, when it is the same payment (else 409 PAYMENT_CONFLICT). */
  async #repeat(repo: PaymentRepository, input: PaymentInput): Promise<PaymentOutcome> {
    const externalRef = input.externalRef;
    const row = (await repo.paymentByExternalRef(externalRef)) as PaymentRow;
    const differs = [
      row.payment_date !== input.date && 'DATE',
      Number(row.amount) !== input.amount && 'AMOUNT',
      row.currency !== input.currency && 'CURRENCY',
      row.reference !== input.reference.value && 'REFERENCE',
    ].filter(Boolean);
    if (differs.length > 0)
      throw BILLING_ERRORS.PAYMENT_CONFLICT(
        `Payment ${externalRef} is registered already with another ${differs.join(', ')} (payment ${Number(row.payment_id)}).`,
      );
    return {
      paymentId: Number(row.payment_id),
      externalRef,
      repeated: true,
      date: row.payment_date,
      amount: Number(row.amount),
      currency: row.currency,
      reference: row.reference,
      customerNo: row.customer_no === null ? null : Number(row.customer_no),
      allocations: (await repo.allocationsOf(Number(row.payment_id))).map((a) => ({
        number: a.number,
        amount: Number(a.amount),
      })),
      unallocated: Number(row.unallocated),
      reason: row.reason,
    };
  }
}
