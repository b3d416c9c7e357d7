import type { Canvas } from './canvas.ts';
import { PAGE } from './canvas.ts';

/** Where the body of a page ends: below it are the footer and the page number. */
export const BODY_BOTTOM = PAGE.height - 56;

/**
 * The vertical position down the pages. A block asks for its whole height before it is drawn, so
 * a table row, the totals or the payment box is never cut by a page break; a new page starts below
 * the continuation header (the document's title and number), which `continuation` draws and whose
 * bottom it returns.
 */
export class Flow {
  y: number;
  private readonly canvas: Canvas;
  private readonly continuation: () => number;

  constructor(canvas: Canvas, continuation: () => number, start: number) {
    this.canvas = canvas;
    this.continuation = continuation;
    this.y = start;
  }

  /** Makes room for `height` more points; true when that took a new page. */
  room(height: number): boolean {
    if (this.y + height <= BODY_BOTTOM) return false;
    this.canvas.addPage();
    this.y = this.continuation();
    return true;
  }
}
