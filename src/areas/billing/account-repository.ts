import type { Kysely } from 'kysely';
import { changedAfter } from '../../kernel/db/feed-sql.ts';
import type { DB } from '../../kernel/db/schema.ts';

/** A document as the history and the open items show it. */
export interface AccountDocumentRow {
  document_id: number;
  doc_type: 'INVOICE' | 'CREDIT_NOTE';
  number: string;
  issue_date: string;
  due_date: string;
  currency: string;
  net: number;
  vat: number;
  gross: number;
  payment_reference: string;
  corrects_number: string | null;
  scn: number;
}

export interface OpenItemRow extends AccountDocumentRow {
  open_amount: number;
}

/** A page of a customer's document feed (the order state feed's cursor: docs/orders.md). */
export interface DocumentFeedQuery {
  customerNo: number;
  /** Documents with an SCN above this one... */
  sinceScn: number;
  /** ...and in the transaction just after it (SCN sinceScn + 1) from this document id on... */
  fromId: number;
  /** ...up to the reader's SCN (every transaction up to it has ended). */
  upToScn: number;
  limit: number;
}

/**
 * A customer's account as read by B2B_GetInvoiceHistory and B2B_GetUnsettledItems
 * (docs/billing-issuing.md, "The operations"). Documents never change once issued, so a
 * document's SCN is its issue's and the feed pages them by (SCN, id) up to the reader's SCN: each
 * document is answered exactly once. Open items page by document id (issue order: oldest first).
 */
export class AccountRepository {
  readonly db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.db = db;
  }

  #documents() {
    return this.db
      .selectFrom('billing_document as d')
      .leftJoin('billing_document as c', 'c.document_id', 'd.corrects_document_id')
      .select([
        'd.document_id',
        'd.doc_type',
        'd.number',
        'd.issue_date',
        'd.due_date',
        'd.currency',
        'd.net',
        'd.vat',
        'd.gross',
        'd.payment_reference',
        'c.number as corrects_number',
        'd.scn',
      ]);
  }

  /** The customer's documents after the cursor, in (SCN, id) order, `limit` rows. */
  historyPage(q: DocumentFeedQuery): Promise<AccountDocumentRow[]> {
    const next = q.sinceScn + 1;
    return this.#documents()
      .where('d.customer_no', '=', q.customerNo)
      .where(changedAfter('d.scn', q.sinceScn))
      .where('d.scn', '<=', q.upToScn)
      .where((eb) => eb.or([eb('d.scn', '<>', next), eb('d.document_id', '>=', q.fromId)]))
      .orderBy('d.scn')
      .orderBy('d.document_id')
      .limit(q.limit)
      .execute();
  }

  /** The customer's documents with something open, from document id `from` on, oldest first. */
  openItemsPage(customerNo: number, from: number, limit: number): Promise<OpenItemRow[]> {
    return this.#documents()
      .innerJoin('billing_open_item as o', 'o.document_id', 'd.document_id')
      .select('o.open_amount')
      .where('o.customer_no', '=', customerNo)
      .where('o.document_id', '>=', from)
      .where('o.open_amount', '>', 0)
      .orderBy('o.document_id')
      .limit(limit)
      .execute();
  }

  /** The document with this number if it is the customer's (any customer's when undefined). */
  async documentIdOf(number: string, customerNo: number | undefined): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('billing_document')
      .select('document_id')
      .where('number', '=', number)
      .$if(customerNo !== undefined, (q) => q.where('customer_no', '=', customerNo!))
      .executeTakeFirst();
    return row ? Number(row.document_id) : undefined;
  }
}
