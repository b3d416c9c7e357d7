/**
 * An issued billing document (invoice or credit note) as it is frozen at issue: the one snapshot
 * the PDF, the Peppol BIS Billing 3.0 UBL and the content hash are all made from (issue 12). Once
 * issued it never changes; everything a renderer needs is in it (no look-up of a party, an article
 * or a text at render time: those may change or be anonymised later, the document may not).
 *
 * Money is integer minor units (cents) of `currency`, never binary floats; rates are basis points
 * (2100 = 21 %). Line amounts are net (VAT excluded). The VAT of each rate is computed once on the
 * sum of that rate's line amounts (EU VAT directive art. 226; EN 16931 BR-CO rules), never summed
 * from rounded lines.
 */

/** The EN 16931 VAT category codes (UNCL5305 subset used in Peppol BIS 3.0). */
export type VatCategory =
  /** Standard or reduced rate. */
  | 'S'
  /** Zero rated. */
  | 'Z'
  /** Exempt from VAT (needs an exemption reason). */
  | 'E'
  /** Reverse charge (buyer accounts for the VAT; needs both VAT numbers). */
  | 'AE'
  /** Intra-community supply of goods (VAT exempt; needs both VAT numbers). */
  | 'K'
  /** Export outside the EU. */
  | 'G'
  /** Outside the scope of VAT. */
  | 'O';

export type DocumentType = 'INVOICE' | 'CREDIT_NOTE';

/** The languages of the product's text slots (docs/api-conventions.md). */
export type DocumentLanguage = 'nl' | 'fr' | 'de' | 'en';

/** A party as it stood at issue. */
export interface DocumentParty {
  name: string;
  street: string;
  postalCode: string;
  city: string;
  /** ISO 3166-1 alpha-2, e.g. "BE". */
  countryCode: string;
  /** The VAT identifier with its country prefix, e.g. "BE0123456749"; absent for a party without one. */
  vatNumber?: string;
  /**
   * The Belgian enterprise number (KBO/BCE), 10 digits, e.g. "0123456749" (mod-97 checked): the
   * Peppol endpoint and legal registration under ICD scheme 0208. Belgian parties only.
   */
  enterpriseNumber?: string;
  email?: string;
}

/** The seller: the trader running tv2 (its settings), with where to pay. */
export interface DocumentSeller extends DocumentParty {
  /** The account payments go to (IBAN, no spaces). */
  iban: string;
  bic?: string;
}

/** The buyer: a wholesale customer. */
export interface DocumentBuyer extends DocumentParty {
  customerNo: number;
}

export interface DocumentLine {
  /** 1, 2, 3, ... in document order. */
  lineNo: number;
  articleNo: string;
  sizex: string;
  barcode?: string;
  /** The article's description in the document's language (frozen). */
  description: string;
  /** Whole pieces, at least 1 (a credit note's quantities are positive too: the type says it is a credit). */
  quantity: number;
  /** Net price of one piece, minor units. */
  unitPrice: number;
  /** The line's allowance (discount), minor units, ≥ 0. */
  discount: number;
  /** quantity × unitPrice − discount, minor units. */
  amount: number;
  vatCategory: VatCategory;
  /** The VAT rate, basis points (0 for categories other than S). */
  vatBp: number;
  /** Where the line comes from (a delivery line of an order), for the reader. */
  orderNo?: number;
  deliveryNo?: number;
  /**
   * A credit note line made by the credit run: why the pieces are given back ("RETURN 7",
   * "DELIVERY 12 CANCELLED"; BT-127, the line note). Absent on invoices and credit notes by hand.
   */
  creditReason?: string;
}

/** One row of the VAT breakdown: the lines of one (category, rate), the rate applied once to their sum. */
export interface VatBreakdownRow {
  vatCategory: VatCategory;
  vatBp: number;
  /** Σ line amounts of this category and rate (the taxable base), minor units. */
  taxable: number;
  /** The VAT of the row, rounded once, minor units. */
  vat: number;
  /** For E, AE, K, G, O: the legal mention, in the document's language. */
  exemptionReason?: string;
  /** For E, AE, K, G, O: the VATEX code, e.g. "VATEX-EU-AE", "VATEX-EU-IC". */
  exemptionCode?: string;
}

export interface DocumentTotals {
  /** Σ line amounts (BT-106). */
  lines: number;
  /** The taxable amount (BT-109): lines, no document-level allowances or charges. */
  net: number;
  /** Σ VAT of the breakdown (BT-110). */
  vat: number;
  /** net + vat (BT-112). */
  gross: number;
  /** What is to be paid (BT-115): gross − prepaid. */
  payable: number;
}

export interface DocumentSnapshot {
  type: DocumentType;
  /** The gapless number of its series, e.g. "2026-000123" (INV or CN series). */
  number: string;
  /** YYYY-MM-DD. */
  issueDate: string;
  /** YYYY-MM-DD; the payment due date (always present: BR-CO-25 of older rule sets). */
  dueDate: string;
  /** YYYY-MM-DD: when the goods were delivered (the last delivery invoiced). */
  deliveryDate?: string;
  /** ISO 4217, e.g. "EUR". */
  currency: string;
  language: DocumentLanguage;
  seller: DocumentSeller;
  buyer: DocumentBuyer;
  /** BT-10: the buyer's reference (the customer's order reference, else its customer number). */
  buyerReference: string;
  /** BT-13: the order the document concerns, if one. */
  orderReference?: string;
  /** The Belgian structured communication, "+++123/4567/89012+++". */
  paymentReference: string;
  /** Payment terms in words, in the document's language (BT-20). */
  paymentTerms: string;
  /** A credit note: the invoice it corrects (BT-25, BT-26). */
  corrects?: { number: string; issueDate: string };
  /** Free notes (BT-22), e.g. the credit note's legal mention. */
  notes: string[];
  lines: DocumentLine[];
  /** One row per (category, rate), in a stable order (category, then rate). */
  vat: VatBreakdownRow[];
  totals: DocumentTotals;
}
