import type { Config } from '../../config.ts';
import type { Database } from '../../kernel/db/database.ts';
import { inWriteTransaction } from '../../kernel/db/unit-of-work.ts';
import { DomainError } from '../../kernel/errors.ts';
import type { Services } from '../../kernel/services.ts';
import { sizesByBarcodeIn } from '../catalog/index.ts';
import { accountedOf, lineKey } from './credit-rules.ts';
import { CreditRunService } from './credit-run-service.ts';
import type { DocumentLanguage, DocumentSnapshot } from './document.ts';
import { DocumentRepository } from './document-repository.ts';
import { COMPANY, type Issued, storeDocument } from './document-store.ts';
import { BILLING_ERRORS } from './errors.ts';
import {
  type CreditRequest,
  creditNoteSnapshot,
  documentLanguage,
  invoiceSnapshot,
  type LineToInvoice,
  TEXT_SLOT,
} from './issue-rules.ts';
import { buyerOf, sellerOf } from './parties.ts';

export type { Issued } from './document-store.ts';

/** What a batch run did (`tv2 invoice`). */
export interface BatchReport {
  customers: number;
  issued: number;
  /** Customers with deliveries but nothing left to invoice. */
  nothing: number;
  /** Credit notes the credit run issued (returns, cancelled deliveries), of `creditCustomers` with invoices. */
  creditNotes: number;
  creditCustomers: number;
  failed: number;
  /** The first failures, "customer: message". */
  failures: string[];
}

/** Customers asked of the orders area per page of the batch run. */
const BATCH_PAGE = 500;

/**
 * Issuing invoices and credit notes (docs/billing-issuing.md). Each issue is one write
 * transaction: it takes the next number of its series first (the counter row, locked until the
 * transaction ends), then reads what is already invoiced or credited, so two issuers of one series
 * never both see the same delivery line or invoice line as open; a failure anywhere after the
 * number was taken rolls the counter back with everything else: no gap, nothing written.
 */
export class IssueService {
  readonly database: Database;
  readonly config: Config;
  readonly all: Services;
  readonly now: () => Date;
  /** The credit run: credit notes owed for returns and cancelled deliveries. */
  readonly credits: CreditRunService;

  constructor(database: Database, config: Config, all: Services, now: () => Date = () => new Date()) {
    this.database = database;
    this.config = config;
    this.all = all;
    this.now = now;
    this.credits = new CreditRunService(database, all, now);
  }

  /**
   * Invoices a customer's delivered pieces that are neither returned nor invoiced (of the
   * deliveries given, or all). Nothing to invoice is 409 NOTHING_TO_INVOICE, and no number is used.
   */
  async issueInvoice(customerNo: number, deliveryNos?: readonly number[]): Promise<Issued> {
    const customer = await this.all.customers.customers.getCustomer(customerNo);
    const buyer = buyerOf(customer);
    const language = documentLanguage(customer.LANGUAGE);
    // What billing accounted for is asked only when an order line has returned pieces; then the
    // pieces are read again in the transaction (below).
    let withReturns = false;
    const candidates = await this.all.orders.invoicing.deliveredNotReturned(customerNo, deliveryNos, {
      accounted: async () => {
        withReturns = true;
        return accountedOf(await new DocumentRepository(this.database.db).billedLinesOf(customerNo));
      },
    });
    const nothing = () =>
      BILLING_ERRORS.NOTHING_TO_INVOICE(
        `Customer ${customerNo} has nothing delivered that is not returned or invoiced${deliveryNos ? ` in deliveries ${deliveryNos.join(', ')}` : ''}.`,
      );
    if (candidates.length === 0) throw nothing();
    const currencies = new Set(candidates.map((l) => l.currency));
    if (currencies.size > 1)
      throw BILLING_ERRORS.MIXED_CURRENCIES(
        `Customer ${customerNo}'s deliveries are in ${[...currencies].join(', ')}: invoice them by delivery.`,
      );
    const descriptions = await this.#descriptions(
      candidates.map((l) => l.barcode),
      language,
    );
    const seller = sellerOf(this.config.seller);
    const issueDate = this.#today();
    const year = Number(issueDate.slice(0, 4));
    const paymentDays = customer.PAYMENTDAYS > 0 ? customer.PAYMENTDAYS : this.config.invoicePaymentDays;

