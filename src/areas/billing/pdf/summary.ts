import type { DocumentSnapshot, VatBreakdownRow } from '../document.ts';
import type { Canvas, TextStyle } from './canvas.ts';
import { ACCENT, BOLD, GREY, LEFT, MONO_BOLD, RIGHT, SHADE, WIDTH } from './canvas.ts';
import type { Flow } from './flow.ts';
import { formatAmount, formatDate, formatIban, formatMoney, formatRate } from './format.ts';
import type { PdfLabels } from './labels.ts';

/**
 * What follows the lines: the VAT breakdown beside the totals, the exemption and reverse-charge
 * mentions, the payment box (terms, what to pay by when, the structured communication) and the
 * notes. Each is one block, measured first and moved whole to the next page when it does not fit.
 */

const GAP = 16;
const PAD = 3.5;
const BODY: TextStyle = { size: 8.5 };
const HEAD: TextStyle = { font: BOLD, size: 7.5 };

export function drawSummary(canvas: Canvas, flow: Flow, doc: DocumentSnapshot, labels: PdfLabels): void {
  flow.y += GAP;
  const breakdown = vatTable(canvas, doc, labels);
  const totals = totalsTable(canvas, doc, labels);
  flow.room(Math.max(breakdown.height, totals.height));
  breakdown.draw(flow.y);
  totals.draw(flow.y);
  flow.y += Math.max(breakdown.height, totals.height);

  const mentions = doc.vat.filter((row) => row.exemptionReason).map(mention);
  if (mentions.length > 0) {
    flow.y += GAP / 2;
    for (const text of mentions) {
      const height = canvas.height(text, WIDTH, BODY) + 3;
      flow.room(height);
      canvas.text(text, LEFT, flow.y, WIDTH, BODY);
      flow.y += height;
    }
  }

  flow.y += GAP;
  paymentBox(canvas, flow, doc, labels);

  if (doc.notes.length > 0) {
    flow.y += GAP;
    const heading = canvas.height(labels.notes, WIDTH, { font: BOLD, size: 9 }) + 3;
    const first = canvas.height(doc.notes[0]!, WIDTH, BODY);
    flow.room(heading + first);
    canvas.text(labels.notes, LEFT, flow.y, WIDTH, { font: BOLD, size: 9 });
    flow.y += heading;
    for (const note of doc.notes) {
      const height = canvas.height(note, WIDTH, BODY) + 3;
      flow.room(height);
      canvas.text(note, LEFT, flow.y, WIDTH, BODY);
      flow.y += height;
    }
  }
}

function mention(row: VatBreakdownRow): string {
  return row.exemptionCode ? `${row.exemptionReason} (${row.exemptionCode})` : row.exemptionReason!;
}

interface Block {
  height: number;
  draw: (top: number) => void;
}

const VAT_COLUMNS = [
  { width: 126, align: 'left' as const },
  { width: 36, align: 'right' as const },
  { width: 96, align: 'right' as const },
  { width: 60, align: 'right' as const },
];
const VAT_WIDTH = VAT_COLUMNS.reduce((sum, column) => sum + column.width, 0);

/** The VAT breakdown: one row per category and rate, with its taxable base and VAT. */
function vatTable(canvas: Canvas, doc: DocumentSnapshot, labels: PdfLabels): Block {
  const language = doc.language;
  const title = labels.vatBreakdown;
  const header = [labels.category, labels.rate, labels.taxable, labels.vatAmount];
  const rows = doc.vat.map((row) => [
    row.vatCategory === 'S'
      ? labels.categories.S
      : `${labels.categories[row.vatCategory]} (${row.vatCategory})`,
    formatRate(row.vatBp, language),
    formatAmount(row.taxable, language),
    formatAmount(row.vat, language),
  ]);
  const titleHeight = canvas.height(title, VAT_WIDTH, { font: BOLD, size: 9 }) + 4;
  const heightOf = (cells: string[], style: TextStyle) =>
    Math.max(...cells.map((cell, i) => canvas.height(cell, VAT_COLUMNS[i]!.width - 2 * PAD, style))) +
    2 * PAD;
  const headerHeight = heightOf(header, HEAD);
  const rowHeights = rows.map((cells) => heightOf(cells, BODY));
  return {
    height: titleHeight + headerHeight + rowHeights.reduce((sum, h) => sum + h, 0),
    draw: (top) => {
      canvas.text(`${title} (${doc.currency})`, LEFT, top, VAT_WIDTH, { font: BOLD, size: 9 });
      let y = top + titleHeight;
      canvas.box(LEFT, y, VAT_WIDTH, headerHeight, SHADE);
      drawRow(canvas, y, header, HEAD);
      y += headerHeight;
      rows.forEach((cells, i) => {
        drawRow(canvas, y, cells, BODY);
        y += rowHeights[i]!;
        canvas.rule(LEFT, LEFT + VAT_WIDTH, y);
      });
    },
  };
}

