import { describe, expect, it } from 'vitest';
import { CUSTOMER, O100, O200, ordCus, orderContext, STOCK } from './order-context.ts';

const ctx = orderContext();
let seq = 0;

async function level(sizex: string, articleNo = 'O100-010') {
  const l = await ctx.t.services.stock.ledger.level({ locationCode: 'WH', articleNo, sizex });
  return { onHand: l.onHand, reserved: l.reserved };
}

/** A wholesale order of the given lines (barcode, pieces); its number. */
async function order(lines: Array<[string, number]>): Promise<number> {
  const res = await ctx.t.call('POST', 'B2B_PostOrdCus', {
    token: ctx.both,
    body: ordCus(
      `MV-${++seq}`,
      lines.map(([barcode, quantity]) => ({ barcode, quantity })),
    ),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().B2BPOSTORDCUS.ORDERNO;
}

const admin = (path: string, body?: unknown) => ctx.t.send(ctx.admin, 'POST', `/TV2/Admin/${path}`, body);

async function history(orderNo: number) {
  const rows = await ctx.t.database.db
    .selectFrom('order_history')
    .select(['from_state', 'to_state', 'action', 'actor', 'reference', 'scn'])
    .where('order_no', '=', orderNo)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ ...r, scn: Number(r.scn) }));
}

async function counters(orderNo: number) {
  return ctx.t.database.db
    .selectFrom('sales_order_line')
    .select(['line_no', 'ordered', 'cancelled', 'reserved', 'delivered', 'returned'])
    .where('order_no', '=', orderNo)
    .orderBy('line_no')
    .execute();
}

