import { describe, expect, it } from 'vitest';
import { CLIENT, CUSTOMER, O100, O200, ordCus, orderContext, webOrder } from './order-context.ts';
import { read } from './read-helpers.ts';

/**
 * The reads over an order's real life (the moves service, not moves by hand): what the order
 * answers after each move, and the moves the state feeds answer, in order, once each.
 */

const ctx = orderContext();

describe('the order reads through an order’s life', () => {
  it('follows a wholesale order from placement to closing in B2B_GetOrder, B2B_GetOrderState and the feed', async () => {
    const start = await read(ctx.t, ctx.customer, 'B2B_GetOrderStateChanges', { strscn: 0 });
    const res = await ctx.t.call('POST', 'B2B_PostOrdCus', {
      token: ctx.customer,
      body: ordCus('L-1', [
        { barcode: O100[0]!.barcode, quantity: 3 },
        { barcode: O200[0]!.barcode, quantity: 2 },
      ]),
    });
    expect(res.statusCode, res.body).toBe(200);
    const orderNo: number = res.json().B2BPOSTORDCUS.ORDERNO;
    const moves = ctx.t.services.orders.moves;
    const stateNow = async () =>
      (
        await read(ctx.t, ctx.customer, 'B2B_GetOrderState', {
          strcustomer: 0,
          strscn: 0,
          strorderno: orderNo,
        })
      ).ORDERS[0];

    await moves.move(orderNo, { name: 'confirm' }, 'BACK_OFFICE');
    expect(await stateNow()).toMatchObject({ STATE: 'CONFIRMED', QUANTITY: 5, RESERVED: 5, OPEN: 5 });
    await moves.deliveries.deliver(orderNo, { lines: [{ line: 1, quantity: 2 }] });
    expect(await stateNow()).toMatchObject({
      STATE: 'PARTIALLY_DELIVERED',
      DELIVERED: 2,
      RESERVED: 3,
      OPEN: 3,
    });
    const partial = await read(ctx.t, ctx.customer, 'B2B_GetOrder', { strorderno: orderNo });
    expect(partial.ORDERS[0].ORDERDETAILS[0].ORDERSIZES[0]).toMatchObject({
      QUANTITY: 3,
      DELIVERED: 2,
      RESERVED: 1,
      OPEN: 1,
    });
    const only = await read(ctx.t, ctx.customer, 'B2B_GetOrderState', {
      strcustomer: 0,
      strscn: 0,
      strlimit: 100,
      strorderstatus: 'PARTIALLY_DELIVERED',
    });
    expect(only.ORDERS.map((o: { ORDERNO: number }) => o.ORDERNO)).toEqual([orderNo]);
    await moves.deliveries.deliver(orderNo);
    expect(await stateNow()).toMatchObject({ STATE: 'DELIVERED', DELIVERED: 5, RESERVED: 0, OPEN: 0 });
    // a list by strscn sees the order changed by the delivery
    const changed = await read(ctx.t, ctx.customer, 'B2B_GetOrder', { strscn: partial.SCN });
    expect(changed.ORDERS.map((o: { MYSQLODERNO: number }) => o.MYSQLODERNO)).toEqual([orderNo]);
    await moves.move(orderNo, { name: 'close' }, 'BACK_OFFICE');
    expect(await stateNow()).toMatchObject({ STATE: 'CLOSED' });

    const feed = await read(ctx.t, ctx.customer, 'B2B_GetOrderStateChanges', { strscn: start.SCN });
    expect(feed.NEXTOFFSET).toBeNull();
    expect(
      feed.CHANGES.map((c: { ORDERNO: number; FROMSTATE: string | null; STATE: string; ACTION: string }) => [
        c.ORDERNO,
        c.FROMSTATE,
        c.STATE,
        c.ACTION,
      ]),
    ).toEqual([
      [orderNo, null, 'NEW', 'place'],
      [orderNo, 'NEW', 'CONFIRMED', 'confirm'],
      [orderNo, 'CONFIRMED', 'PARTIALLY_DELIVERED', 'deliver'],
      [orderNo, 'PARTIALLY_DELIVERED', 'DELIVERED', 'deliver'],
      [orderNo, 'DELIVERED', 'CLOSED', 'close'],
    ]);
    expect(feed.CHANGES.every((c: { CUSTOMER: number }) => c.CUSTOMER === CUSTOMER)).toBe(true);
    const history = await read(ctx.t, ctx.customer, 'B2B_GetOrderHistory', { strlimit: 1 });
    expect(history.ORDERS[0]).toMatchObject({ ORDERNO: orderNo, STATE: 'CLOSED', DELIVERED: 5 });
  });

  it('shows a web order the client called off as CANCELLED in B2C_GetOrderState and the retail feed', async () => {
    const start = await read(ctx.t, ctx.client, 'B2C_GetOrderStateChanges', { strscn: 0 });
    const res = await ctx.t.call('POST', 'B2C_PostWebOrder', {
      token: ctx.client,
      body: webOrder('L-W1', [{ barcode: O100[1]!.barcode, quantity: 2 }]),
    });
    expect(res.statusCode, res.body).toBe(200);
    const orderNo: number = res.json().B2CPOSTWEBORDER.ORDERNO;
    await ctx.t.services.orders.moves.closeForClient(CLIENT, orderNo);
    const state = await read(ctx.t, ctx.client, 'B2C_GetOrderState', { strweborder: 'L-W1' });
    expect(state.ORDERS[0]).toMatchObject({ ORDERNO: orderNo, STATE: 'CANCELLED' });
    expect(state.ORDERS[0].LINES[0]).toMatchObject({ QUANTITY: 2, CANCELLED: 2, RESERVED: 0, OPEN: 0 });
    const feed = await read(ctx.t, ctx.client, 'B2C_GetOrderStateChanges', { strscn: start.SCN });
    expect(feed.CHANGES.map((c: { STATE: string; ACTOR: string }) => [c.STATE, c.ACTOR])).toEqual([
      ['NEW', 'CLIENT'],
      ['CANCELLED', 'CLIENT'],
    ]);
    // a wholesale feed never shows it
    const wholesale = await read(ctx.t, ctx.both, 'B2B_GetOrderStateChanges', { strscn: start.SCN });
    expect(wholesale.CHANGES.map((c: { ORDERNO: number }) => c.ORDERNO)).not.toContain(orderNo);
  });
});
