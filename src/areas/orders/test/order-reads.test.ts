import { beforeAll, describe, expect, it } from 'vitest';
import { ORDER_STATES } from '../rules/states.ts';
import { CLIENT, CUSTOMER, O100, O200, ordCus, orderContext, webOrder } from './order-context.ts';
import { moveByHand, read, refused } from './read-helpers.ts';

const ctx = orderContext();
const OTHER_CUSTOMER = CUSTOMER + 1;
const OTHER_CLIENT = CLIENT + 1;

/** Order numbers placed in beforeAll: own and other customers', own and other clients'. */
const placed = { own: [] as number[], other: 0, client: [] as number[], otherClient: 0 };
let first: Record<string, unknown> & { ORDERNO: number; LINES: Array<Record<string, unknown>> };

async function post(op: 'B2B_PostOrdCus' | 'B2C_PostWebOrder', token: string, body: unknown) {
  const res = await ctx.t.call('POST', op, { token, body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json()[op.replaceAll('_', '').toUpperCase()];
}

beforeAll(async () => {
  first = await post(
    'B2B_PostOrdCus',
    ctx.customer,
    ordCus('R-1', [
      { barcode: O100[0]!.barcode, quantity: 2 },
      { barcode: O100[1]!.barcode, quantity: 1 },
      { barcode: O200[1]!.barcode, quantity: 3, ORDERCUSTOMERSEQUENCE: 'seq-3' },
    ]),
  );
  placed.own.push(first.ORDERNO);
  for (const ref of ['R-2', 'R-3', 'R-4', 'R-5', 'R-6', 'R-7']) {
    const o = await post(
      'B2B_PostOrdCus',
      ctx.customer,
      ordCus(ref, [{ barcode: O200[0]!.barcode, quantity: 1 }]),
    );
    placed.own.push(o.ORDERNO);
  }
  placed.other = (
    await post(
      'B2B_PostOrdCus',
      ctx.both,
      ordCus('X-1', [{ barcode: O100[2]!.barcode, quantity: 1 }], { CUSTOMER: String(OTHER_CUSTOMER) }),
    )
  ).ORDERNO;
  for (const ref of ['W-1', 'W-2']) {
    placed.client.push(
      (
        await post(
          'B2C_PostWebOrder',
          ctx.client,
          webOrder(ref, [{ barcode: O100[0]!.barcode, quantity: 1 }]),
        )
      ).ORDERNO,
    );
  }
  placed.otherClient = (
    await post(
      'B2C_PostWebOrder',
      ctx.both,
      webOrder('W-9', [{ barcode: O100[1]!.barcode, quantity: 1 }], { CLIENT: OTHER_CLIENT }),
    )
  ).ORDERNO;
}, 120_000);

describe('B2B_GetOrder', () => {
  it('answers the documented B2BGETORDER shape, continued with lines, counters, totals and SCN', async () => {
    const answer = await read(ctx.t, ctx.customer, 'B2B_GetOrder', { strorderno: first.ORDERNO });
    expect(answer.NEXTOFFSET).toBeNull();
    expect(answer.ORDERS).toHaveLength(1);
    const o = answer.ORDERS[0];
    expect(o).toMatchObject({
      AFTERTERM: expect.stringMatching(/^[0-9]+$/),
      CURRENCY: 'EUR',
      CUSTOMER,
      DISCOUNT_DATE1: '',
      DISCOUNT_DATE2: '',
      FREIGHTCOSTS: 0,
      MYSQLODERNO: first.ORDERNO,
      ORDERDATE: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      WEBORDER: 'R-1',
      STATE: 'NEW',
      NET: first.NET,
      VAT: first.VAT,
      GROSS: first.GROSS,
      VATBREAKDOWN: first.VATBREAKDOWN,
      SCN: first.SCN,
    });
    // the addresses as placed, in the customers' wire form
    const customer = (await read(ctx.t, ctx.customer, 'B2B_GetCustomer', { strcustomer: CUSTOMER }))
      .CUSTOMERS[0] as Record<string, unknown[]>;
    expect(o['INVOICE ADDRESSES']).toEqual(customer['INVOICE ADDRESSES']);
    expect(o['DELIVERY ADDRESSES']).toEqual([customer['DELIVERY ADDRESSES']![0]]);
    expect(Object.keys(o['DELIVERY ADDRESSES'][0]).sort()).toEqual(
      [
        'ADDRESS',
        'CITY',
        'COUNTRYPOST',
        'EXTRAADDRESSNO',
        'HOUSENUMBER',
        'MAPAREA',
        'POSTALCODE',
        'POSTBOX',
      ].sort(),
    );
    // one ORDERDETAILS entry per article, the texts of the catalog, one ORDERSIZES entry per size
    expect(o.ORDERDETAILS.map((d: { ARTICLE: string }) => d.ARTICLE)).toEqual(['O100-010', 'O200-010']);
    const article = JSON.parse(await ctx.t.services.catalog.articleJson('B2B', { articleNo: 'O100-010' }));
    for (const key of [
      'ARTICLEDESCRIPTION',
      'ARTICLEPARAMETERCODES',
      'ARTICLEPARAMETERNUMBERS',
      'ARTICLESEARCHNAME1',
      'ARTICLESEARCHNAME2',
      'ARTICLESEARCHNAME3',
      'MODELARTICLEDESCRIPTION',
    ]) {
      expect(o.ORDERDETAILS[0][key], key).toEqual(article[key]);
    }
    expect(o.ORDERDETAILS[0].ARTICLEDESCRIPTION.LANGUAGE_1).not.toBe('');
    expect(o.ORDERDETAILS[0].CODEDISCOUNT).toBe(first.LINES[0]!.PRICERULE);
    const sizes = o.ORDERDETAILS.flatMap((d: { ORDERSIZES: unknown[] }) => d.ORDERSIZES);
    expect(sizes).toHaveLength(3);
    for (const [i, line] of first.LINES.entries()) {
      expect(sizes[i]).toMatchObject({
        'IS ASSORTEMENT': '0',
        LINE: line.LINE,
        BARCODE: line.BARCODE,
        SIZEX: line.SIZEX,
        PERCVAT: line.PERCVAT,
        PRICE: line.PRICE,
        NETPRICE: line.NETPRICE,
        DISCOUNT: line.DISCOUNT,
        PRICERULE: line.PRICERULE,
        AMOUNT: line.AMOUNT,
        QUANTITY: line.QUANTITY,
        RESERVED: line.RESERVED,
        CANCELLED: 0,
        DELIVERED: 0,
        RETURNED: 0,
        OPEN: line.QUANTITY,
        BACKORDER: line.BACKORDER,
        ORDERCUSTOMERSEQUENCE: line.ORDERCUSTOMERSEQUENCE,
      });
    }
  });

  it('pages every wholesale order once by order number, and no retail order', async () => {
    const seen: number[] = [];
    let offset: number | null = 1;
    while (offset !== null) {
      const page = await read(ctx.t, ctx.both, 'B2B_GetOrder', {
        strcustomer: 0,
        stroffset: offset,
        strlimit: 3,
      });
      expect(page.ORDERS.length).toBeLessThanOrEqual(3);
      seen.push(...page.ORDERS.map((o: { MYSQLODERNO: number }) => o.MYSQLODERNO));
      offset = page.NEXTOFFSET;
    }
    expect(seen).toEqual([...placed.own, placed.other].sort((a, b) => a - b));
  });

  it('answers only the orders changed after strscn', async () => {
    const before = await read(ctx.t, ctx.both, 'B2B_GetOrder', { strcustomer: CUSTOMER, strlimit: 100 });
    expect(before.ORDERS).toHaveLength(placed.own.length);
    const none = await read(ctx.t, ctx.both, 'B2B_GetOrder', { strcustomer: CUSTOMER, strscn: before.SCN });
    expect(none.ORDERS).toEqual([]);
    await moveByHand(ctx.t, placed.own[1]!, { from: 'NEW', to: 'CONFIRMED' });
    const changed = await read(ctx.t, ctx.both, 'B2B_GetOrder', {
      strcustomer: CUSTOMER,
      strscn: before.SCN,
    });
    expect(changed.ORDERS.map((o: { MYSQLODERNO: number }) => o.MYSQLODERNO)).toEqual([placed.own[1]]);
    expect(changed.ORDERS[0].STATE).toBe('CONFIRMED');
    expect(changed.SCN).toBeGreaterThan(before.SCN);
  });

  it('keeps a confined token to its own customer: 403 for another customer, 404 for its orders', async () => {
    const own = await read(ctx.t, ctx.customer, 'B2B_GetOrder', { strcustomer: 0, strlimit: 100 });
    expect(own.ORDERS.map((o: { CUSTOMER: number }) => o.CUSTOMER)).toEqual(placed.own.map(() => CUSTOMER));
    expect(await refused(ctx.t, ctx.customer, 'B2B_GetOrder', { strcustomer: OTHER_CUSTOMER })).toEqual({
      status: 403,
      code: 'OUTSIDE_SCOPE',
    });
    expect(await refused(ctx.t, ctx.customer, 'B2B_GetOrder', { strorderno: placed.other })).toEqual({
      status: 404,
      code: 'ORDER_NOT_FOUND',
    });
    // a retail order is no wholesale order, for any token
    expect(await refused(ctx.t, ctx.both, 'B2B_GetOrder', { strorderno: placed.client[0]! })).toEqual({
      status: 404,
      code: 'ORDER_NOT_FOUND',
    });
    expect(await refused(ctx.t, ctx.client, 'B2B_GetOrder', {})).toMatchObject({ status: 403 });
  });
});

describe('B2B_GetOrderState', () => {
  it('follows the documented parameter table: strcustomer and strscn mandatory, strlimit 1 by default', async () => {
    expect(await refused(ctx.t, ctx.both, 'B2B_GetOrderState', { strcustomer: 0 })).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
    });
    expect(await refused(ctx.t, ctx.both, 'B2B_GetOrderState', { strscn: 0 })).toMatchObject({ status: 400 });
    expect(
      await refused(ctx.t, ctx.both, 'B2B_GetOrderState', { strcustomer: '1x', strscn: 0 }),
    ).toMatchObject({
      status: 400,
    });
    expect(
      await refused(ctx.t, ctx.both, 'B2B_GetOrderState', {
        strcustomer: 0,
        strscn: 0,
        strorderstatus: 'LOST',
      }),
    ).toMatchObject({ status: 400 });
    const page = await read(ctx.t, ctx.both, 'B2B_GetOrderState', { strcustomer: 0, strscn: 0 });
    expect(page.ORDERS).toHaveLength(1);
    expect(page.ORDERS[0]).toMatchObject({
      ORDERNO: placed.own[0],
      WEBORDER: 'R-1',
      CUSTOMER,
      LINES: 3,
      QUANTITY: 6,
    });
    expect(page.NEXTOFFSET).toBe(placed.own[1]);
    const one = await read(ctx.t, ctx.both, 'B2B_GetOrderState', {
      strcustomer: 0,
      strscn: 0,
      strorderno: placed.other,
    });
    expect(one.ORDERS.map((o: { ORDERNO: number }) => o.ORDERNO)).toEqual([placed.other]);
    expect(one.NEXTOFFSET).toBeNull();
    expect(
      await refused(ctx.t, ctx.customer, 'B2B_GetOrderState', {
        strcustomer: 0,
        strscn: 0,
        strorderno: placed.other,
      }),
    ).toEqual({ status: 404, code: 'ORDER_NOT_FOUND' });
  });

  it('derives every reported state from the counters, and strorderstatus selects exactly the orders in it', async () => {
    // orders 3..7 of the customer into the other states (order 2 is CONFIRMED by the test above)
    const [, , a, b, c, d, e] = placed.own as [number, number, number, number, number, number, number];
    await moveByHand(ctx.t, a, { from: 'NEW', to: 'PICKING' });
    await moveByHand(ctx.t, b, { from: 'NEW', to: 'CONFIRMED' });
    await moveByHand(ctx.t, b, {
      from: 'CONFIRMED',
      to: 'DELIVERED',
      lines: { 1: { reserved: 0, delivered: 1 } },
    });
    await moveByHand(ctx.t, c, { from: 'NEW', to: 'CANCELLED', lines: { 1: { reserved: 0, cancelled: 1 } } });
    await moveByHand(ctx.t, d, { from: 'NEW', to: 'CLOSED', lines: { 1: { reserved: 0, cancelled: 1 } } });
    await moveByHand(ctx.t, e, { from: 'NEW', to: 'PICKING' });
    // a partial delivery of order 1: one of its lines delivered in part
    await moveByHand(ctx.t, placed.own[0]!, { from: 'NEW', to: 'CONFIRMED' });
    await moveByHand(ctx.t, placed.own[0]!, {
      from: 'CONFIRMED',
      to: 'PARTIALLY_DELIVERED',
      lines: { 1: { reserved: 1, delivered: 1 } },
    });
    const all = await read(ctx.t, ctx.both, 'B2B_GetOrderState', {
      strcustomer: CUSTOMER,
      strscn: 0,
      strlimit: 1000,
    });
    const stateOf = new Map<number, string>(
      all.ORDERS.map((o: { ORDERNO: number; STATE: string }) => [o.ORDERNO, o.STATE]),
    );
    expect(Object.fromEntries(stateOf)).toEqual({
      [placed.own[0]!]: 'PARTIALLY_DELIVERED',
      [placed.own[1]!]: 'CONFIRMED',
      [a]: 'PICKING',
      [b]: 'DELIVERED',
      [c]: 'CANCELLED',
      [d]: 'CLOSED',
      [e]: 'PICKING',
    });
    expect(all.ORDERS[0]).toMatchObject({ QUANTITY: 6, DELIVERED: 1, RESERVED: 5, OPEN: 5, BACKORDER: 0 });
    await post(
      'B2B_PostOrdCus',
      ctx.customer,
      ordCus('R-8', [{ barcode: O200[2]!.barcode, quantity: 1 }]),
    ).then((o) => placed.own.push(o.ORDERNO));
    stateOf.set(placed.own[7]!, 'NEW');
    for (const state of ORDER_STATES) {
      const only = await read(ctx.t, ctx.both, 'B2B_GetOrderState', {
        strcustomer: CUSTOMER,
        strscn: 0,
        strlimit: 1000,
        strorderstatus: state,
      });
      const expected = [...stateOf].filter(([, s]) => s === state).map(([no]) => no);
      expect(
        only.ORDERS.map((o: { ORDERNO: number }) => o.ORDERNO),
        state,
      ).toEqual(expected);
      expect(expected.length, state).toBeGreaterThan(0);
    }
  });
});

