import type { Database } from '../../kernel/db/database.ts';
import type { DocumentSnapshot } from './document.ts';
import { DocumentRepository, type DocumentRow } from './document-repository.ts';
import { BILLING_ERRORS } from './errors.ts';
import { contentHash } from './issue-rules.ts';
import { renderDocumentPdf } from './pdf/invoice-pdf.ts';
import { toUbl, UblRefusal } from './ubl/ubl-document.ts';

/** An issued document as read back: its stored row's facts and its snapshot. */
export interface StoredDocument {
  documentId: number;
  number: string;
  type: DocumentRow['doc_type'];
  customerNo: number;
  scn: number;
  contentHash: string;
  snapshot: DocumentSnapshot;
}

/** The outcome of the content check: the stored hash against the hash of the stored snapshot. */
export interface ContentCheck {
  number: string;
  intact: boolean;
  storedHash: string;
  computedHash: string;
}

/**
 * Reads of issued documents and their renderings (docs/billing-issuing.md): the snapshot, the
 * content check, the PDF and the Peppol UBL, all from the stored snapshot alone.
 */
export class DocumentService {
  readonly #read: DocumentRepository;

  constructor(database: Database) {
    this.#read = new DocumentRepository(database.db);
  }

  /** The document with that number (404 BILLING_DOCUMENT_NOT_FOUND). */
  async get(number: string): Promise<StoredDocument> {
    const row = await this.#row(number);
    return {
      documentId: Number(row.document_id),
      number: row.number,
      type: row.doc_type,
      customerNo: Number(row.customer_no),
      scn: Number(row.scn),
      contentHash: row.content_hash,
      snapshot: JSON.parse(row.snapshot) as DocumentSnapshot,
    };
  }

  /** Whether the stored snapshot is still the one hashed at issue. */
  async check(number: string): Promise<ContentCheck> {
    const row = await this.#row(number);
    const computedHash = contentHash(row.snapshot);
    return { number, intact: computedHash === row.content_hash, storedHash: row.content_hash, computedHash };
  }

  /** The document's PDF (renderDocumentPdf of its snapshot). */
  async pdf(number: string): Promise<Uint8Array> {
    return renderDocumentPdf((await this.get(number)).snapshot);
  }

  /** The document's Peppol BIS Billing 3.0 UBL, its PDF embedded. */
  async ubl(number: string): Promise<string> {
    const { snapshot } = await this.get(number);
    const pdf = await renderDocumentPdf(snapshot);
    try {
      return toUbl(snapshot, { pdf: { filename: `${number}.pdf`, bytes: pdf } });
    } catch (error) {
      if (error instanceof UblRefusal)
        throw BILLING_ERRORS.UBL_REFUSED(`${number}: ${error.problems.join('; ')}`);
      throw error;
    }
  }

  async #row(number: string): Promise<DocumentRow> {
    const row = await this.#read.findByNumber(number);
    if (!row)
      throw BILLING_ERRORS.BILLING_DOCUMENT_NOT_FOUND(`No invoice or credit note numbered "${number}".`);
    return row;
  }
}
