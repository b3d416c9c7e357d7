import type { Database } from '../../kernel/db/database.ts';
import { currentScn } from '../../kernel/db/unit-of-work.ts';
import { fromMinor } from '../../kernel/money.ts';
import { type AccountDocumentRow, AccountRepository } from './account-repository.ts';
import type { DocumentService } from './document-service.ts';
import { BILLING_ERRORS } from './errors.ts';
import { daysBetween } from './payment-rules.ts';

/** A document as the TV2 operations answer it (money as two-decimal numbers, a credit note negative). */
function documentItem(d: AccountDocumentRow) {
  const sign = d.doc_type === 'CREDIT_NOTE' ? -1 : 1;
  return {
    DOCUMENTTYPE: d.doc_type,
    NUMBER: d.number,
    DATE: d.issue_date,
    DUEDATE: d.due_date,
    CURRENCY: d.currency,
    NET: fromMinor(sign * Number(d.net)),
    VAT: fromMinor(sign * Number(d.vat)),
    GROSS: fromMinor(sign * Number(d.gross)),
    PAYMENTREFERENCE: d.payment_reference,
    CORRECTS: d.corrects_number,
  };
}

/**
 * A customer's account over TV2 (docs/billing-issuing.md, "The operations"): the history feed of
 * its documents, its open items, and a document's PDF, each only of that customer.
 */
export class AccountService {
  readonly database: Database;
  readonly now: () => Date;
  readonly #documents: DocumentService;
  readonly #read: AccountRepository;

  constructor(database: Database, documents: DocumentService, now: () => Date = () => new Date()) {
    this.database = database;
    this.now = now;
    this.#documents = documents;
    this.#read = new AccountRepository(database.db);
  }

  /**
   * B2B_GetInvoiceHistory: the customer's documents after the cursor, each exactly once (the order
   * state feed's way, docs/orders.md "The state feeds"): the reader's SCN is read first and bounds
   * the page, so a document committed later with a lower SCN is never passed over.
   */
  async history(customerNo: number, cursor: { sinceScn: number; fromId: number; limit: number }) {
    const upToScn = await currentScn(this.database.db);
    const rows = await this.#read.historyPage({ customerNo, ...cursor, upToScn, limit: cursor.limit + 1 });
    const shown = rows.slice(0, cursor.limit);
    const extra = rows[cursor.limit];
    return {
      scn: extra ? Number(extra.scn) - 1 : Math.max(upToScn, cursor.sinceScn),
      nextOffset: extra ? Number(extra.document_id) : null,
      items: shown.map((d) => ({ ...documentItem(d), SCN: Number(d.scn) })),
    };
  }

  /**
   * B2B_GetUnsettledItems: the customer's documents with something open, oldest first (issue
   * order), from document id `from`; a credit note's open amount is negative (owed to the customer).
   */
  async unsettled(customerNo: number, from: number, limit: number) {
    const today = this.now().toISOString().slice(0, 10);
    const rows = await this.#read.openItemsPage(customerNo, from, limit + 1);
    const extra = rows[limit];
    return {
      today,
      nextOffset: extra ? Number(extra.document_id) : null,
      items: rows.slice(0, limit).map((d) => ({
        ...documentItem(d),
        OPEN: fromMinor((d.doc_type === 'CREDIT_NOTE' ? -1 : 1) * Number(d.open_amount)),
        AGEDAYS: daysBetween(d.issue_date, today),
        DAYSOVERDUE: Math.max(0, daysBetween(d.due_date, today)),
      })),
    };
  }

  /** B2B_GetInvoicePDF: the PDF of the customer's document (any customer's when undefined). */
  async pdf(number: string, customerNo: number | undefined): Promise<Uint8Array> {
    if ((await this.#read.documentIdOf(number, customerNo)) === undefined)
      throw BILLING_ERRORS.BILLING_DOCUMENT_NOT_FOUND(
        `No invoice or credit note numbered "${number}"${customerNo === undefined ? '' : ` for customer ${customerNo}`}.`,
      );
    return this.#documents.pdf(number);
  }
}
