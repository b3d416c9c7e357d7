import type { DocumentParty, DocumentSnapshot } from '../document.ts';
import { ACCENT, BOLD, Canvas, GREY, LEFT, loadPdfKit, PAGE, RIGHT, RULE, WIDTH } from './canvas.ts';
import { Flow } from './flow.ts';
import { formatDate, formatEnterpriseNumber, formatIban } from './format.ts';
import { documentTitle, PDF_LABELS, type PdfLabels } from './labels.ts';
import { drawLineTable, sharedSource } from './line-table.ts';
import { drawSummary } from './summary.ts';

/**
 * The PDF of an issued invoice or credit note (issue 12; docs/billing.md, "The PDF"), made from its
 * frozen snapshot alone, in the document's language: A4, the seller's header, the buyer, the
 * document's number and dates, the lines (the table's header repeated on each page), the VAT
 * breakdown and totals, exemption mentions, the payment box with the structured communication, the
 * notes, and "page/pages" in the footer.
 *
 * Deterministic: the same snapshot gives the same bytes (the info's CreationDate is the issue date,
 * and pdfkit derives the file ID from the info), since the UBL embeds this PDF. The standard
 * Helvetica is used (nothing embedded): its WinAnsi encoding holds €, the accented letters of
 * Dutch, French and German and ß, and text extraction reads them back; other letters are written
 * without their accent (format.ts, `toWinAnsi`).
 */
export async function renderDocumentPdf(doc: DocumentSnapshot): Promise<Uint8Array> {
  const labels = PDF_LABELS[doc.language];
  const title = documentTitle(doc.type, doc.language);
  const canvas = new Canvas(await loadPdfKit(), {
    title: `${title} ${doc.number}`,
    author: doc.seller.name,
    subject: `${title} ${doc.number}, ${doc.buyer.name}`,
    creationDate: new Date(`${doc.issueDate}T00:00:00Z`),
    lang: doc.language,
  });
  const flow = new Flow(
    canvas,
    () => continuationHeader(canvas, doc, title, labels),
    firstPageHeader(canvas, doc, title, labels),
  );
  drawLineTable(canvas, flow, doc, labels);
  drawSummary(canvas, flow, doc, labels);
  canvas.eachPage((page, count) => footer(canvas, doc, labels, page, count));
  return canvas.end();
}

/** "9000 Gent"; a party in another country than the seller's "DE-20354 Hamburg" (the postal prefix of European mail). */
function cityLine(party: DocumentParty, home: string): string {
  const postal = party.countryCode === home ? party.postalCode : `${party.countryCode}-${party.postalCode}`;
  return `${postal} ${party.city}`;
}

