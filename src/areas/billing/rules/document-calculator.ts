import { percentOf } from '../../../kernel/money.ts';
import type {
  DocumentLanguage,
  DocumentSnapshot,
  DocumentTotals,
  VatBreakdownRow,
  VatCategory,
} from '../document.ts';
import { legalMentions } from './legal-mentions.ts';

/**
 * The money of a billing document (docs/billing.md, "VAT breakdown and rounding"): pure, integer
 * minor units throughout, the same rounding rule as the orders' calculator (money.ts's percentOf:
 * half away from zero, to the cent).
 *
 * Each line's amount is exact (quantity × unit price − its discount, both already in cents). The
 * VAT breakdown has one row per (category, rate); each row's VAT is the rate applied once to the
 * row's taxable sum, never a sum of rounded line VAT (EU VAT directive art. 226; EN 16931 BR-CO-17,
 * BR-S-08). Totals follow EN 16931 (BR-CO-10, -13, -14, -15, -16): no document-level allowances or
 * charges, so the taxable amount is the sum of the lines.
 *
 * Category rules (EN 16931 BR-S/Z/E/AE/IC/G/O): S has a rate above 0; Z, E, AE, K, G and O have
 * rate 0; E, AE, K, G and O carry an exemption reason (in the document's language) and a VATEX
 * code (AE → VATEX-EU-AE, K → VATEX-EU-IC, G → VATEX-EU-G, O → VATEX-EU-O; E's reason and code are
 * the caller's: an exemption has many legal grounds); O is never mixed with another category.
 */
export interface LineInput {
  /** Whole pieces, at least 1. */
  readonly quantity: number;
  /** Net price of one piece, minor units. */
  readonly unitPrice: number;
  /** The line's allowance, minor units, 0 to quantity × unitPrice. */
  readonly discount: number;
  readonly vatCategory: VatCategory;
  /** Basis points (2100 = 21 %); 0 for every category but S. */
  readonly vatBp: number;
}

export interface CalculatedDocumentLine extends LineInput {
  /** quantity × unitPrice − discount. */
  readonly amount: number;
}

export interface DocumentMoney {
  readonly lines: readonly CalculatedDocumentLine[];
  /** One row per (category, rate): categories in the order S, Z, E, AE, K, G, O; rates ascending. */
  readonly vat: readonly VatBreakdownRow[];
  readonly totals: DocumentTotals;
}

export interface DocumentMoneyOptions {
  readonly language: DocumentLanguage;
  /** For lines of category E: the legal ground of the exemption, and its VATEX code if it has one. */
  readonly exemption?: { readonly reason: string; readonly code?: string };
  /** Already paid (BT-113), minor units; payable = gross − prepaid. */
  readonly prepaid?: number;
}

const CATEGORY_ORDER: readonly VatCategory[] = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O'];

/** The VATEX code of each exempt category but E (whose ground the caller gives). */
export const VATEX_CODES: Readonly<Partial<Record<VatCategory, string>>> = {
  AE: 'VATEX-EU-AE',
  K: 'VATEX-EU-IC',
  G: 'VATEX-EU-G',
  O: 'VATEX-EU-O',
};

/** The categories that carry an exemption reason and code. */
export function isExemptCategory(category: VatCategory): boolean {
  return category !== 'S' && category !== 'Z';
}

export function calculateDocument(lines: readonly LineInput[], options: DocumentMoneyOptions): DocumentMoney {
  if (lines.length === 0) throw new RangeError('a document has at least one line');
  const calculated = lines.map(calculateLine);
  const categories = new Set(calculated.map((l) => l.vatCategory));
  if (categories.has('O') && categories.size > 1)
    throw new RangeError('category O (outside the scope of VAT) is never mixed with another category');

  const sums = new Map<string, { vatCategory: VatCategory; vatBp: number; taxable: number }>();
  for (const line of calculated) {
    const key = `${line.vatCategory}/${line.vatBp}`;
    const row = sums.get(key) ?? { vatCategory: line.vatCategory, vatBp: line.vatBp, taxable: 0 };
    row.taxable += line.amount;
    sums.set(key, row);
  }
  const vat = [...sums.values()]
    .sort(
      (a, b) =>
        CATEGORY_ORDER.indexOf(a.vatCategory) - CATEGORY_ORDER.indexOf(b.vatCategory) || a.vatBp - b.vatBp,
    )
    .map((row) => breakdownRow(row, options));

  const sum = (values: number[]) => values.reduce((n, v) => n + v, 0);
  const linesTotal = sum(calculated.map((l) => l.amount));
  const vatTotal = sum(vat.map((r) => r.vat));
  const gross = linesTotal + vatTotal;
  const prepaid = options.prepaid ?? 0;
  if (!Number.isSafeInteger(prepaid) || prepaid < 0) throw new RangeError(`prepaid amount ${prepaid}`);
  return {
    lines: calculated,
    vat,
    totals: { lines: linesTotal, net: linesTotal, vat: vatTotal, gross, payable: gross - prepaid },
  };
}