    return inWriteTransaction(this.database, async (uow) => {
      const repo = new DocumentRepository(uow.db);
      // The number first: from here on this transaction is the series' only issuer.
      const seq = await repo.takeNumber('INVOICE', COMPANY, year);
      // After the number (the issuers of the series are in line): which of these delivery lines
      // are invoiced. With returns, the pieces out depend on what is billed (a credited return is
      // not taken off these deliveries again): the customer is locked against its credit run (on
      // PostgreSQL; on SQLite the write transaction is the lock, one writer), then what is billed
      // and the pieces out are read again, here. Without, a credit changes none of the pieces.
      let open = candidates;
      let invoiced: Set<string>;
      if (withReturns) {
        if (this.database.engine === 'postgres') await repo.lockCustomer(customerNo);
        const billed = await repo.billedLinesOf(customerNo);
        invoiced = new Set(billed.map((b) => lineKey(b.deliveryNo, b.deliveryLineNo)));
        const read = new Set(candidates.map((l) => lineKey(l.deliveryNo, l.lineNo)));
        open = (
          await this.all.orders.invoicing.deliveredNotReturned(customerNo, deliveryNos, {
            accounted: async () => accountedOf(billed),
            db: uow.db,
          })
        ).filter((l) => read.has(lineKey(l.deliveryNo, l.lineNo)));
      } else invoiced = await repo.invoicedDeliveryLines(candidates.map((l) => l.deliveryNo));
      const lines: LineToInvoice[] = open.filter((l) => !invoiced.has(lineKey(l.deliveryNo, l.lineNo)));
      if (lines.length === 0) throw nothing();
      const snapshot = invoiceSnapshot(
        { seq, year, issueDate, paymentDays, seller, buyer, language },
        lines,
        descriptions,
      );
      const issued = await storeDocument(repo, await uow.stamp(), seq, snapshot, null, this.now);
      await repo.insertInvoiceLines(
        lines.map((l, i) => ({
          document_id: issued.documentId,
          line_no: i + 1,
          delivery_no: l.deliveryNo,
          delivery_line_no: l.lineNo,
          order_no: l.orderNo,
          delivered: l.delivered,
          quantity: l.quantity,
        })),
      );
      return issued;
    });
  }

  /**
   * `tv2 invoice`: one invoice per customer with deliveries left to invoice, each in its own
   * transaction (a customer that fails is reported and the run goes on); then the credit run
   * (CreditRunService.issueAllOwed): the credit notes owed for returns and cancelled deliveries.
   */
  async issueAll(onProgress?: (report: BatchReport) => void): Promise<BatchReport> {
    const report: BatchReport = {
      customers: 0,
      issued: 0,
      nothing: 0,
      creditNotes: 0,
      creditCustomers: 0,
      failed: 0,
      failures: [],
    };
    let after = 0;
    for (;;) {
      const customers = await this.all.orders.invoicing.customersWithDeliveries(after, BATCH_PAGE);
      for (const customerNo of customers) {
        report.customers++;
        try {
          await this.issueInvoice(customerNo);
          report.issued++;
        } catch (error) {
          if (error instanceof DomainError && error.code === BILLING_ERRORS.NOTHING_TO_INVOICE.code)
            report.nothing++;
          else {
            report.failed++;
            if (report.failures.length < 20)
              report.failures.push(`${customerNo}: ${(error as Error).message}`);
          }
        }
      }
      onProgress?.(report);
      if (customers.length < BATCH_PAGE) break;
      after = customers[customers.length - 1] as number;
    }
    // Then the credit notes owed (returns and cancellations after invoicing), per customer.
    await this.credits.issueAllOwed(report, onProgress);
    return report;
  }

  /**
   * A credit note for an invoice: the lines given (invoice line and pieces) or every piece not
   * credited yet. More than an invoice line has left (invoiced less earlier credit notes) is 409
   * CREDIT_EXCEEDS_INVOICED; a line the invoice does not have 404 INVOICE_LINE_NOT_FOUND.
   */
  async issueCreditNote(invoiceNumber: string, requested?: readonly CreditRequest[]): Promise<Issued> {
    const invoice = await new DocumentRepository(this.database.db).findByNumber(invoiceNumber);
    if (invoice?.doc_type !== 'INVOICE')
      throw BILLING_ERRORS.BILLING_DOCUMENT_NOT_FOUND(`No invoice numbered "${invoiceNumber}".`);
    const invoiced: DocumentSnapshot = JSON.parse(invoice.snapshot);
    for (const r of requested ?? []) {
      if (!invoiced.lines.some((l) => l.lineNo === r.lineNo))
        throw BILLING_ERRORS.INVOICE_LINE_NOT_FOUND(`Invoice ${invoiceNumber} has no line ${r.lineNo}.`);
    }
    const issueDate = this.#today();
    const year = Number(issueDate.slice(0, 4));

    return inWriteTransaction(this.database, async (uow) => {
      const repo = new DocumentRepository(uow.db);
      const seq = await repo.takeNumber('CREDIT_NOTE', COMPANY, year);
      const credited = await repo.creditedOf(Number(invoice.document_id));
      const left = (lineNo: number) =>
        (invoiced.lines.find((l) => l.lineNo === lineNo)?.quantity ?? 0) - (credited.get(lineNo) ?? 0);
      const credits = requested
        ? merged(requested)
        : invoiced.lines.map((l) => ({ lineNo: l.lineNo, quantity: left(l.lineNo) }));
      const over = credits.filter((c) => c.quantity > left(c.lineNo));
      if (over.length > 0)
        throw BILLING_ERRORS.CREDIT_EXCEEDS_INVOICED(
          over
            .map((c) => `line ${c.lineNo}: ${c.quantity} asked, ${left(c.lineNo)} left to credit`)
            .join('; '),
        );
      const given = credits.filter((c) => c.quantity > 0);
      if (given.length === 0)
        throw BILLING_ERRORS.CREDIT_EXCEEDS_INVOICED(`Invoice ${invoiceNumber} has nothing left to credit.`);
      const snapshot = creditNoteSnapshot(invoiced, given, { seq, year, issueDate });
      const documentId = Number(invoice.document_id);
      const issued = await storeDocument(repo, await uow.stamp(), seq, snapshot, documentId, this.now);
      await repo.insertCreditLines(
        given.map((c, i) => ({
          document_id: issued.documentId,
          line_no: i + 1,
          invoice_id: documentId,
          invoice_line_no: c.lineNo,
          quantity: c.quantity,
          reason: null,
        })),
      );
      return issued;
    });
  }

  /** The articles' descriptions in the document's language, by barcode (frozen into the lines). */
  async #descriptions(barcodes: readonly string[], language: DocumentLanguage): Promise<Map<string, string>> {
    const sizes = await sizesByBarcodeIn(this.database.db, [...new Set(barcodes)]);
    const out = new Map<string, string>();
    for (const [barcode, size] of sizes) {
      const texts = JSON.parse(size.description || '{}') as Record<string, string>;
      const text = texts[TEXT_SLOT[language]] || Object.values(texts).find((t) => t?.trim());
      if (text) out.set(barcode, text);
    }
    return out;
  }

  #today(): string {
    return this.now().toISOString().slice(0, 10);
  }
}

/** Requests for one line added up (the same line named twice is asked once, for the sum). */
function merged(requested: readonly CreditRequest[]): CreditRequest[] {
  const sums = new Map<number, number>();
  for (const r of requested) sums.set(r.lineNo, (sums.get(r.lineNo) ?? 0) + r.quantity);
  return [...sums].map(([lineNo, quantity]) => ({ lineNo, quantity }));
}
