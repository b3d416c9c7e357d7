import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import type { DocumentLine, DocumentSnapshot } from '../document.ts';
import { formatAmount, formatDate, formatMoney, formatRate } from './format.ts';
import { renderDocumentPdf } from './invoice-pdf.ts';
import { PDF_LABELS } from './labels.ts';
import {
  SAMPLE_CREDIT_NOTE_FR,
  SAMPLE_INVOICE_DE_LONG,
  SAMPLE_INVOICE_EN_INTRA_EU,
  SAMPLE_INVOICE_NL,
} from './sample-documents.ts';

/**
 * The PDF read back as text (unpdf, i.e. pdf.js: what a reader or a search finds in it) must show
 * the snapshot's number, dates, lines, VAT breakdown, totals and structured communication exactly.
 * pdf.js puts a space between the pieces of text on one line and a newline between lines, so a
 * table row reads as one line "Belast 21 % 1.090,82 229,07".
 */

interface Shown {
  bytes: Uint8Array;
  pages: string[];
  /** Every line of every page. */
  lines: string[];
  /** All the text on one line (wrapped paragraphs and descriptions joined by spaces). */
  flat: string;
}

async function render(doc: DocumentSnapshot): Promise<Shown> {
  const bytes = await renderDocumentPdf(doc);
  // pdf.js takes over (detaches) the buffer it is given: hand it a copy.
  const { text: pages } = await extractText(await getDocumentProxy(bytes.slice()), { mergePages: false });
  const lines = pages.flatMap((page) => page.split('\n'));
  return { bytes, pages, lines, flat: lines.join(' ') };
}

/** The row of a line in the table, as it reads (a wrapped description joined again). */
function lineRow(line: DocumentLine, doc: DocumentSnapshot): string {
  const lang = doc.language;
  return [
    line.articleNo,
    line.sizex,
    line.description,
    String(line.quantity),
    formatAmount(line.unitPrice, lang),
    ...(line.discount ? [formatAmount(line.discount, lang)] : []),
    formatAmount(line.amount, lang),
    line.vatCategory === 'S' ? formatRate(line.vatBp, lang) : line.vatCategory,
  ].join(' ');
}

/** Asserts that everything of the snapshot a reader relies on is in the text, formatted exactly. */
function expectSnapshotShown(doc: DocumentSnapshot, shown: Shown, pageCount: number): void {
  const labels = PDF_LABELS[doc.language];
  const lang = doc.language;
  const money = (minor: number) => formatMoney(minor, doc.currency, lang);
  const { lines, flat } = shown;

  expect(lines).toContain(doc.type === 'INVOICE' ? labels.invoice : labels.creditNote);
  expect(lines).toContain(`${labels.number} ${doc.number}`);
  const dateLabel = doc.type === 'INVOICE' ? labels.issueDate : labels.creditDate;
  expect(lines).toContain(`${dateLabel} ${formatDate(doc.issueDate, lang)}`);
  expect(lines).toContain(`${labels.dueDate} ${formatDate(doc.dueDate, lang)}`);
  if (doc.deliveryDate)
    expect(lines).toContain(`${labels.deliveryDate} ${formatDate(doc.deliveryDate, lang)}`);
  if (doc.orderReference) expect(lines).toContain(`${labels.orderReference} ${doc.orderReference}`);
  if (doc.corrects) {
    const { number, issueDate } = doc.corrects;
    expect(lines).toContain(`${labels.corrects} ${number} (${formatDate(issueDate, lang)})`);
  }
  expect(lines).toContain(doc.buyer.name);
  expect(lines).toContain(`${labels.customerNo} ${doc.buyer.customerNo}`);
  if (doc.buyer.vatNumber) expect(lines).toContain(`${labels.vatNumber} ${doc.buyer.vatNumber}`);

  for (const line of doc.lines) expect(flat).toContain(lineRow(line, doc));
  for (const row of doc.vat) {
    const category =
      row.vatCategory === 'S'
        ? labels.categories.S
        : `${labels.categories[row.vatCategory]} (${row.vatCategory})`;
    const cells = [
      category,
      formatRate(row.vatBp, lang),
      formatAmount(row.taxable, lang),
      formatAmount(row.vat, lang),
    ];
    // A long category name may wrap in its cell: the row is read joined.
    expect(flat).toContain(cells.join(' '));
    if (row.exemptionReason) expect(flat).toContain(`${row.exemptionReason} (${row.exemptionCode})`);
  }
  expect(lines).toContain(`${labels.totalNet} ${money(doc.totals.net)}`);
  expect(lines).toContain(`${labels.totalVat} ${money(doc.totals.vat)}`);
  expect(lines).toContain(`${labels.totalGross} ${money(doc.totals.gross)}`);
  const payable = doc.type === 'INVOICE' ? labels.payable : labels.credited;
  expect(lines).toContain(`${payable} ${money(doc.totals.payable)}`);

  expect(lines).toContain(doc.paymentReference);
  expect(flat).toContain(`${labels.paymentTerms}: ${doc.paymentTerms}`);
  for (const note of doc.notes) expect(flat).toContain(note);

  expect(shown.pages).toHaveLength(pageCount);
  shown.pages.forEach((page, i) => {
    expect(page.trimEnd().endsWith(`${labels.page} ${i + 1}/${pageCount}`)).toBe(true);
  });
}

