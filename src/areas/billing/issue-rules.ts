import { createHash } from 'node:crypto';
import { percentOf } from '../../kernel/money.ts';
import type {
  DocumentBuyer,
  DocumentLanguage,
  DocumentLine,
  DocumentParty,
  DocumentSeller,
  DocumentSnapshot,
  DocumentType,
  VatCategory,
} from './document.ts';
import { calculateDocument } from './rules/document-calculator.ts';
import { legalMentions, paymentTermsSentence, writtenDate } from './rules/legal-mentions.ts';
import { makeStructuredReference } from './rules/structured-reference.ts';

/**
 * The pure rules of issuing (docs/billing-issuing.md): numbers and payment references, dates, the
 * VAT treatment of a buyer, and the snapshot of an invoice or credit note. The service reads and
 * writes; everything it decides is here, tested beside (issue-rules.test.ts).
 */

/** The written number of a document: "INV-2026-000123", "CN-2026-000007" (the series' number, gapless). */
export function documentNumber(type: DocumentType, year: number, seq: number): string {
  return `${type === 'INVOICE' ? 'INV' : 'CN'}-${year}-${String(seq).padStart(6, '0')}`;
}

/** Numbers a series can give: the payment reference keeps 7 digits for them. */
export const MAX_SEQ = 9_999_999;

/**
 * The structured communication of a document: a ten-digit base made of the year's last two
 * digits, the type (1 invoice, 2 credit note) and the number on seven digits (so 2026's invoice 123
 * is 2610000123, +++261/0000/12374+++), then its mod-97 check. Unique per document for a century.
 */
export function paymentReference(type: DocumentType, year: number, seq: number): string {
  if (!Number.isSafeInteger(seq) || seq < 1 || seq > MAX_SEQ)
    throw new RangeError(`a series number is 1 to ${MAX_SEQ}, not ${seq}`);
  const base = (year % 100) * 100_000_000 + (type === 'INVOICE' ? 1 : 2) * 10_000_000 + seq;
  return makeStructuredReference(base);
}