describe('order moves by the back office (admin routes)', () => {
  it('walks NEW → CONFIRMED → PICKING → PARTIALLY_DELIVERED → DELIVERED → CLOSED, one history row with its SCN a move', async () => {
    const before = await level('S', 'O200-010');
    const no = await order([
      [O200[0]!.barcode, 3],
      [O200[1]!.barcode, 1],
    ]);
    expect((await admin(`orders/${no}/confirm`)).json()).toMatchObject({ FROM: 'NEW', STATE: 'CONFIRMED' });
    expect((await admin(`orders/${no}/start-picking`)).json()).toMatchObject({ STATE: 'PICKING' });
    const part = await admin(`orders/${no}/deliveries`, {
      LINES: [{ LINE: 1, QUANTITY: 2 }],
      REFERENCE: 'DN-1',
    });
    expect(part.statusCode, part.body).toBe(200);
    expect(part.json()).toMatchObject({
      DELIVERED: [{ LINE: 1, QUANTITY: 2 }],
      ORDER: { FROM: 'PICKING', STATE: 'PARTIALLY_DELIVERED', ACTION: 'deliver' },
    });
    expect(part.json().ORDER.LINES[0]).toMatchObject({ DELIVERED: 2, RESERVED: 1, OPEN: 1 });
    // Stock moves by the delivered pieces only: on hand and reserved down by 2.
    expect(await level('S', 'O200-010')).toEqual({
      onHand: before.onHand - 2,
      reserved: before.reserved + 1,
    });
    const rest = await admin(`orders/${no}/deliveries`, {});
    expect(rest.json()).toMatchObject({
      DELIVERED: [
        { LINE: 1, QUANTITY: 1 },
        { LINE: 2, QUANTITY: 1 },
      ],
      ORDER: { FROM: 'PARTIALLY_DELIVERED', STATE: 'DELIVERED' },
    });
    expect(rest.json().DELIVERYNO).toBeGreaterThan(part.json().DELIVERYNO);
    expect(await level('S', 'O200-010')).toEqual({ onHand: before.onHand - 3, reserved: before.reserved });
    expect((await admin(`orders/${no}/close`, {})).json()).toMatchObject({
      FROM: 'DELIVERED',
      STATE: 'CLOSED',
    });
    const rows = await history(no);
    expect(rows.map((r) => [r.from_state, r.action, r.to_state])).toEqual([
      [null, 'place', 'NEW'],
      ['NEW', 'confirm', 'CONFIRMED'],
      ['CONFIRMED', 'startPicking', 'PICKING'],
      ['PICKING', 'deliver', 'PARTIALLY_DELIVERED'],
      ['PARTIALLY_DELIVERED', 'deliver', 'DELIVERED'],
      ['DELIVERED', 'close', 'CLOSED'],
    ]);
    expect(rows[3]).toMatchObject({ actor: 'BACK_OFFICE', reference: `DELIVERY ${part.json().DELIVERYNO}` });
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.scn).toBeGreaterThan(rows[i - 1]!.scn);
    const stored = await ctx.t.database.db
      .selectFrom('sales_order')
      .select(['state', 'scn'])
      .where('order_no', '=', no)
      .executeTakeFirstOrThrow();
    expect([stored.state, Number(stored.scn)]).toEqual(['CLOSED', rows.at(-1)!.scn]);
  });

  it('refuses every move not in the table with 409 ORDER_MOVE_NOT_ALLOWED, leaving the order unchanged; final states accept none', async () => {
    const no = await order([[O100[0]!.barcode, 1]]);
    const before = { lines: await counters(no), history: await history(no) };
    for (const path of ['start-picking', 'deliveries']) {
      const res = await admin(`orders/${no}/${path}`, path === 'deliveries' ? {} : undefined);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().code).toBe('ORDER_MOVE_NOT_ALLOWED');
    }
    const close = await admin(`orders/${no}/close`, {});
    expect(close.json().code).toBe('ORDER_MOVE_NOT_ALLOWED');
    expect({ lines: await counters(no), history: await history(no) }).toEqual(before);
    expect((await admin(`orders/${no}/cancel`)).json()).toMatchObject({ STATE: 'CANCELLED' });
    for (const path of ['confirm', 'start-picking', 'cancel']) {
      const res = await admin(`orders/${no}/${path}`);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'ORDER_MOVE_NOT_ALLOWED' });
      expect(res.json().detail).toMatch(/CANCELLED, which is final/);
    }
    expect((await history(no)).length).toBe(before.history.length + 1);
    expect((await admin('orders/999999/confirm')).statusCode).toBe(404);
  });

  it('cancelling releases exactly what was reserved and not yet delivered', async () => {
    const start = await level('M');
    const no = await order([[O100[1]!.barcode, 4]]);
    await admin(`orders/${no}/confirm`);
    await admin(`orders/${no}/deliveries`, { LINES: [{ LINE: 1, QUANTITY: 1 }] });
    expect(await level('M')).toEqual({ onHand: start.onHand - 1, reserved: start.reserved + 3 });
    // Delivered pieces are still with the customer: cancel is refused, close cancelling the rest is not.
    expect((await admin(`orders/${no}/cancel`)).json().code).toBe('ORDER_DELIVERED_NOT_RETURNED');
    expect((await admin(`orders/${no}/close`, {})).json().code).toBe('ORDER_HAS_OPEN_QUANTITY');
    const closed = await admin(`orders/${no}/close`, { CANCELREST: true });
    expect(closed.json()).toMatchObject({ STATE: 'CLOSED' });
    expect(closed.json().LINES[0]).toMatchObject({ ORDERED: 4, DELIVERED: 1, CANCELLED: 3, RESERVED: 0 });
    expect(await level('M')).toEqual({ onHand: start.onHand - 1, reserved: start.reserved });
    expect(await ctx.t.services.stock.ledger.verifyLedger()).toEqual([]);
  });

  it('refuses a delivery beyond the open quantity, writing nothing (no delivery, no stock)', async () => {
    const no = await order([[O100[2]!.barcode, 2]]);
    await admin(`orders/${no}/confirm`);
    const start = await level('L');
    const count = async () =>
      Number(
        (
          await ctx.t.database.db
            .selectFrom('delivery')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const deliveries = await count();
    const over = await admin(`orders/${no}/deliveries`, { LINES: [{ LINE: 1, QUANTITY: 3 }] });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ code: 'ORDER_LINE_OVER_DELIVERED' });
    expect(over.json().detail).toMatch(/^Line 1: The line has 2 open, not 3/);
    const empty = await admin(`orders/${no}/deliveries`, { LINES: [{ LINE: 1, QUANTITY: 0 }] });
    expect(empty.json().code).toBe('ORDER_DELIVERY_EMPTY');
    const unknown = await admin(`orders/${no}/deliveries`, { LINES: [{ LINE: 2, QUANTITY: 1 }] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('/LINES/0/LINE');
    expect(await count()).toBe(deliveries);
    expect(await level('L')).toEqual(start);
    await admin(`orders/${no}/cancel`);
  });

  it('ships a back-order beyond its reservation from what is available on hand, never from another reservation', async () => {
    // Everything of O200-010 L is reserved by a first order; a second one stays a back-order.
    const l = await level('L', 'O200-010');
    const first = await order([[O200[2]!.barcode, l.onHand - l.reserved]]);
    const backorder = await order([[O200[2]!.barcode, 2]]);
    expect((await counters(backorder))[0]).toMatchObject({ ordered: 2, reserved: 0 });
    await admin(`orders/${backorder}/confirm`);
    const refused = await admin(`orders/${backorder}/deliveries`, {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('INSUFFICIENT_STOCK');
    expect((await counters(backorder))[0]).toMatchObject({ delivered: 0 });
    // Goods arrive: the back-order ships from on hand, the first order's reservation untouched.
    await ctx.t.services.stock.ledger.receive({
      locationCode: 'WH',
      articleNo: 'O200-010',
      sizex: 'L',
      quantity: 2,
    });
    const shipped = await admin(`orders/${backorder}/deliveries`, {});
    expect(shipped.json()).toMatchObject({ ORDER: { STATE: 'DELIVERED' } });
    const after = await level('L', 'O200-010');
    expect(after).toEqual({ onHand: l.onHand, reserved: l.onHand });
    await admin(`orders/${first}/cancel`);
    expect(await ctx.t.services.stock.ledger.verifyLedger()).toEqual([]);
  });

  it('cancels a delivery once: the pieces are open and reserved again, a second cancel is 409 and reverses nothing', async () => {
    const no = await order([
      [O100[0]!.barcode, 3],
      [O100[1]!.barcode, 2],
    ]);
    await admin(`orders/${no}/confirm`);
    const start = await level('S');
    const first = (await admin(`orders/${no}/deliveries`, { LINES: [{ LINE: 1, QUANTITY: 1 }] })).json();
    const second = (await admin(`orders/${no}/deliveries`, {})).json();
    expect(second.ORDER.STATE).toBe('DELIVERED');
    expect(await level('S')).toEqual({ onHand: start.onHand - 3, reserved: start.reserved - 3 });
    const cancelled = await admin(`deliveries/${first.DELIVERYNO}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({
      DELIVERYNO: first.DELIVERYNO,
      DELIVERED: [{ LINE: 1, QUANTITY: 1 }],
      ORDER: { ACTION: 'cancelDelivery', FROM: 'DELIVERED', STATE: 'PARTIALLY_DELIVERED' },
    });
    expect(cancelled.json().ORDER.LINES[0]).toMatchObject({ DELIVERED: 2, RESERVED: 1, OPEN: 1 });
    expect(await level('S')).toEqual({ onHand: start.onHand - 2, reserved: start.reserved - 2 });
    const again = await admin(`deliveries/${first.DELIVERYNO}/cancel`);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('DELIVERY_ALREADY_CANCELLED');
    expect(await level('S')).toEqual({ onHand: start.onHand - 2, reserved: start.reserved - 2 });
    expect((await admin('deliveries/999999/cancel')).json().code).toBe('DELIVERY_NOT_FOUND');
    // Taking back the other delivery too returns the order to CONFIRMED, with everything reserved.
    const all = await admin(`deliveries/${second.DELIVERYNO}/cancel`);
    expect(all.json().ORDER).toMatchObject({ FROM: 'PARTIALLY_DELIVERED', STATE: 'CONFIRMED' });
    expect(await counters(no)).toEqual([
      { line_no: 1, ordered: 3, cancelled: 0, reserved: 3, delivered: 0, returned: 0 },
      { line_no: 2, ordered: 2, cancelled: 0, reserved: 2, delivered: 0, returned: 0 },
    ]);
    expect(await level('S')).toEqual(start);
    expect(await ctx.t.services.stock.ledger.verifyLedger()).toEqual([]);
    await admin(`orders/${no}/cancel`);
  });
});

describe('B2B_GetDeliveryHistory', () => {
  it('lists deliveries with their lines by delivery number, paged, a confined customer its own', async () => {
    const no = await order([[O100[2]!.barcode, 2]]);
    await admin(`orders/${no}/confirm`);
    const d1 = (
      await admin(`orders/${no}/deliveries`, { LINES: [{ LINE: 1, QUANTITY: 1 }], REFERENCE: 'DN-7' })
    ).json();
    const d2 = (await admin(`orders/${no}/deliveries`, {})).json();
    await admin(`deliveries/${d1.DELIVERYNO}/cancel`);
    const one = await ctx.t.call('GET', 'B2B_GetDeliveryHistory', {
      token: ctx.customer,
      query: { strorderno: String(no), strlimit: '1' },
    });
    expect(one.statusCode, one.body).toBe(200);
    const page = one.json().B2BGETDELIVERYHISTORY;
    expect(page.NEXTOFFSET).toBe(d2.DELIVERYNO);
    expect(page.DELIVERIES).toEqual([
      expect.objectContaining({
        DELIVERYNO: d1.DELIVERYNO,
        ORDERNO: no,
        WEBORDER: `MV-${seq}`,
        CUSTOMER: CUSTOMER,
        LOCATION: 'WH',
        REFERENCE: 'DN-7',
        CANCELLED: true,
        LINES: [{ LINE: 1, BARCODE: O100[2]!.barcode, ARTICLE: 'O100-010', SIZEX: 'L', QUANTITY: 1 }],
      }),
    ]);
    const next = await ctx.t.call('GET', 'B2B_GetDeliveryHistory', {
      token: ctx.customer,
      query: { strorderno: String(no), stroffset: String(page.NEXTOFFSET) },
    });
    expect(next.json().B2BGETDELIVERYHISTORY).toMatchObject({
      NEXTOFFSET: null,
      DELIVERIES: [{ DELIVERYNO: d2.DELIVERYNO, CANCELLED: false, LINES: [{ QUANTITY: 1 }] }],
    });
    const all = await ctx.t.call('GET', 'B2B_GetDeliveryHistory', { token: ctx.customer });
    const deliveries = all.json().B2BGETDELIVERYHISTORY.DELIVERIES;
    expect(deliveries.length).toBeGreaterThan(2);
    expect(deliveries.every((d: { CUSTOMER: number }) => d.CUSTOMER === CUSTOMER)).toBe(true);
    const other = await ctx.t.call('GET', 'B2B_GetDeliveryHistory', {
      token: ctx.customer,
      query: { strcustomer: String(CUSTOMER + 1) },
    });
    expect(other.statusCode).toBe(403);
    const none = await ctx.t.call('GET', 'B2B_GetDeliveryHistory', {
      token: ctx.both,
      query: { strcustomer: String(CUSTOMER + 1) },
    });
    expect(none.json().B2BGETDELIVERYHISTORY.DELIVERIES).toEqual([]);
    expect(STOCK).toBe(10);
  });
});
