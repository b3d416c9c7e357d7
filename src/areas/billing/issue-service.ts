import type { Config } from '../../config.ts';
import type { Database } from '../../kernel/db/database.ts';
import { inWriteTransaction } from '../../kernel/db/unit-of-work.ts';
import { DomainError } from '../../kernel/errors.ts';
import type { Services } from '../../kernel/services.ts';
import { sizesByBarcodeIn } from '../catalog/index.ts';
import type { DocumentLanguage, DocumentSnapshot, DocumentType } from './document.ts';
import { DocumentRepository, type DocumentRow } from './document-repository.ts';
import { BILLING_ERRORS } from './errors.ts';
import {
  type CreditRequest,
  contentHash,
  creditNoteSnapshot,
  documentLanguage,
  invoiceSnapshot,
  type LineToInvoice,
  TEXT_SLOT,
} from './issue-rules.ts';
import { buyerOf, sellerOf } from './parties.ts';

/** The one company of the numbering series for now (a series per shop would be another key here). */
export const COMPANY = 'MAIN';

/** An issued document: its number and position, and the snapshot as stored. */
export interface Issued {
  documentId: number;
  number: string;
  snapshot: DocumentSnapshot;
  contentHash: string;
}

/** What a batch run did (`tv2 invoice`). */
export interface BatchReport {
  customers: number;
  issued: number;
  /** Customers with deliveries but nothing left to invoice. */
  nothing: number;
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

  constructor(database: Database, config: Config, all: Services, now: () => Date = () => new Date()) {
    this.database = database;
    this.config = config;
    this.all = all;
    this.now = now;
  }

  /**
   * Invoices a customer's delivered pieces that are neither returned nor invoiced (of the
   * deliveries given, or all). Nothing to invoice is 409 NOTHING_TO_INVOICE, and no number is used.
   */
  async issueInvoice(customerNo: number, deliveryNos?: readonly number[]): Promise<Issued> {
    const customer = await this.all.customers.customers.getCustomer(customerNo);
    const buyer = buyerOf(customer);
    const language = documentLanguage(customer.LANGUAGE);
    const candidates = await this.all.orders.invoicing.deliveredNotReturned(customerNo, deliveryNos);
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
      const invoiced = await repo.invoicedDeliveryLines(candidates.map((l) => l.deliveryNo));
      const lines: LineToInvoice[] = candidates.filter((l) => !invoiced.has(`${l.deliveryNo}/${l.lineNo}`));
      if (lines.length === 0) throw nothing();
      const snapshot = invoiceSnapshot(
        { seq, year, issueDate, paymentDays, seller, buyer, language },
        lines,
        descriptions,
      );
      const issued = await this.#store(repo, await uow.stamp(), 'INVOICE', seq, snapshot, null);
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
   * transaction (a customer that fails is reported and the run goes on).
   */
  async issueAll(onProgress?: (report: BatchReport) => void): Promise<BatchReport> {
    const report: BatchReport = { customers: 0, issued: 0, nothing: 0, failed: 0, failures: [] };
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
      if (customers.length < BATCH_PAGE) return report;
      after = customers[customers.length - 1] as number;
    }
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
      const issued = await this.#store(repo, await uow.stamp(), 'CREDIT_NOTE', seq, snapshot, documentId);
      await repo.insertCreditLines(
        given.map((c, i) => ({
          document_id: issued.documentId,
          line_no: i + 1,
          invoice_id: documentId,
          invoice_line_no: c.lineNo,
          quantity: c.quantity,
        })),
      );
      return issued;
    });
  }

  async #store(
    repo: DocumentRepository,
    scn: number,
    type: DocumentType,
    seq: number,
    snapshot: DocumentSnapshot,
    corrects: number | null,
  ): Promise<Issued> {
    const json = JSON.stringify(snapshot);
    const hash = contentHash(json);
    const row: Omit<DocumentRow, 'document_id'> = {
      doc_type: type,
      company: COMPANY,
      year: Number(snapshot.issueDate.slice(0, 4)),
      seq,
      number: snapshot.number,
      issue_date: snapshot.issueDate,
      due_date: snapshot.dueDate,
      customer_no: snapshot.buyer.customerNo,
      currency: snapshot.currency,
      net: snapshot.totals.net,
      vat: snapshot.totals.vat,
      gross: snapshot.totals.gross,
      payment_reference: snapshot.paymentReference,
      corrects_document_id: corrects,
      snapshot: json,
      content_hash: hash,
      scn,
      created_at: this.now().toISOString(),
    };
    const documentId = await repo.insertDocument(row);
    await repo.insertOpenItem({
      document_id: documentId,
      customer_no: row.customer_no,
      open_amount: row.gross,
      scn,
    });
    return { documentId, number: snapshot.number, snapshot, contentHash: hash };
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
