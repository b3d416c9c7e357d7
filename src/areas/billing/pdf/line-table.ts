import type { DocumentLine, DocumentSnapshot } from '../document.ts';
import type { Canvas, TextStyle } from './canvas.ts';
import { BOLD, GREY, LEFT, SHADE, WIDTH } from './canvas.ts';
import type { Flow } from './flow.ts';
import { formatAmount, formatRate } from './format.ts';
import type { PdfLabels } from './labels.ts';

/**
 * The table of the document's lines: article, size, description, quantity, unit price, discount,
 * amount, VAT. A row is measured (its wrapped description and article number) before it is drawn;
 * one that does not fit goes to the next page, which starts with the table's header again.
 */

interface Column {
  width: number;
  align: 'left' | 'right';
  label: (labels: PdfLabels) => string;
}

const FIXED = { article: 70, size: 34, quantity: 36, unitPrice: 60, discount: 52, amount: 64, vat: 42 };
const DESCRIPTION = WIDTH - Object.values(FIXED).reduce((sum, width) => sum + width, 0);

const COLUMNS: Column[] = [
  { width: FIXED.article, align: 'left', label: (l) => l.article },
  { width: FIXED.size, align: 'left', label: (l) => l.size },
  { width: DESCRIPTION, align: 'left', label: (l) => l.description },
  { width: FIXED.quantity, align: 'right', label: (l) => l.quantity },
  { width: FIXED.unitPrice, align: 'right', label: (l) => l.unitPrice },
  { width: FIXED.discount, align: 'right', label: (l) => l.discount },
  { width: FIXED.amount, align: 'right', label: (l) => l.amount },
  { width: FIXED.vat, align: 'right', label: (l) => l.vat },
];

const PAD_X = 3;
const PAD_Y = 3.5;
const HEADER: TextStyle = { font: BOLD, size: 7.5 };
const BODY: TextStyle = { size: 8 };
const SOURCE: TextStyle = { size: 6.5, color: GREY };

/** The order and delivery all lines share, or undefined when they differ (each line then shows its own). */
export function sharedSource(
  lines: readonly DocumentLine[],
): { orderNo: number; deliveryNo?: number } | undefined {
  const first = lines[0];
  if (first?.orderNo === undefined) return undefined;
  const same = lines.every((line) => line.orderNo === first.orderNo && line.deliveryNo === first.deliveryNo);
  return same ? { orderNo: first.orderNo, deliveryNo: first.deliveryNo } : undefined;
}

export function drawLineTable(canvas: Canvas, flow: Flow, doc: DocumentSnapshot, labels: PdfLabels): void {
  const perLineSource = sharedSource(doc.lines) === undefined;
  const headerHeight = rowHeight(
    canvas,
    COLUMNS.map((column) => column.label(labels)),
    HEADER,
  );
  const rows = doc.lines.map((line) => {
    const cells = lineCells(line, doc);
    const source = perLineSource ? lineSource(line, labels) : '';
    const height =
      rowHeight(canvas, cells, BODY) + (source ? canvas.height(source, DESCRIPTION - 2 * PAD_X, SOURCE) : 0);
    return { cells, source, height };
  });

  const header = () => {
    canvas.box(LEFT, flow.y, WIDTH, headerHeight, SHADE);
    drawCells(
      canvas,
      flow.y,
      COLUMNS.map((column) => column.label(labels)),
      HEADER,
    );
    flow.y += headerHeight;
  };
  // The header never stands alone at the foot of a page.
  flow.room(headerHeight + (rows[0]?.height ?? 0));
  header();
  for (const row of rows) {
    if (flow.room(row.height)) header();
    const bottom = drawCells(canvas, flow.y, row.cells, BODY);
    if (row.source)
      canvas.text(row.source, descriptionX() + PAD_X, bottom - PAD_Y, DESCRIPTION - 2 * PAD_X, SOURCE);
    flow.y += row.height;
    canvas.rule(LEFT, LEFT + WIDTH, flow.y);
  }
}

function lineCells(line: DocumentLine, doc: DocumentSnapshot): string[] {
  const language = doc.language;
  return [
    line.articleNo,
    line.sizex,
    line.description,
    String(line.quantity),
    formatAmount(line.unitPrice, language),
    line.discount === 0 ? '' : formatAmount(line.discount, language),
    formatAmount(line.amount, language),
    vatCell(line, language),
  ];
}

/** The rate for a taxed line; for an exempt, reverse-charge or export line its category code, which the VAT breakdown names. */
function vatCell(line: DocumentLine, language: DocumentSnapshot['language']): string {
  return line.vatCategory === 'S' ? formatRate(line.vatBp, language) : line.vatCategory;
}

function lineSource(line: DocumentLine, labels: PdfLabels): string {
  const parts: string[] = [];
  if (line.orderNo !== undefined) parts.push(`${labels.order} ${line.orderNo}`);
  if (line.deliveryNo !== undefined) parts.push(`${labels.delivery} ${line.deliveryNo}`);
  return parts.join(' · ');
}

function descriptionX(): number {
  return LEFT + FIXED.article + FIXED.size;
}

function rowHeight(canvas: Canvas, cells: readonly string[], style: TextStyle): number {
  let height = 0;
  cells.forEach((cell, i) => {
    if (cell) height = Math.max(height, canvas.height(cell, COLUMNS[i]!.width - 2 * PAD_X, style));
  });
  return height + 2 * PAD_Y;
}

/** Draws one row's cells from `top`; returns the bottom of the tallest cell (padding included). */
function drawCells(canvas: Canvas, top: number, cells: readonly string[], style: TextStyle): number {
  let x = LEFT;
  let bottom = top;
  cells.forEach((cell, i) => {
    const column = COLUMNS[i]!;
    if (cell) {
      const height = canvas.text(cell, x + PAD_X, top + PAD_Y, column.width - 2 * PAD_X, {
        ...style,
        align: column.align,
      });
      bottom = Math.max(bottom, top + PAD_Y + height + PAD_Y);
    }
    x += column.width;
  });
  return bottom;
}