describe('B2B_GetOrderHistory', () => {
  it('lists a customer’s orders newest first, by stable position; an order placed during a pass shifts nothing', async () => {
    const seen: number[] = [];
    let offset: number | null = 1;
    let placedDuring = 0;
    while (offset !== null) {
      const page = await read(ctx.t, ctx.customer, 'B2B_GetOrderHistory', { stroffset: offset, strlimit: 2 });
      expect(page.CUSTOMER).toBe(CUSTOMER);
      seen.push(...page.ORDERS.map((o: { ORDERNO: number }) => o.ORDERNO));
      if (placedDuring === 0) {
        placedDuring = (
          await post(
            'B2B_PostOrdCus',
            ctx.customer,
            ordCus('R-9', [{ barcode: O200[2]!.barcode, quantity: 1 }]),
          )
        ).ORDERNO;
      }
      offset = page.NEXTOFFSET;
    }
    expect(seen).toEqual([...placed.own].sort((a, b) => b - a));
    const next = await read(ctx.t, ctx.customer, 'B2B_GetOrderHistory', { strlimit: 1 });
    expect(next.ORDERS[0]).toMatchObject({
      ORDERNO: placedDuring,
      WEBORDER: 'R-9',
      STATE: 'NEW',
      CURRENCY: 'EUR',
    });
    placed.own.push(placedDuring);
    expect(await refused(ctx.t, ctx.both, 'B2B_GetOrderHistory', {})).toMatchObject({ status: 400 });
    expect(
      await refused(ctx.t, ctx.customer, 'B2B_GetOrderHistory', { strcustomer: OTHER_CUSTOMER }),
    ).toEqual({
      status: 403,
      code: 'OUTSIDE_SCOPE',
    });
    const other = await read(ctx.t, ctx.both, 'B2B_GetOrderHistory', { strcustomer: OTHER_CUSTOMER });
    expect(other.ORDERS.map((o: { ORDERNO: number }) => o.ORDERNO)).toEqual([placed.other]);
  });
});

