import { toWinAnsi } from './format.ts';

/**
 * A thin layer over pdfkit for the invoice: A4 in points, the two standard fonts, text measured
 * before it is drawn, and the vertical position kept here rather than in pdfkit's own cursor.
 * pdfkit adds a page by itself when text runs past the bottom margin; the page margins are
 * therefore zero and every page break is the layout's decision (flow.ts), never pdfkit's.
 */

type PdfKit = typeof import('pdfkit');
let pdfkit: Promise<PdfKit> | undefined;

/**
 * pdfkit, loaded on the first render rather than when the billing area is imported: loading it
 * (with fontkit and its tables) costs about 120 ms of CPU and 30 MiB, which a server that never
 * renders a PDF should not pay at start (docs/architecture.md, "Start-up and memory").
 */
export function loadPdfKit(): Promise<PdfKit> {
  pdfkit ??= import('pdfkit').then((module) => module.default);
  return pdfkit;
}

export const PAGE = { width: 595.28, height: 841.89 } as const;
/** The left and right edges of the content. */
export const LEFT = 42;
export const RIGHT = PAGE.width - 42;
export const WIDTH = RIGHT - LEFT;

export const REGULAR = 'Helvetica';
export const BOLD = 'Helvetica-Bold';
/** The structured communication, in a fixed-width face so its digits line up as on a transfer form. */
export const MONO_BOLD = 'Courier-Bold';

export const INK = '#1a1a1a';
export const GREY = '#666666';
export const RULE = '#c8c8c8';
export const SHADE = '#eeeeee';
export const ACCENT = '#1f3a5f';

export interface TextStyle {
  font?: string;
  size?: number;
  color?: string;
  align?: 'left' | 'right' | 'center';
}

export interface DocumentInfo {
  title: string;
  author: string;
  subject: string;
  /** A fixed date (the issue date): pdfkit derives the file ID from the info, so the bytes are reproducible. */
  creationDate: Date;
  lang: string;
}

export class Canvas {
  readonly doc: PDFKit.PDFDocument;
  private readonly chunks: Buffer[] = [];
  private readonly finished: Promise<void>;

  constructor(PDFDocument: PdfKit, info: DocumentInfo) {
    this.doc = new PDFDocument({
      size: 'A4',
      margins: { top: 0, bottom: 0, left: 0, right: 0 },
      bufferPages: true,
      autoFirstPage: true,
      lang: info.lang,
      displayTitle: true,
      info: {
        Title: info.title,
        Author: info.author,
        Subject: info.subject,
        Creator: 'tv2',
        Producer: 'tv2 (PDFKit)',
        CreationDate: info.creationDate,
      },
    });
    this.doc.on('data', (chunk: Buffer) => this.chunks.push(chunk));
    this.finished = new Promise((resolve, reject) => {
      this.doc.on('end', () => resolve());
      this.doc.on('error', reject);
    });
  }

  /** The height `text` takes in `width` with the style (wrapped at words, as `text` draws it). */
  height(text: string, width: number, style: TextStyle = {}): number {
    this.apply(style);
    return this.doc.heightOfString(toWinAnsi(text), { width, lineGap: 0 });
  }

  /** The width of `text` on one line. */
  widthOf(text: string, style: TextStyle = {}): number {
    this.apply(style);
    return this.doc.widthOfString(toWinAnsi(text));
  }

  /** Draws `text` wrapped in `width` from (x, y); returns its height. */
  text(text: string, x: number, y: number, width: number, style: TextStyle = {}): number {
    this.apply(style);
    this.doc.text(toWinAnsi(text), x, y, { width, align: style.align ?? 'left', lineGap: 0 });
    // pdfkit leaves its cursor below the text drawn: its height, without laying the text out again.
    return this.doc.y - y;
  }

  rule(x1: number, x2: number, y: number, color = RULE, width = 0.5): void {
    this.doc.save().moveTo(x1, y).lineTo(x2, y).lineWidth(width).strokeColor(color).stroke().restore();
  }

  box(x: number, y: number, width: number, height: number, fill: string, stroke?: string): void {
    this.doc.save().rect(x, y, width, height);
    if (stroke) this.doc.lineWidth(0.75).fillAndStroke(fill, stroke);
    else this.doc.fill(fill);
    this.doc.restore();
  }

  addPage(): void {
    this.doc.addPage();
  }

  /** Runs `draw` on every page with its number (1-based) and the count, e.g. to write "1/3". */
  eachPage(draw: (page: number, count: number) => void): void {
    const { start, count } = this.doc.bufferedPageRange();
    for (let i = start; i < start + count; i++) {
      this.doc.switchToPage(i);
      draw(i - start + 1, count);
    }
  }

  async end(): Promise<Uint8Array> {
    this.doc.end();
    await this.finished;
    return new Uint8Array(Buffer.concat(this.chunks));
  }

  private apply({ font = REGULAR, size = 8.5, color = INK }: TextStyle): void {
    this.doc.font(font).fontSize(size).fillColor(color);
  }
}
