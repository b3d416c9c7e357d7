import type { DocumentSnapshot } from './document.ts';
import type { DocumentRepository, DocumentRow } from './document-repository.ts';
import { contentHash } from './issue-rules.ts';

/** The one company of the numbering series for now (a series per shop would be another key here). */
export const COMPANY = 'MAIN';

/** An issued document: its number and position, and the snapshot as stored. */
export interface Issued {
  documentId: number;
  number: string;
  snapshot: DocumentSnapshot;
  contentHash: string;
}

/**
 * Stores an issued document (its row with the snapshot's text and hash, and its open item at its
 * gross) in the issuing transaction, after its number was taken.
 */
export async function storeDocument(
  repo: DocumentRepository,
  scn: number,
  seq: number,
  snapshot: DocumentSnapshot,
  corrects: number | null,
  now: () => Date,
): Promise<Issued> {
  const json = JSON.stringify(snapshot);
  const hash = contentHash(json);
  const row: Omit<DocumentRow, 'document_id'> = {
    doc_type: snapshot.type,
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
    created_at: now().toISOString(),
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
