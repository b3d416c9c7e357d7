import { describe, expect, it } from 'vitest';
import { notReturned, piecesOut } from './invoicing-read.ts';
import type { DeliveredLineRow } from './invoicing-repository.ts';

const row = (
  delivery: number,
  quantity: number,
  returned: number,
  line = 1,
  order = 1,
): DeliveredLineRow => ({
  delivery_no: delivery,
  line_no: line,
  quantity,
  delivered_at: `2026-11-0${delivery}T10:00:00.000Z`,
  delivery_reference: null,
  order_no: order,
  weborder: 'PO-1',
  currency: 'EUR',
  article_no: 'A',
  sizex: 'M',
  barcode: '1',
  unit_price: 1000,
  discount_bp: 0,
  vat_bp: 2100,
  returned,
  cancelled: 0,
});

describe('delivered lines not returned (billing’s read)', () => {
  it('takes an order line’s returned pieces off its newest deliveries first, and leaves out what all came back', () => {
    const lines = notReturned([row(1, 5, 4), row(2, 3, 4), row(3, 2, 0, 2)]);
    expect(lines.map((l) => [l.deliveryNo, l.lineNo, l.delivered, l.quantity, l.deliveryDate])).toEqual([
      [1, 1, 5, 4, '2026-11-01'],
      [3, 2, 2, 2, '2026-11-03'],
    ]);
  });

  it('keeps order lines apart: the same line number of another order is another line', () => {
    const lines = notReturned([row(1, 2, 1, 1, 1), row(2, 2, 0, 1, 2)]);
    expect(lines.map((l) => [l.orderNo, l.quantity])).toEqual([
      [1, 1],
      [2, 2],
    ]);
  });

  it('leaves out a cancelled delivery and takes no return off it', () => {
    const rows = [row(1, 5, 2), { ...row(2, 3, 2), cancelled: 1 }];
    expect(piecesOut(rows)).toEqual([3, 0]);
    expect(notReturned(rows).map((l) => [l.deliveryNo, l.quantity])).toEqual([[1, 3]]);
  });

  it('matches returns first to the pieces billing accounted for (credited, or left off an invoice)', () => {
    // 5 delivered and invoiced, 2 returned and credited on it, then 3 more delivered: the return is
    // settled on delivery 1, so delivery 2 is billed in full (not 1, which would bill 4 of 6 out).
    const rows = [row(1, 5, 2), row(2, 3, 2)];
    expect(piecesOut(rows)).toEqual([5, 1]);
    expect(piecesOut(rows, new Map([['1/1', 2]]))).toEqual([3, 3]);
    // More accounted than returned: the newest accounted line takes the returns first.
    expect(
      piecesOut(
        [row(1, 5, 1), row(2, 3, 1)],
        new Map([
          ['1/1', 1],
          ['2/1', 1],
        ]),
      ),
    ).toEqual([5, 2]);
    // Fewer accounted than returned: the rest newest first.
    expect(piecesOut(rows, new Map([['1/1', 1]]))).toEqual([4, 2]);
  });
});