function drawRow(canvas: Canvas, top: number, cells: string[], style: TextStyle): void {
  let x = LEFT;
  cells.forEach((cell, i) => {
    const column = VAT_COLUMNS[i]!;
    canvas.text(cell, x + PAD, top + PAD, column.width - 2 * PAD, { ...style, align: column.align });
    x += column.width;
  });
}

const TOTALS_WIDTH = 180;

/** The totals: net, VAT, total, prepaid when there is, and what is to pay (or credited) in bold. */
function totalsTable(canvas: Canvas, doc: DocumentSnapshot, labels: PdfLabels): Block {
  const { totals, currency, language } = doc;
  const money = (minor: number) => formatMoney(minor, currency, language);
  const rows: { label: string; value: string; strong?: boolean }[] = [];
  if (totals.lines !== totals.net) rows.push({ label: labels.totalLines, value: money(totals.lines) });
  rows.push({ label: labels.totalNet, value: money(totals.net) });
  rows.push({ label: labels.totalVat, value: money(totals.vat) });
  rows.push({ label: labels.totalGross, value: money(totals.gross), strong: true });
  if (totals.payable !== totals.gross)
    rows.push({ label: labels.prepaid, value: money(totals.gross - totals.payable) });
  const last = {
    label: doc.type === 'INVOICE' ? labels.payable : labels.credited,
    value: money(totals.payable),
  };
  const x = RIGHT - TOTALS_WIDTH;
  const labelWidth = 110;
  const rowHeight = 14;
  const lastHeight = 22;
  // Aligned with the first row of the VAT table (below its title).
  const offset = canvas.height(labels.vatBreakdown, VAT_WIDTH, { font: BOLD, size: 9 }) + 4;
  return {
    height: offset + rows.length * rowHeight + lastHeight + 4,
    draw: (top) => {
      let y = top + offset;
      for (const row of rows) {
        if (row.strong) canvas.rule(x, RIGHT, y, INK_RULE, 0.75);
        const style: TextStyle = { size: 8.5, font: row.strong ? BOLD : undefined };
        canvas.text(row.label, x + PAD, y + PAD, labelWidth, style);
        canvas.text(row.value, x + labelWidth, y + PAD, TOTALS_WIDTH - labelWidth - PAD, {
          ...style,
          align: 'right',
        });
        y += rowHeight;
      }
      y += 4;
      canvas.box(x, y, TOTALS_WIDTH, lastHeight, ACCENT);
      const style: TextStyle = { font: BOLD, size: 10.5, color: '#ffffff' };
      canvas.text(last.label, x + PAD + 2, y + 6, labelWidth, style);
      canvas.text(last.value, x + labelWidth - 20, y + 6, TOTALS_WIDTH - labelWidth + 20 - PAD - 2, {
        ...style,
        align: 'right',
      });
    },
  };
}

const INK_RULE = '#888888';

/** The payment box: the terms, the sentence saying what to pay by when to which account, and the structured communication, large. */
function paymentBox(canvas: Canvas, flow: Flow, doc: DocumentSnapshot, labels: PdfLabels): void {
  const { language, seller } = doc;
  const inner = WIDTH - 24;
  const terms = `${labels.paymentTerms}: ${doc.paymentTerms}`;
  const amount = formatMoney(doc.totals.payable, doc.currency, language);
  const account = seller.bic
    ? `${formatIban(seller.iban)} (${labels.bic} ${seller.bic})`
    : formatIban(seller.iban);
  const instruction =
    doc.type === 'INVOICE'
      ? labels.payInstruction(amount, formatDate(doc.dueDate, language), account)
      : labels.creditInstruction(amount);
  const reference: TextStyle = { font: MONO_BOLD, size: 16, color: ACCENT };
  const termsHeight = canvas.height(terms, inner, { size: 8.5 });
  const instructionHeight = canvas.height(instruction, inner, { font: BOLD, size: 9 });
  const referenceHeight = canvas.height(doc.paymentReference, inner, reference);
  const height = 12 + termsHeight + 6 + instructionHeight + 8 + referenceHeight + 10;
  flow.room(height);
  const top = flow.y;
  canvas.box(LEFT, top, WIDTH, height, '#f3f6fa', ACCENT);
  let y = top + 12;
  canvas.text(terms, LEFT + 12, y, inner, { size: 8.5, color: GREY });
  y += termsHeight + 6;
  canvas.text(instruction, LEFT + 12, y, inner, { font: BOLD, size: 9 });
  y += instructionHeight + 8;
  canvas.text(doc.paymentReference, LEFT + 12, y, inner, reference);
  flow.y = top + height;
}