/** YYYY-MM-DD plus whole days. */
export function addDays(isoDate: string, days: number): string {
  const date = new Date(`${isoDate}T00:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** sha256 (hex) of the snapshot's stored JSON text: what the content check compares. */
export function contentHash(snapshotJson: string): string {
  return createHash('sha256').update(snapshotJson, 'utf8').digest('hex');
}

/** The document language of a customer's language slot (docs/api-conventions.md: 1 and 11 Dutch/Flemish, 2 English, 3 German, 4 French). */
export function documentLanguage(slot: string): DocumentLanguage {
  const bySlot: Record<string, DocumentLanguage> = {
    LANGUAGE_1: 'nl',
    LANGUAGE_11: 'nl',
    LANGUAGE_2: 'en',
    LANGUAGE_3: 'de',
    LANGUAGE_4: 'fr',
  };
  return bySlot[slot] ?? 'en';
}

/** The language slot an article text is read from for a document language. */
export const TEXT_SLOT: Record<DocumentLanguage, string> = {
  nl: 'LANGUAGE_1',
  en: 'LANGUAGE_2',
  de: 'LANGUAGE_3',
  fr: 'LANGUAGE_4',
};

const EU = new Set(
  'AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK'.split(' '),
);

/**
 * The VAT treatment of a line sold to a buyer: at home, the order line's rate (S, or Z at 0 %);
 * to a business in another EU country with a VAT number, an exempt intra-community supply (K); to
 * a buyer outside the EU, an export (G); an EU buyer without a VAT number pays the home rate.
 */
export function vatTreatment(
  seller: Pick<DocumentParty, 'countryCode'>,
  buyer: Pick<DocumentParty, 'countryCode' | 'vatNumber'>,
  vatBp: number,
): { vatCategory: VatCategory; vatBp: number } {
  if (buyer.countryCode !== seller.countryCode) {
    if (!EU.has(buyer.countryCode)) return { vatCategory: 'G', vatBp: 0 };
    if (buyer.vatNumber) return { vatCategory: 'K', vatBp: 0 };
  }
  return vatBp > 0 ? { vatCategory: 'S', vatBp } : { vatCategory: 'Z', vatBp: 0 };
}

/** One line to invoice: a delivery line's pieces not returned, with its order line's price. */
export interface LineToInvoice {
  deliveryNo: number;
  lineNo: number;
  deliveryDate: string;
  orderNo: number;
  customerReference: string;
  currency: string;
  articleNo: string;
  sizex: string;
  barcode: string;
  /** Pieces the delivery line shipped; `quantity` (not returned) is at most this. */
  delivered: number;
  quantity: number;
  unitPrice: number;
  discountBp: number;
  vatBp: number;
}

export interface IssueHeader {
  seq: number;
  year: number;
  issueDate: string;
  paymentDays: number;
  seller: DocumentSeller;
  buyer: DocumentBuyer;
  language: DocumentLanguage;
}

/** The snapshot of an invoice of these lines (in delivery, then line order), money by the calculator. */
export function invoiceSnapshot(
  header: IssueHeader,
  lines: readonly LineToInvoice[],
  descriptions: ReadonlyMap<string, string>,
): DocumentSnapshot {
  const { seq, year, issueDate, paymentDays, seller, buyer, language } = header;
  const documentLines: Omit<DocumentLine, 'amount'>[] = lines.map((l, i) => ({
    lineNo: i + 1,
    articleNo: l.articleNo,
    sizex: l.sizex,
    ...(l.barcode ? { barcode: l.barcode } : {}),
    description: descriptions.get(l.barcode) || `${l.articleNo} ${l.sizex}`,
    quantity: l.quantity,
    unitPrice: l.unitPrice,
    discount: percentOf(l.quantity * l.unitPrice, l.discountBp),
    ...vatTreatment(seller, buyer, l.vatBp),
    orderNo: l.orderNo,
    deliveryNo: l.deliveryNo,
  }));
  const references = [...new Set(lines.map((l) => l.customerReference))];
  const orders = [...new Set(lines.map((l) => l.orderNo))];
  const dueDate = addDays(issueDate, paymentDays);
  const reference = paymentReference('INVOICE', year, seq);
  return withMoney({
    type: 'INVOICE',
    number: documentNumber('INVOICE', year, seq),
    issueDate,
    dueDate,
    deliveryDate: lines.map((l) => l.deliveryDate).reduce((a, b) => (a > b ? a : b)),
    currency: (lines[0] as LineToInvoice).currency,
    language,
    seller,
    buyer,
    buyerReference: references.length === 1 ? (references[0] as string) : String(buyer.customerNo),
    ...(orders.length === 1 ? { orderReference: references[0] as string } : {}),
    paymentReference: reference,
    paymentTerms: paymentTermsSentence(language, { dueDate, reference }),
    notes: [],
    lines: documentLines,
  });
}

/** A credit note line: `quantity` pieces of the invoice line `lineNo`. */
export interface CreditRequest {
  lineNo: number;
  quantity: number;
  /** The credit run's reason ("RETURN 7", "DELIVERY 12 CANCELLED"), frozen on the line; none by hand. */
  reason?: string;
}

const CREDIT_TERMS: Record<DocumentLanguage, string> = {
  nl: 'Creditnota bij factuur {n} van {date}: het bedrag wordt verrekend.',
  fr: 'Note de crédit sur la facture {n} du {date} : le montant sera déduit.',
  de: 'Gutschrift zur Rechnung {n} vom {date}: der Betrag wird verrechnet.',
  en: 'Credit note on invoice {n} of {date}: the amount will be set off.',
};

/**
 * The snapshot of a credit note giving back `credits` of an invoice: its parties, references and
 * lines as invoiced (the frozen texts and prices), the discount in proportion to the pieces.
 */
export function creditNoteSnapshot(
  invoice: DocumentSnapshot,
  credits: readonly CreditRequest[],
  header: Pick<IssueHeader, 'seq' | 'year' | 'issueDate'>,
): DocumentSnapshot {
  const { seq, year, issueDate } = header;
  const lines: Omit<DocumentLine, 'amount'>[] = credits.map((c, i) => {
    const line = invoice.lines.find((l) => l.lineNo === c.lineNo);
    if (!line) throw new RangeError(`the invoice has no line ${c.lineNo}`);
    const { amount: _amount, ...rest } = line;
    return {
      ...rest,
      lineNo: i + 1,
      quantity: c.quantity,
      discount: Math.round((line.discount * c.quantity) / line.quantity),
      ...(c.reason ? { creditReason: c.reason } : {}),
    };
  });
  const { language } = invoice;
  const mentions = legalMentions(language);
  const snapshot = withMoney({
    type: 'CREDIT_NOTE',
    number: documentNumber('CREDIT_NOTE', year, seq),
    issueDate,
    dueDate: issueDate,
    ...(invoice.deliveryDate ? { deliveryDate: invoice.deliveryDate } : {}),
    currency: invoice.currency,
    language,
    seller: invoice.seller,
    buyer: invoice.buyer,
    buyerReference: invoice.buyerReference,
    ...(invoice.orderReference ? { orderReference: invoice.orderReference } : {}),
    paymentReference: paymentReference('CREDIT_NOTE', year, seq),
    paymentTerms: CREDIT_TERMS[language]
      .replace('{n}', invoice.number)
      .replace('{date}', writtenDate(invoice.issueDate, language)),
    corrects: { number: invoice.number, issueDate: invoice.issueDate },
    notes: [],
    lines,
  });
  // The Belgian mention on a credit note that corrects deducted VAT, in the document's language.
  if (snapshot.totals.vat > 0) snapshot.notes.push(mentions.creditNote);
  return snapshot;
}

/** The lines' amounts, the VAT breakdown and totals from the document calculator. */
function withMoney(
  doc: Omit<DocumentSnapshot, 'lines' | 'vat' | 'totals'> & { lines: Omit<DocumentLine, 'amount'>[] },
): DocumentSnapshot {
  const money = calculateDocument(doc.lines, { language: doc.language });
  return {
    ...doc,
    lines: doc.lines.map((l, i) => ({ ...l, amount: (money.lines[i] as { amount: number }).amount })),
    vat: [...money.vat],
    totals: money.totals,
  };
}
