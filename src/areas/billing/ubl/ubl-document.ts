import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import { lazyPackage } from '../../../kernel/lazy-package.ts';
import type {
  DocumentLine,
  DocumentParty,
  DocumentSnapshot,
  VatBreakdownRow,
  VatCategory,
} from '../document.ts';
import { moneyProblems } from '../rules/document-calculator.ts';
import { legalMentions } from '../rules/legal-mentions.ts';
import { isCanonicalStructuredReference } from '../rules/structured-reference.ts';
import {
  BELGIAN_SCHEME,
  categoryPartyProblems,
  isGtin,
  type PartyIdentity,
  partyIdentity,
} from './ubl-parties.ts';

/** xmlbuilder2 loads with the first UBL document, not at start (decision 53). */
const xmlbuilder2 = lazyPackage<typeof import('xmlbuilder2')>('xmlbuilder2');

/**
 * A billing document's Peppol BIS Billing 3.0 form (docs/billing.md, "Peppol BIS Billing 3.0"): a
 * UBL 2.1 Invoice (type 380) or CreditNote (381) written from the frozen snapshot alone, elements in
 * the UBL schema's order (the validator's Schematron rules do not check the order; an access point's
 * XSD check does, so the order follows the official examples). Amounts are the snapshot's integer
 * minor units written as decimals with two places: no float is ever formatted.
 *
 * A snapshot that would make an invalid document is refused before any XML is written
 * (UblRefusal, with every problem found): money that its lines do not give, a bad enterprise
 * number, a party without a Peppol address, a credit note without the invoice it corrects, a
 * category whose party data is missing.
 */
export interface UblOptions {
  /** The document's PDF, embedded as an additional document (BG-24). */
  pdf?: { filename: string; bytes: Uint8Array };
}

export class UblRefusal extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`cannot write this document as Peppol UBL: ${problems.join('; ')}`);
    this.name = 'UblRefusal';
    this.problems = problems;
  }
}

/** BT-24: Peppol BIS Billing 3.0 (the same for invoices and credit notes). */
export const CUSTOMIZATION_ID = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
/** BT-23: the billing process, profile 01. */
export const PROFILE_ID = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

const NS = {
  Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};

/** UN/ECE rec. 20 "piece": tv2 sells whole pieces. */
const UNIT_CODE = 'H87';
/** UNCL4461 30: credit transfer. */
const CREDIT_TRANSFER = '30';
/** UNCL5189 95: discount (a line's allowance). */
const DISCOUNT_REASON_CODE = '95';
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** Everything that keeps a snapshot from being written as a valid Peppol document; empty: none. */
export function ublProblems(doc: DocumentSnapshot, options: UblOptions = {}): string[] {
  const problems = [...moneyProblems(doc)];
  if (!doc.number.trim()) problems.push('the document has no number');
  for (const [name, value] of [
    ['issue date', doc.issueDate],
    ['due date', doc.dueDate],
    ['delivery date', doc.deliveryDate],
    ['corrected invoice date', doc.corrects?.issueDate],
  ] as const) {
    if (value !== undefined && !DATE.test(value)) problems.push(`${name} ${value} is not YYYY-MM-DD`);
  }
  if (!/^[A-Z]{3}$/.test(doc.currency)) problems.push(`currency ${doc.currency} is not ISO 4217`);
  if (!isCanonicalStructuredReference(doc.paymentReference))
    problems.push(
      `payment reference ${doc.paymentReference} is not a structured communication +++123/4567/89002+++`,
    );
  if (!doc.buyerReference.trim()) problems.push('the buyer reference is empty (PEPPOL-EN16931-R003)');
  if (!/^[A-Z]{2}\d{2}[0-9A-Z]{10,30}$/.test(doc.seller.iban))
    problems.push(`seller IBAN ${doc.seller.iban} is malformed`);
  if (doc.type === 'CREDIT_NOTE' && !doc.corrects)
    problems.push('a credit note names the invoice it corrects');
  for (const [role, party] of [
    ['seller', doc.seller],
    ['buyer', doc.buyer],
  ] as const) {
    const identity = partyIdentity(party, role);
    if (!identity.ok) problems.push(...identity.problems);
    for (const [field, value] of Object.entries({
      name: party.name,
      city: party.city,
      countryCode: party.countryCode,
    }))
      if (!value.trim()) problems.push(`${role}: ${field} is empty`);
  }
  problems.push(...categoryPartyProblems(doc));
  if (options.pdf && (options.pdf.bytes.length === 0 || !options.pdf.filename.trim()))
    problems.push('the embedded PDF has no bytes or no file name');
  return problems;
}

