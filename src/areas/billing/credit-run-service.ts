import type { Kysely } from 'kysely';
import type { Database } from '../../kernel/db/database.ts';
import type { DB } from '../../kernel/db/schema.ts';
import { inWriteTransaction } from '../../kernel/db/unit-of-work.ts';
import type { Services } from '../../kernel/services.ts';
import { accountedOf, type BilledLine, creditsOwed, type OwedLine } from './credit-rules.ts';
import type { DocumentSnapshot } from './document.ts';
import { DocumentRepository } from './document-repository.ts';
import { COMPANY, type Issued, storeDocument } from './document-store.ts';
import { creditNoteSnapshot } from './issue-rules.ts';

/** What a credit run did; the batch run's report has these fields. */
export interface CreditRunReport {
  /** Customers with invoices looked at. */
  creditCustomers: number;
  /** Credit notes issued. */
  creditNotes: number;
  failed: number;
  /** The first failures, "customer: message". */
  failures: string[];
}

/** Customers asked per page of the credit run. */
const PAGE = 500;

/** Thrown inside a credit note's transaction when, read after its number, nothing is owed any more. */
class NothingOwed extends Error {}

/**
 * The credit run (docs/billing-issuing.md, "Credit notes from returns and cancellations"): for
 * every invoiced delivery line, pieces invoiced − pieces still out with the customer (none of a
 * cancelled delivery; returns counted per order line, matched newest first after the pieces
 * billing accounted for) − pieces credited already, given back by one credit note per invoice,
 * numbered in the credit note series like those by hand.
 *
 * Each piece once: a credit note's transaction locks the customer's billing (no invoice of it is
 * issued meanwhile), takes the next credit note number (every credit note before it, by hand or by a
 * run, has committed: the issuers of the series are in line) and only then reads what is
 * invoiced and credited, and the pieces out in the same transaction. A second run, or two at once,
 * finds those pieces credited; nothing owed any more rolls the number back (no gap).
 */
export class CreditRunService {
  readonly database: Database;
  readonly all: Services;
  readonly now: () => Date;

  constructor(database: Database, all: Services, now: () => Date = () => new Date()) {
    this.database = database;
    this.all = all;
    this.now = now;
  }

  /** The credit notes owed to a customer now, issued (none when nothing is owed). */
  async issueOwed(customerNo: number): Promise<Issued[]> {
    // A look without a transaction first: a customer owed nothing takes no lock and no number.
    const owed = await this.#owed(this.database.db, customerNo, false);
    const issued: Issued[] = [];
    for (const invoiceId of owed.keys()) {
      const one = await this.#issueFor(customerNo, invoiceId);
      if (one) issued.push(one);
    }
    return issued;
  }

  /**
   * The credit run over every customer with invoices (by customer number, 500 a page), each
   * customer's credit notes in their own transactions; a customer that fails is counted and named.
   */
  async issueAllOwed<R extends CreditRunReport>(
    report: R,
    onProgress?: (report: R) => void,
    onIssued?: (issued: Issued) => void,
  ): Promise<R> {
    const repo = new DocumentRepository(this.database.db);
    let after = 0;
    for (;;) {
      const customers = await repo.customersWithInvoices(after, PAGE);
      for (const customerNo of customers) {
        report.creditCustomers++;
        try {
          const issued = await this.issueOwed(customerNo);
          report.creditNotes += issued.length;
          if (onIssued) for (const one of issued) onIssued(one);
        } catch (error) {
          report.failed++;
          if (report.failures.length < 20) report.failures.push(`${customerNo}: ${(error as Error).message}`);
        }
      }
      onProgress?.(report);
      if (customers.length < PAGE) return report;
      after = customers[customers.length - 1] as number;
    }
  }

  /**
   * Per invoice, what is owed. The pieces out first; billing's billed lines only when something
   * came back or a delivery was cancelled (else nothing can be owed: a customer of deliveries that
   * all stand and nothing returned costs one read). In a transaction, under the customer's lock,
   * no invoice of the customer commits between the two reads.
   */
  async #owed(db: Kysely<DB>, customerNo: number, inTransaction: boolean): Promise<Map<number, OwedLine[]>> {
    const repo = new DocumentRepository(db);
    let billed: Promise<BilledLine[]> | undefined;
    const readBilled = () => {
      billed ??= repo.billedLinesOf(customerNo);
      return billed;
    };
    const out = await this.all.orders.invoicing.linesOut(customerNo, {
      accounted: async () => accountedOf(await readBilled()),
      ...(inTransaction ? { db } : {}),
    });
    if (!out.some((l) => l.cancelled || l.quantity < l.delivered)) return new Map();
    return creditsOwed(await readBilled(), out);
  }

  /** One credit note for what one invoice is owed, read again after its number; undefined when nothing is. */
  async #issueFor(customerNo: number, invoiceId: number): Promise<Issued | undefined> {
    const issueDate = this.now().toISOString().slice(0, 10);
    const year = Number(issueDate.slice(0, 4));
    try {
      return await inWriteTransaction(this.database, async (uow) => {
        const repo = new DocumentRepository(uow.db);
        // The customer first, so no invoice of it is issued between the read below and the
        // commit; then the number (always in this order, and an invoice takes its number before
        // the customer: no two transactions wait for each other in a circle). On SQLite the write
        // transaction is the lock already (one writer).
        if (this.database.engine === 'postgres') await repo.lockCustomer(customerNo);
        const seq = await repo.takeNumber('CREDIT_NOTE', COMPANY, year);
        // After the number: what is credited now, every earlier credit note committed.
        const lines = (await this.#owed(uow.db, customerNo, true)).get(invoiceId);
        if (!lines || lines.length === 0) throw new NothingOwed();
        const invoice = await repo.findById(invoiceId);
        if (!invoice) throw new NothingOwed();
        const invoiced: DocumentSnapshot = JSON.parse(invoice.snapshot);
        const snapshot = creditNoteSnapshot(invoiced, lines, { seq, year, issueDate });
        const issued = await storeDocument(repo, await uow.stamp(), seq, snapshot, invoiceId, this.now);
        await repo.insertCreditLines(
          lines.map((l, i) => ({
            document_id: issued.documentId,
            line_no: i + 1,
            invoice_id: invoiceId,
            invoice_line_no: l.lineNo,
            quantity: l.quantity,
            reason: l.reason,
          })),
        );
        return issued;
      });
    } catch (error) {
      if (error instanceof NothingOwed) return undefined;
      throw error;
    }
  }
}