describe('B2C_GetOrderState', () => {
  it('answers one order of the client by number or WEBORDER, or its orders newest first', async () => {
    const byNo = await read(ctx.t, ctx.client, 'B2C_GetOrderState', { strorderno: placed.client[0]! });
    expect(byNo.CLIENT).toBe(CLIENT);
    expect(byNo.ORDERS[0]).toMatchObject({
      ORDERNO: placed.client[0],
      WEBORDER: 'W-1',
      CLIENT,
      STATE: 'NEW',
      PRICESINCLUDEVAT: true,
      DELIVERY: 'ADDRESS',
      PICKUPLOCATION: null,
      LINES: [expect.objectContaining({ BARCODE: O100[0]!.barcode, QUANTITY: 1, OPEN: 1, RESERVED: 1 })],
    });
    expect(byNo.ORDERS[0].DELIVERYADDRESS.CITY).not.toBe('');
    const byRef = await read(ctx.t, ctx.both, 'B2C_GetOrderState', { strclient: CLIENT, strweborder: 'W-2' });
    expect(byRef.ORDERS.map((o: { ORDERNO: number }) => o.ORDERNO)).toEqual([placed.client[1]]);
    const list = await read(ctx.t, ctx.client, 'B2C_GetOrderState', {});
    expect(list.ORDERS.map((o: { ORDERNO: number }) => o.ORDERNO)).toEqual([...placed.client].reverse());
    expect(list.NEXTOFFSET).toBeNull();
  });

  it('keeps a confined token to its client: 403 for another client, 404 for another party’s order', async () => {
    expect(await refused(ctx.t, ctx.client, 'B2C_GetOrderState', { strclient: OTHER_CLIENT })).toEqual({
      status: 403,
      code: 'OUTSIDE_SCOPE',
    });
    for (const query of [
      { strorderno: placed.otherClient } as Record<string, string | number>,
      { strorderno: placed.own[0]! },
      { strweborder: 'W-9' },
      { strweborder: 'R-1' },
    ]) {
      expect(await refused(ctx.t, ctx.client, 'B2C_GetOrderState', query), JSON.stringify(query)).toEqual({
        status: 404,
        code: 'ORDER_NOT_FOUND',
      });
    }
    expect(await refused(ctx.t, ctx.both, 'B2C_GetOrderState', {})).toMatchObject({ status: 400 });
  });
});
