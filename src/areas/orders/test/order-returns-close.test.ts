import { describe, expect, it } from 'vitest';
import { CLIENT, O100, orderContext, webOrder } from './order-context.ts';

const ctx = orderContext();
let seq = 0;

async function level(sizex: string, locationCode = 'WH') {
  const l = await ctx.t.services.stock.ledger.level({ locationCode, articleNo: 'O100-010', sizex });
  return { onHand: l.onHand, reserved: l.reserved };
}

/** A web order of the client (barcode, pieces), optionally picked up at a shop; its number. */
async function order(lines: Array<[string, number]>, data: Record<string, unknown> = {}): Promise<number> {
  const res = await ctx.t.call('POST', 'B2C_PostWebOrder', {
    token: ctx.client,
    body: webOrder(
      `RC-${++seq}`,
      lines.map(([barcode, quantity]) => ({ barcode, quantity })),
      data,
    ),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().B2CPOSTWEBORDER.ORDERNO;
}

const admin = (path: string, body?: unknown) => ctx.t.send(ctx.admin, 'POST', `/TV2/Admin/${path}`, body);

const returnRequest = (
  orderNo: number,
  lines: Array<[number, number]>,
  extra: Record<string, unknown> = {},
) =>
  ctx.t.call('POST', 'B2C_GetReturnLocation', {
    token: ctx.client,
    body: {
      RETURNREQUEST: {
        ORDERNO: String(orderNo),
        LINES: lines.map(([LINE, QUANTITY]) => ({ LINE, QUANTITY })),
        ...extra,
      },
    },
  });

const close = (orderNo: number, token = ctx.client) =>
  ctx.t.call('POST', 'B2C_CloseClientOrder', {
    token,
    body: { CLOSECLIENTORDER: { ORDERNO: orderNo } },
  });

async function lines(orderNo: number) {
  return ctx.t.database.db
    .selectFrom('sales_order_line')
    .select(['line_no', 'ordered', 'cancelled', 'reserved', 'delivered', 'returned'])
    .where('order_no', '=', orderNo)
    .orderBy('line_no')
    .execute();
}

describe('B2C_GetReturnLocation and the receipt of a return', () => {
  it('authorises delivered pieces only, with its own number and where to send them; the receipt counts once', async () => {
    const no = await order([
      [O100[0]!.barcode, 2],
      [O100[1]!.barcode, 1],
    ]);
    await admin(`orders/${no}/confirm`);
    // Nothing delivered yet: nothing to return.
    const early = await returnRequest(no, [[1, 1]]);
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('RETURN_OVER_DELIVERED');
    await admin(`orders/${no}/deliveries`, {});
    const res = await returnRequest(no, [[1, 2]], { REASON: 'too small' });
    expect(res.statusCode, res.body).toBe(200);
    const auth = res.json().B2CGETRETURNLOCATION;
    expect(auth).toMatchObject({
      ORDERNO: no,
      WEBORDER: `RC-${seq}`,
      HOWTO: 'SEND_TO_WAREHOUSE',
      LOCATION: { LOCATION: 'WH', KIND: 'WAREHOUSE' },
      LINES: [{ LINE: 1, BARCODE: O100[0]!.barcode, ARTICLE: 'O100-010', SIZEX: 'S', QUANTITY: 2 }],
    });
    expect(auth.RETURNNO).toBeGreaterThan(0);
    // Authorised already: the same pieces are not authorised twice.
    const twice = await returnRequest(no, [[1, 1]]);
    expect(twice.json()).toMatchObject({ code: 'RETURN_OVER_DELIVERED' });
    expect(twice.json().detail).toBe('Line 1: 0 delivered pieces may still be returned, not 1.');
    expect((await returnRequest(no, [[3, 1]])).statusCode).toBe(400);

    const start = await level('S');
    const received = await admin(`returns/${auth.RETURNNO}/receive`);
    expect(received.statusCode, received.body).toBe(200);
    expect(received.json()).toMatchObject({ RETURNNO: auth.RETURNNO, ORDERNO: no, LOCATION: 'WH' });
    expect(await level('S')).toEqual({ onHand: start.onHand + 2, reserved: start.reserved });
    expect((await lines(no))[0]).toMatchObject({ delivered: 2, returned: 2 });
    const again = await admin(`returns/${auth.RETURNNO}/receive`);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('RETURN_NOT_AUTHORISED');
    expect(await level('S')).toEqual({ onHand: start.onHand + 2, reserved: start.reserved });
    expect((await admin('returns/999999/receive')).json().code).toBe('RETURN_NOT_FOUND');
    // Returned in full: the line takes no more returns, and the order is still DELIVERED.
    expect((await returnRequest(no, [[1, 1]])).json().code).toBe('RETURN_OVER_DELIVERED');
    expect(await ctx.t.services.stock.ledger.verifyLedger()).toEqual([]);
  });

  it('sends the goods to a shop serving retail when asked, or to the shop the order was picked up at', async () => {
    const no = await order([[O100[2]!.barcode, 2]], { DELIVERY: 'PICKUP', PICKUPLOCATION: 'UTR' });
    await admin(`orders/${no}/confirm`);
    await admin(`orders/${no}/deliveries`, {});
    const picked = (await returnRequest(no, [[1, 1]])).json().B2CGETRETURNLOCATION;
    expect(picked).toMatchObject({ HOWTO: 'BRING_TO_SHOP', LOCATION: { LOCATION: 'UTR', KIND: 'SHOP' } });
    const asked = (await returnRequest(no, [[1, 1]], { LOCATION: 'AMS' })).json().B2CGETRETURNLOCATION;
    expect(asked).toMatchObject({ HOWTO: 'BRING_TO_SHOP', LOCATION: { LOCATION: 'AMS' } });
    const nowhere = await returnRequest(no, [[1, 1]], { LOCATION: 'NOPE' });
    expect(nowhere.statusCode).toBe(400);
    expect(nowhere.body).toContain('/RETURNREQUEST/LOCATION');
    const before = await level('L', 'AMS');
    await admin(`returns/${asked.RETURNNO}/receive`);
    expect(await level('L', 'AMS')).toEqual({ onHand: before.onHand + 1, reserved: before.reserved });
  });

  it('confines a client to its own orders', async () => {
    const no = await order([[O100[0]!.barcode, 1]]);
    const other = await ctx.t.call('POST', 'B2C_GetReturnLocation', {
      token: ctx.client,
      body: { RETURNREQUEST: { CLIENT: CLIENT + 1, ORDERNO: no, LINES: [{ LINE: 1, QUANTITY: 1 }] } },
    });
    expect(other.statusCode).toBe(403);
    const unconfined = await ctx.t.call('POST', 'B2C_GetReturnLocation', {
      token: ctx.both,
      body: { RETURNREQUEST: { CLIENT: CLIENT + 1, ORDERNO: no, LINES: [{ LINE: 1, QUANTITY: 1 }] } },
    });
    expect(unconfined.statusCode).toBe(404);
    expect(unconfined.json().code).toBe('ORDER_NOT_FOUND');
    await close(no);
  });
});

describe('B2C_CloseClientOrder', () => {
  it('cancels an order with nothing delivered, releasing its reservation', async () => {
    const start = await level('M');
    const no = await order([[O100[1]!.barcode, 3]]);
    expect(await level('M')).toEqual({ onHand: start.onHand, reserved: start.reserved + 3 });
    const res = await close(no);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().B2CCLOSECLIENTORDER).toMatchObject({
      ORDERNO: no,
      ACTION: 'cancel',
      FROM: 'NEW',
      STATE: 'CANCELLED',
      LINES: [{ ORDERED: 3, CANCELLED: 3, RESERVED: 0, OPEN: 0 }],
    });
    expect(await level('M')).toEqual(start);
    const again = await close(no);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('ORDER_MOVE_NOT_ALLOWED');
  });

  it('closes a partly delivered order as complete, cancelling and releasing the rest', async () => {
    const start = await level('M');
    const no = await order([[O100[1]!.barcode, 3]]);
    await admin(`orders/${no}/confirm`);
    await admin(`orders/${no}/deliveries`, { LINES: [{ LINE: 1, QUANTITY: 1 }] });
    const res = await close(no);
    expect(res.json().B2CCLOSECLIENTORDER).toMatchObject({
      ACTION: 'close',
      FROM: 'PARTIALLY_DELIVERED',
      STATE: 'CLOSED',
      LINES: [{ DELIVERED: 1, CANCELLED: 2, RESERVED: 0 }],
    });
    expect(await level('M')).toEqual({ onHand: start.onHand - 1, reserved: start.reserved });
    const history = await ctx.t.database.db
      .selectFrom('order_history')
      .select(['action', 'actor', 'to_state'])
      .where('order_no', '=', no)
      .orderBy('id')
      .execute();
    expect(history.at(-1)).toEqual({ action: 'close', actor: 'CLIENT', to_state: 'CLOSED' });
  });

  it('refuses once picking started, and for an order of another client', async () => {
    const no = await order([[O100[1]!.barcode, 1]]);
    await admin(`orders/${no}/confirm`);
    await admin(`orders/${no}/start-picking`);
    const res = await close(no);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'ORDER_MOVE_NOT_ALLOWED' });
    expect((await lines(no))[0]).toMatchObject({ cancelled: 0, reserved: 1 });
    const other = await ctx.t.call('POST', 'B2C_CloseClientOrder', {
      token: ctx.both,
      body: { CLOSECLIENTORDER: { CLIENT: CLIENT + 1, ORDERNO: no } },
    });
    expect(other.statusCode).toBe(404);
    await admin(`orders/${no}/cancel`);
  });
});