function calculateLine(line: LineInput, index: number): CalculatedDocumentLine {
  const { quantity, unitPrice, discount, vatCategory, vatBp } = line;
  const where = `line ${index + 1}`;
  if (!Number.isSafeInteger(quantity) || quantity < 1) throw new RangeError(`${where}: quantity ${quantity}`);
  if (!Number.isSafeInteger(unitPrice) || unitPrice < 0)
    throw new RangeError(`${where}: unit price ${unitPrice}`);
  if (!CATEGORY_ORDER.includes(vatCategory)) throw new RangeError(`${where}: VAT category ${vatCategory}`);
  if (!Number.isSafeInteger(vatBp) || vatBp < 0 || vatBp > 10_000)
    throw new RangeError(`${where}: VAT rate ${vatBp} bp`);
  if (vatCategory === 'S' ? vatBp === 0 : vatBp !== 0)
    throw new RangeError(
      `${where}: category ${vatCategory} ${vatCategory === 'S' ? 'needs a rate above 0' : 'has rate 0'}, not ${vatBp} bp`,
    );
  const listAmount = quantity * unitPrice;
  // Amounts stay exact: the rate is applied to sums of these, so keep their products below 2^53.
  if (!Number.isSafeInteger(listAmount * 10_000))
    throw new RangeError(`${where}: amount too large to compute exactly`);
  if (!Number.isSafeInteger(discount) || discount < 0 || discount > listAmount)
    throw new RangeError(`${where}: discount ${discount} (0 to ${listAmount})`);
  return { ...line, amount: listAmount - discount };
}

function breakdownRow(
  { vatCategory, vatBp, taxable }: { vatCategory: VatCategory; vatBp: number; taxable: number },
  { language, exemption }: DocumentMoneyOptions,
): VatBreakdownRow {
  if (!Number.isSafeInteger(taxable * 10_000))
    throw new RangeError(`the ${vatCategory} ${vatBp} bp row: amount too large to compute exactly`);
  const row: VatBreakdownRow = { vatCategory, vatBp, taxable, vat: percentOf(taxable, vatBp) };
  if (!isExemptCategory(vatCategory)) return row;
  if (vatCategory === 'E') {
    if (!exemption?.reason.trim()) throw new RangeError('category E (exempt) needs the exemption reason');
    return {
      ...row,
      exemptionReason: exemption.reason,
      ...(exemption.code ? { exemptionCode: exemption.code } : {}),
    };
  }
  const mentions = legalMentions(language);
  const reasons: Partial<Record<VatCategory, string>> = {
    AE: mentions.reverseCharge,
    K: mentions.intraCommunitySupply,
    G: mentions.export,
    O: mentions.outsideScope,
  };
  const reason = reasons[vatCategory] as string;
  return { ...row, exemptionReason: reason, exemptionCode: VATEX_CODES[vatCategory] as string };
}

/**
 * What is wrong with a snapshot's money: each line's amount, each breakdown row and the totals
 * compared with what its lines give, and the exemption reasons and codes where the categories need
 * them. An empty list: consistent. Renderers check it before writing a document, so an
 * inconsistent snapshot is refused rather than sent.
 */
export function moneyProblems(doc: DocumentSnapshot): string[] {
  const problems: string[] = [];
  let money: DocumentMoney;
  try {
    const exemptRow = doc.vat.find((r) => r.vatCategory === 'E');
    money = calculateDocument(doc.lines, {
      language: doc.language,
      prepaid: doc.totals.gross - doc.totals.payable,
      ...(exemptRow?.exemptionReason
        ? { exemption: { reason: exemptRow.exemptionReason, code: exemptRow.exemptionCode } }
        : {}),
    });
  } catch (error) {
    return [(error as Error).message];
  }
  doc.lines.forEach((line, i) => {
    if (line.amount !== money.lines[i]?.amount)
      problems.push(
        `line ${line.lineNo}: amount ${line.amount}, its quantity, price and discount give ${money.lines[i]?.amount}`,
      );
  });
  const key = (r: VatBreakdownRow) => `${r.vatCategory} ${r.vatBp} bp: taxable ${r.taxable}, VAT ${r.vat}`;
  const stored = doc.vat.map(key).join('; ');
  const computed = money.vat.map(key).join('; ');
  if (stored !== computed) problems.push(`VAT breakdown [${stored}], the lines give [${computed}]`);
  for (const row of doc.vat) {
    const exempt = isExemptCategory(row.vatCategory);
    if (exempt && !row.exemptionReason?.trim())
      problems.push(`VAT category ${row.vatCategory} needs its exemption reason`);
    if (exempt && row.vatCategory !== 'E' && row.exemptionCode !== VATEX_CODES[row.vatCategory])
      problems.push(`VAT category ${row.vatCategory} has the code ${VATEX_CODES[row.vatCategory]}`);
    if (!exempt && (row.exemptionReason || row.exemptionCode))
      problems.push(`VAT category ${row.vatCategory} has no exemption reason or code`);
  }
  for (const name of ['lines', 'net', 'vat', 'gross'] as const) {
    if (doc.totals[name] !== money.totals[name])
      problems.push(`total ${name} ${doc.totals[name]}, the lines give ${money.totals[name]}`);
  }
  return problems;
}