/** The Peppol BIS Billing 3.0 UBL of a snapshot; throws UblRefusal before writing anything if it has problems. */
export function toUbl(doc: DocumentSnapshot, options: UblOptions = {}): string {
  const problems = ublProblems(doc, options);
  if (problems.length > 0) throw new UblRefusal(problems);
  const identity = (party: DocumentParty, role: string): PartyIdentity => {
    const found = partyIdentity(party, role);
    if (!found.ok) throw new UblRefusal(found.problems);
    return found.identity;
  };
  const credit = doc.type === 'CREDIT_NOTE';
  const rootName = credit ? 'CreditNote' : 'Invoice';
  const root = xmlbuilder2().create({ version: '1.0', encoding: 'UTF-8' }).ele(NS[rootName], rootName, {
    'xmlns:cac': NS.cac,
    'xmlns:cbc': NS.cbc,
  });
  const w = new Writer(root, doc.currency);
  // Outside the scope of VAT (O): no VAT identifier of either party may appear (BR-O-02 to -04).
  const withVat = !doc.vat.some((r) => r.vatCategory === 'O');

  w.text('cbc:CustomizationID', CUSTOMIZATION_ID);
  w.text('cbc:ProfileID', PROFILE_ID);
  w.text('cbc:ID', doc.number);
  w.text('cbc:IssueDate', doc.issueDate);
  if (!credit) w.text('cbc:DueDate', doc.dueDate);
  w.text(credit ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode', credit ? '381' : '380');
  // One note at most (PEPPOL-EN16931-R002): the snapshot's notes, one per line.
  w.optional('cbc:Note', doc.notes.filter((n) => n.trim()).join('\n'));
  w.text('cbc:DocumentCurrencyCode', doc.currency);
  w.text('cbc:BuyerReference', doc.buyerReference);
  if (doc.orderReference?.trim())
    w.group('cac:OrderReference', (g) => g.text('cbc:ID', doc.orderReference as string));
  if (doc.corrects) {
    const { number, issueDate } = doc.corrects;
    w.group('cac:BillingReference', (g) =>
      g.group('cac:InvoiceDocumentReference', (r) => {
        r.text('cbc:ID', number);
        r.text('cbc:IssueDate', issueDate);
      }),
    );
  }
  if (options.pdf) {
    const { filename, bytes } = options.pdf;
    w.group('cac:AdditionalDocumentReference', (g) => {
      g.text('cbc:ID', doc.number);
      g.group('cac:Attachment', (a) =>
        a.text('cbc:EmbeddedDocumentBinaryObject', Buffer.from(bytes).toString('base64'), {
          mimeCode: 'application/pdf',
          filename,
        }),
      );
    });
  }
  w.group('cac:AccountingSupplierParty', (g) =>
    party(g, doc.seller, identity(doc.seller, 'seller'), withVat),
  );
  w.group('cac:AccountingCustomerParty', (g) => party(g, doc.buyer, identity(doc.buyer, 'buyer'), withVat));
  delivery(w, doc);
  w.group('cac:PaymentMeans', (g) => {
    g.text('cbc:PaymentMeansCode', CREDIT_TRANSFER, { name: 'Credit transfer' });
    // A credit note has no DueDate in UBL 2.1: its BT-9 is the payment means' due date.
    if (credit) g.text('cbc:PaymentDueDate', doc.dueDate);
    g.text('cbc:PaymentID', doc.paymentReference);
    g.group('cac:PayeeFinancialAccount', (a) => {
      a.text('cbc:ID', doc.seller.iban);
      if (doc.seller.bic?.trim())
        a.group('cac:FinancialInstitutionBranch', (b) => b.text('cbc:ID', doc.seller.bic as string));
    });
  });
  if (doc.paymentTerms.trim()) w.group('cac:PaymentTerms', (g) => g.text('cbc:Note', doc.paymentTerms));
  w.group('cac:TaxTotal', (g) => {
    g.amount('cbc:TaxAmount', doc.totals.vat);
    for (const row of doc.vat) taxSubtotal(g, row);
  });
  w.group('cac:LegalMonetaryTotal', (g) => {
    g.amount('cbc:LineExtensionAmount', doc.totals.lines);
    g.amount('cbc:TaxExclusiveAmount', doc.totals.net);
    g.amount('cbc:TaxInclusiveAmount', doc.totals.gross);
    if (doc.totals.payable !== doc.totals.gross)
      g.amount('cbc:PrepaidAmount', doc.totals.gross - doc.totals.payable);
    g.amount('cbc:PayableAmount', doc.totals.payable);
  });
  for (const line of doc.lines) documentLine(w, doc, line, credit);
  return root.end({ prettyPrint: true });
}

/** Writes elements with the document's currency, never an empty one (PEPPOL-EN16931-R008). */
class Writer {
  private readonly node: XMLBuilder;
  private readonly currency: string;

  constructor(node: XMLBuilder, currency: string) {
    this.node = node;
    this.currency = currency;
  }

  text(name: string, value: string, attributes?: Record<string, string>): void {
    if (!value.trim()) throw new UblRefusal([`${name} would be empty`]);
    this.node.ele(name.startsWith('cac:') ? NS.cac : NS.cbc, name, attributes).txt(value);
  }

  optional(name: string, value: string | undefined): void {
    if (value?.trim()) this.text(name, value);
  }

  amount(name: string, minor: number): void {
    this.text(name, decimal(minor), { currencyID: this.currency });
  }

  group(name: string, fill: (w: Writer) => void): void {
    fill(new Writer(this.node.ele(NS.cac, name), this.currency));
  }
}

/** Minor units as an exact decimal with two places: 123456 → "1234.56", −5 → "-0.05". */
export function decimal(minor: number): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`amount ${minor} is not whole minor units`);
  const abs = Math.abs(minor);
  return `${minor < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Basis points as a percentage: 2100 → "21", 550 → "5.5", 1250 → "12.5", 0 → "0". */
export function percent(bp: number): string {
  const fraction = String(bp % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return fraction ? `${Math.floor(bp / 100)}.${fraction}` : String(Math.floor(bp / 100));
}

function party(w: Writer, p: DocumentParty, id: PartyIdentity, withVat: boolean): void {
  w.group('cac:Party', (g) => {
    g.text('cbc:EndpointID', id.endpoint.id, { schemeID: id.endpoint.scheme });
    g.group('cac:PartyName', (n) => n.text('cbc:Name', p.name));
    address(g, 'cac:PostalAddress', p);
    if (withVat && p.vatNumber)
      g.group('cac:PartyTaxScheme', (t) => {
        t.text('cbc:CompanyID', p.vatNumber as string);
        t.group('cac:TaxScheme', (s) => s.text('cbc:ID', 'VAT'));
      });
    g.group('cac:PartyLegalEntity', (l) => {
      l.text('cbc:RegistrationName', p.name);
      if (id.enterpriseNumber) l.text('cbc:CompanyID', id.enterpriseNumber, { schemeID: BELGIAN_SCHEME });
    });
    if (p.email?.trim()) g.group('cac:Contact', (c) => c.text('cbc:ElectronicMail', p.email as string));
  });
}

function address(w: Writer, name: string, p: DocumentParty): void {
  w.group(name, (a) => {
    a.optional('cbc:StreetName', p.street);
    a.optional('cbc:CityName', p.city);
    a.optional('cbc:PostalZone', p.postalCode);
    a.group('cac:Country', (c) => c.text('cbc:IdentificationCode', p.countryCode));
  });
}

/**
 * The delivery (BG-13): its date when known; for an intra-community supply (K) also where the goods
 * went (BR-IC-12 asks for the country): the buyer's address, the snapshot having no other.
 */
function delivery(w: Writer, doc: DocumentSnapshot): void {
  const intraCommunity = doc.vat.some((r) => r.vatCategory === 'K');
  if (!doc.deliveryDate && !intraCommunity) return;
  w.group('cac:Delivery', (g) => {
    g.optional('cbc:ActualDeliveryDate', doc.deliveryDate);
    if (intraCommunity) g.group('cac:DeliveryLocation', (l) => address(l, 'cac:Address', doc.buyer));
  });
}

function taxCategory(
  w: Writer,
  name: string,
  category: VatCategory,
  vatBp: number,
  row?: VatBreakdownRow,
): void {
  w.group(name, (c) => {
    c.text('cbc:ID', category);
    // O carries no rate (BR-O-05, -09); every other category does, 0 for the exempt ones.
    if (category !== 'O') c.text('cbc:Percent', percent(vatBp));
    if (row) {
      c.optional('cbc:TaxExemptionReasonCode', row.exemptionCode);
      c.optional('cbc:TaxExemptionReason', row.exemptionReason);
    }
    c.group('cac:TaxScheme', (s) => s.text('cbc:ID', 'VAT'));
  });
}

function taxSubtotal(w: Writer, row: VatBreakdownRow): void {
  w.group('cac:TaxSubtotal', (g) => {
    g.amount('cbc:TaxableAmount', row.taxable);
    g.amount('cbc:TaxAmount', row.vat);
    taxCategory(g, 'cac:TaxCategory', row.vatCategory, row.vatBp, row);
  });
}

function documentLine(w: Writer, doc: DocumentSnapshot, line: DocumentLine, credit: boolean): void {
  w.group(credit ? 'cac:CreditNoteLine' : 'cac:InvoiceLine', (g) => {
    g.text('cbc:ID', String(line.lineNo));
    // BT-127, the line note: why the credit run gave these pieces back (UBL: after ID).
    g.optional('cbc:Note', line.creditReason);
    g.text(credit ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity', String(line.quantity), {
      unitCode: UNIT_CODE,
    });
    g.amount('cbc:LineExtensionAmount', line.amount);
    if (line.discount > 0)
      g.group('cac:AllowanceCharge', (a) => {
        a.text('cbc:ChargeIndicator', 'false');
        a.text('cbc:AllowanceChargeReasonCode', DISCOUNT_REASON_CODE);
        a.text('cbc:AllowanceChargeReason', legalMentions(doc.language).discount);
        a.amount('cbc:Amount', line.discount);
      });
    g.group('cac:Item', (item) => {
      item.text('cbc:Name', line.description);
      item.group('cac:SellersItemIdentification', (s) =>
        s.text('cbc:ID', line.sizex.trim() ? `${line.articleNo} ${line.sizex}` : line.articleNo),
      );
      if (line.barcode && isGtin(line.barcode))
        item.group('cac:StandardItemIdentification', (s) =>
          s.text('cbc:ID', line.barcode as string, { schemeID: '0160' }),
        );
      taxCategory(item, 'cac:ClassifiedTaxCategory', line.vatCategory, line.vatBp);
    });
    g.group('cac:Price', (p) => p.amount('cbc:PriceAmount', line.unitPrice));
  });
}