/** The first page's top: the seller, the title with the document's data, the buyer. Returns where the lines start. */
function firstPageHeader(canvas: Canvas, doc: DocumentSnapshot, title: string, labels: PdfLabels): number {
  const { seller, buyer, language } = doc;
  const home = seller.countryCode;
  let y = 40;
  y += canvas.text(seller.name, LEFT, y, 260, { font: BOLD, size: 16, color: ACCENT }) + 4;
  for (const line of [seller.street, cityLine(seller, home), seller.email ?? '']) {
    if (line) y += canvas.text(line, LEFT, y, 260, { size: 8.5, color: GREY });
  }
  const identity = [
    seller.vatNumber && `${labels.vatNumber} ${seller.vatNumber}`,
    seller.enterpriseNumber &&
      `${labels.enterpriseNumber} ${formatEnterpriseNumber(seller.enterpriseNumber)}`,
    `${labels.iban} ${formatIban(seller.iban)}`,
    seller.bic && `${labels.bic} ${seller.bic}`,
  ].filter((line): line is string => Boolean(line));
  let right = 44;
  for (const line of identity)
    right += canvas.text(line, RIGHT - 240, right, 240, { size: 8.5, align: 'right' });
  y = Math.max(y, right) + 10;
  canvas.rule(LEFT, RIGHT, y, ACCENT, 1.2);
  y += 18;

  // Left: the title and the document's data; right: the buyer in a box.
  const top = y;
  y += canvas.text(title, LEFT, y, 250, { font: BOLD, size: 22, color: ACCENT }) + 8;
  const source = sharedSource(doc.lines);
  const facts: [string, string][] = [
    [labels.number, doc.number],
    [doc.type === 'INVOICE' ? labels.issueDate : labels.creditDate, formatDate(doc.issueDate, language)],
    [labels.dueDate, formatDate(doc.dueDate, language)],
  ];
  if (doc.deliveryDate) facts.push([labels.deliveryDate, formatDate(doc.deliveryDate, language)]);
  if (doc.corrects)
    facts.push([labels.corrects, `${doc.corrects.number} (${formatDate(doc.corrects.issueDate, language)})`]);
  if (doc.orderReference) facts.push([labels.orderReference, doc.orderReference]);
  if (doc.buyerReference && doc.buyerReference !== doc.orderReference)
    facts.push([labels.buyerReference, doc.buyerReference]);
  if (source)
    facts.push([
      labels.source,
      [source.orderNo, source.deliveryNo].filter((n) => n !== undefined).join(' / '),
    ]);
  for (const [label, value] of facts) {
    const strong = label === labels.number || label === labels.corrects;
    const height = Math.max(
      canvas.text(label, LEFT, y, 100, { size: 8.5, color: GREY }),
      canvas.text(value, LEFT + 102, y, 160, { size: 8.5, font: strong ? BOLD : undefined }),
    );
    y += height + 2.5;
  }

  const boxX = 318;
  const boxWidth = RIGHT - boxX;
  const inner = boxWidth - 24;
  const buyerLines: [string, boolean][] = [
    [buyer.name, true],
    [buyer.street, false],
    [cityLine(buyer, home), false],
  ];
  const buyerIds = [
    buyer.vatNumber && `${labels.vatNumber} ${buyer.vatNumber}`,
    buyer.enterpriseNumber && `${labels.enterpriseNumber} ${formatEnterpriseNumber(buyer.enterpriseNumber)}`,
    `${labels.customerNo} ${buyer.customerNo}`,
  ].filter((line): line is string => Boolean(line));
  const heightOfBuyer =
    12 +
    canvas.height(labels.customer, inner, { size: 7.5 }) +
    4 +
    buyerLines.reduce(
      (sum, [line, strong]) => sum + canvas.height(line, inner, { size: strong ? 10.5 : 9.5 }),
      0,
    ) +
    6 +
    buyerIds.reduce((sum, line) => sum + canvas.height(line, inner, { size: 8 }) + 1, 0) +
    10;
  canvas.box(boxX, top, boxWidth, heightOfBuyer, '#ffffff', RULE);
  let by = top + 12;
  by += canvas.text(labels.customer.toUpperCase(), boxX + 12, by, inner, { size: 7.5, color: GREY }) + 4;
  for (const [line, strong] of buyerLines)
    by += canvas.text(line, boxX + 12, by, inner, strong ? { font: BOLD, size: 10.5 } : { size: 9.5 });
  by += 6;
  for (const line of buyerIds) by += canvas.text(line, boxX + 12, by, inner, { size: 8, color: GREY }) + 1;

  return Math.max(y, top + heightOfBuyer) + 20;
}

/** The top of a following page: the document's title and number, and the buyer. Returns where the body starts. */
function continuationHeader(canvas: Canvas, doc: DocumentSnapshot, title: string, labels: PdfLabels): number {
  const y = 36;
  const left = canvas.text(`${title} ${doc.number}`, LEFT, y, WIDTH / 2 - 10, {
    font: BOLD,
    size: 10,
    color: ACCENT,
  });
  const buyer = `${doc.buyer.name} · ${labels.customerNo} ${doc.buyer.customerNo}`;
  const right = canvas.text(buyer, LEFT + WIDTH / 2, y + 1.5, WIDTH / 2, {
    size: 8.5,
    color: GREY,
    align: 'right',
  });
  // A long buyer name wraps: the rule goes below whichever side is taller.
  const bottom = y + Math.max(left, right + 1.5) + 5;
  canvas.rule(LEFT, RIGHT, bottom, ACCENT, 1);
  return bottom + 10;
}

/** Every page's foot: the seller's identity, and "Pagina 1/3". */
function footer(canvas: Canvas, doc: DocumentSnapshot, labels: PdfLabels, page: number, count: number): void {
  const { seller } = doc;
  const y = PAGE.height - 42;
  canvas.rule(LEFT, RIGHT, y - 6);
  const identity = [
    seller.name,
    `${seller.street}, ${cityLine(seller, seller.countryCode)}`,
    seller.vatNumber && `${labels.vatNumber} ${seller.vatNumber}`,
    `${labels.iban} ${formatIban(seller.iban)}`,
  ]
    .filter(Boolean)
    .join(' · ');
  canvas.text(identity, LEFT, y, WIDTH - 90, { size: 7, color: GREY });
  canvas.text(`${labels.page} ${page}/${count}`, RIGHT - 90, y, 90, { size: 7.5, align: 'right' });
}