function expectPdf(bytes: Uint8Array): void {
  expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
  expect(Buffer.from(bytes.subarray(-6)).toString('latin1').trim()).toBe('%%EOF');
}

describe('renderDocumentPdf', () => {
  it('shows a Belgian invoice in Dutch (two VAT rates, discounts) exactly as its snapshot', async () => {
    const shown = await render(SAMPLE_INVOICE_NL);
    expectPdf(shown.bytes);
    expectSnapshotShown(SAMPLE_INVOICE_NL, shown, 1);
    // Literal, so a bug shared by the formatter and the expectations above still shows.
    expect(shown.lines).toContain('Factuurdatum 20-11-2026');
    expect(shown.lines).toContain('Belast 21 % 1.090,82 229,07');
    expect(shown.lines).toContain('Belast 6 % 25,00 1,50');
    expect(shown.lines).toContain('Te betalen € 1.346,39');
    expect(shown.lines).toContain(
      'J20417-120 52 Colbert scheerwol, antraciet, slim fit 3 149,00 44,70 402,30 21 %',
    );
    expect(shown.lines).toContain('+++123/4567/89002+++');
    expect(shown.flat).toContain(
      'Gelieve € 1.346,39 te betalen uiterlijk op 20-12-2026 op rekening BE68 5390 0754 7034',
    );
    expect(shown.pages[0]!.trimEnd().endsWith('Pagina 1/1')).toBe(true);
  });

  it('shows a credit note in French with the invoice it corrects and the legal mention', async () => {
    const shown = await render(SAMPLE_CREDIT_NOTE_FR);
    expectPdf(shown.bytes);
    expectSnapshotShown(SAMPLE_CREDIT_NOTE_FR, shown, 1);
    expect(shown.lines).toContain('Note de crédit');
    expect(shown.lines).toContain('Concerne la facture 2026-000123 (20/11/2026)');
    expect(shown.lines).toContain('Taxable 21 % 184,00 38,64');
    expect(shown.lines).toContain('À créditer 222,64 €');
    expect(shown.lines).toContain(
      "TVA à reverser à l'État dans la mesure où elle a été initialement déduite.",
    );
  });

  it('shows an English intra-community supply with its exemption mention', async () => {
    const shown = await render(SAMPLE_INVOICE_EN_INTRA_EU);
    expectPdf(shown.bytes);
    expectSnapshotShown(SAMPLE_INVOICE_EN_INTRA_EU, shown, 1);
    expect(shown.lines).toContain('Intra-community supply (K) 0% 3,161.00 0.00');
    expect(shown.lines).toContain('Amount due €3,161.00');
    expect(shown.lines).toContain('Invoice date 21 Nov 2026');
    expect(shown.flat).toContain('exempt from VAT under Article 138 of Directive 2006/112/EC');
    expect(shown.flat).toContain('(VATEX-EU-IC)');
    // ß and ö, and the foreign buyer's postal code with its country.
    expect(shown.lines).toContain('Große Bleichen 12');
    expect(shown.lines).toContain('DE-20354 Hamburg');
  });

  it('breaks a 120-line invoice over pages, repeating the table header, numbering the pages', async () => {
    const doc = SAMPLE_INVOICE_DE_LONG;
    expect(doc.lines).toHaveLength(120);
    const shown = await render(doc);
    expectPdf(shown.bytes);
    expectSnapshotShown(doc, shown, 5);
    const header = 'Artikel Größe Beschreibung Menge Einzelpreis Rabatt Betrag USt.';
    const pagesWithHeader = shown.pages.filter((page) => page.split('\n').includes(header));
    expect(pagesWithHeader).toHaveLength(4);
    // Every line once, in order, none cut by a page break.
    const positions = doc.lines.map((line) => shown.flat.indexOf(lineRow(line, doc)));
    expect(positions.every((at, i) => at >= 0 && (i === 0 || at > positions[i - 1]!))).toBe(true);
    expect(shown.lines).toContain('Zu zahlen 59.056,55 €');
    expect(shown.lines).toContain('Steuerpflichtig 21 % 43.972,05 9.234,13');
    expect(shown.pages[2]!.trimEnd().endsWith('Seite 3/5')).toBe(true);
  });

  it('gives the same bytes for the same snapshot, dated by its issue date', async () => {
    const first = await renderDocumentPdf(SAMPLE_INVOICE_NL);
    const second = await renderDocumentPdf(structuredClone(SAMPLE_INVOICE_NL));
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
    const raw = Buffer.from(first).toString('latin1');
    expect(raw).toContain('(D:20261120000000Z)');
    const other = await renderDocumentPdf({ ...SAMPLE_INVOICE_NL, number: '2026-000124' });
    expect(Buffer.from(other).equals(Buffer.from(first))).toBe(false);
  });

  it('writes letters outside the standard font without their accent rather than as wrong glyphs', async () => {
    const doc: DocumentSnapshot = {
      ...SAMPLE_INVOICE_EN_INTRA_EU,
      buyer: {
        ...SAMPLE_INVOICE_EN_INTRA_EU.buyer,
        name: 'Hurtownia Łódź Sp. z o.o.',
        city: 'Łódź',
        countryCode: 'PL',
      },
    };
    const shown = await render(doc);
    // ó is in the standard font; Ł and ź are not.
    expect(shown.lines).toContain('Hurtownia Lódz Sp. z o.o.');
    expect(shown.lines).toContain('PL-20354 Lódz');
  });
});
