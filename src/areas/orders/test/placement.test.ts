import { describe, expect, it } from 'vitest';
import {
  CLIENT,
  CUSTOMER,
  O100,
  O200,
  ordCus,
  orderContext,
  RETAIL_PRICE,
  STOCK,
  WHOLESALE_PRICE,
  webOrder,
} from './order-context.ts';

const ctx = orderContext();

async function level(sizex: string, articleNo = 'O100-010') {
  const l = await ctx.t.services.stock.ledger.level({ locationCode: 'WH', articleNo, sizex });
  return { onHand: l.onHand, reserved: l.reserved };
}

describe('B2B_PostOrdCus', () => {
  it('places a wholesale order priced by the server, reserving its lines in the same transaction', async () => {
    const res = await ctx.t.call('POST', 'B2B_PostOrdCus', {
      token: ctx.both,
      body: ordCus('PO-1', [
        { barcode: O100[0]!.barcode, quantity: '2' },
        { barcode: O200[1]!.barcode, quantity: 3, ORDERCUSTOMERSEQUENCE: 'my-2' },
      ]),
    });
    expect(res.statusCode, res.body).toBe(200);
    const o = res.json().B2BPOSTORDCUS;
    expect(o).toMatchObject({
      WEBORDER: 'PO-1',
      CREATED: true,
      STATE: 'NEW',
      CURRENCY: 'EUR',
      PRICESINCLUDEVAT: false,
    });
    expect(o.LINES).toHaveLength(2);
    expect(o.LINES[0]).toMatchObject({
      LINE: 1,
      ARTICLE: 'O100-010',
      SIZEX: 'S',
      QUANTITY: 2,
      RESERVED: 2,
      BACKORDER: 0,
      PERCVAT: 21,
    });
    expect(o.LINES[1]).toMatchObject({
      ARTICLE: 'O200-010',
      SIZEX: 'M',
      QUANTITY: 3,
      ORDERCUSTOMERSEQUENCE: 'my-2',
    });
    // Net prices, VAT computed once on the sum.
    const net = o.LINES.reduce((n: number, l: { AMOUNT: number }) => n + Math.round(l.AMOUNT * 100), 0);
    expect(Math.round(o.NET * 100)).toBe(net);
    expect(o.VATBREAKDOWN).toEqual([{ PERCVAT: 21, NET: o.NET, VAT: o.VAT, GROSS: o.GROSS }]);
    expect(await level('S')).toEqual({ onHand: STOCK, reserved: 2 });
    expect(await level('M', 'O200-010')).toEqual({ onHand: STOCK, reserved: 3 });
    expect(WHOLESALE_PRICE).toBeGreaterThan(0);
  });

  it('answers the same order, doing nothing again, when the same WEBORDER is posted again', async () => {
    const body = ordCus('PO-2', [{ barcode: O100[1]!.barcode, quantity: 1 }]);
    const first = await ctx.t.call('POST', 'B2B_PostOrdCus', { token: ctx.both, body });
    const again = await ctx.t.call('POST', 'B2B_PostOrdCus', { token: ctx.both, body });
    expect(again.statusCode).toBe(200);
    expect(again.json().B2BPOSTORDCUS).toMatchObject({
      ORDERNO: first.json().B2BPOSTORDCUS.ORDERNO,
      CREATED: false,
    });
    expect(await level('M')).toEqual({ onHand: STOCK, reserved: 1 });
    const other = await ctx.t.call('POST', 'B2B_PostOrdCus', {
      token: ctx.both,
      body: ordCus('PO-2', [{ barcode: O100[1]!.barcode, quantity: 2 }]),
    });
    expect(other.statusCode).toBe(409);
    expect(other.json().code).toBe('WEBORDER_CONFLICT');
  });

  it('refuses a price that differs from the server’s, naming the field', async () => {
    const res = await ctx.t.call('POST', 'B2B_PostOrdCus', {
      token: ctx.both,
      body: ordCus('PO-3', [{ barcode: O100[2]!.barcode, quantity: 1, NETPRICE: '1.00' }]),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'ORDER_PRICE_DIFFERS' });
    expect(res.json().detail).toContain('/ORDERREQUEST/ORDERLINES/0/NETPRICE');
  });

  it('refuses a malformed quantity and an unknown barcode with 400 naming the field', async () => {
    const bad = await ctx.t.call('POST', 'B2B_PostOrdCus', {
      token: ctx.both,
      body: ordCus('PO-4', [{ barcode: O100[2]!.barcode, quantity: '12x' }]),
    });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json().errors)).toContain('/ORDERREQUEST/ORDERLINES/0/QUANTITY');
    const unknown = await ctx.t.call('POST', 'B2B_PostOrdCus', {
      token: ctx.both,
      body: ordCus('PO-4', [{ barcode: '8700000000007', quantity: 1 }]),
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0].name).toBe('/ORDERREQUEST/ORDERLINES/0/BARCODE');
  });

  it('keeps what stock cannot cover as a back-order', async () => {
    const res = await ctx.t.call('POST', 'B2B_PostOrdCus', {
      token: ctx.both,
      body: ordCus('PO-5', [{ barcode: O200[2]!.barcode, quantity: STOCK + 4 }]),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().B2BPOSTORDCUS.LINES[0]).toMatchObject({
      QUANTITY: STOCK + 4,
      RESERVED: STOCK,
      BACKORDER: 4,
    });
    expect(await level('L', 'O200-010')).toEqual({ onHand: STOCK, reserved: STOCK });
  });

  it('lets a confined token order only for its own customer', async () => {
    const other = await ctx.t.call('POST', 'B2B_PostOrdCus', {
      token: ctx.customer,
      body: {
        ORDERREQUEST: {
          ...ordCus('PO-6', []).ORDERREQUEST,
          ORDERHEADER: { CUSTOMER: String(CUSTOMER + 1), WEBORDER: 'PO-6' },
          ORDERLINES: [{ BARCODE: O100[0]!.barcode, QUANTITY: 1 }],
        },
      },
    });
    expect(other.statusCode).toBe(403);
    expect(CLIENT).toBeGreaterThan(0);
  });
});

describe('B2C_PostWebOrder', () => {
  it('places a web order at the retail price, VAT included, all lines reserved', async () => {
    const res = await ctx.t.call('POST', 'B2C_PostWebOrder', {
      token: ctx.client,
      body: webOrder(
        'W-1',
        [{ barcode: O100[0]!.barcode, quantity: 1, PRICE: (RETAIL_PRICE / 100).toFixed(2) }],
        { PAYMENTREFERENCE: 'psp-123' },
      ),
    });
    expect(res.statusCode, res.body).toBe(200);
    const o = res.json().B2CPOSTWEBORDER;
    expect(o).toMatchObject({
      CREATED: true,
      STATE: 'NEW',
      PRICESINCLUDEVAT: true,
      GROSS: RETAIL_PRICE / 100,
    });
    expect(o.LINES[0]).toMatchObject({ NETPRICE: RETAIL_PRICE / 100, PRICERULE: 'LIST_PRICE', RESERVED: 1 });
  });

  it('pays a running action price: the size’s own before one for every size', async () => {
    const prices = ctx.t.services.pricing.actionPrices;
    const period = { currency: 'EUR', startDate: '2020-01-01', endDate: '2099-12-31' };
    await prices.createActionPrice({ articleNo: 'O100-010', sizex: null, priceMinor: 3995, ...period });
    await prices.createActionPrice({ articleNo: 'O100-010', sizex: 'L', priceMinor: 2995, ...period });
    const res = await ctx.t.call('POST', 'B2C_PostWebOrder', {
      token: ctx.client,
      body: webOrder('W-ACTION', [
        { barcode: O100[1]!.barcode, quantity: 1 },
        { barcode: O100[2]!.barcode, quantity: 2 },
      ]),
    });
    expect(res.statusCode, res.body).toBe(200);
    const lines = res.json().B2CPOSTWEBORDER.LINES;
    expect(lines[0]).toMatchObject({ PRICERULE: 'ACTION_PRICE', NETPRICE: 39.95, PRICE: RETAIL_PRICE / 100 });
    expect(lines[1]).toMatchObject({ PRICERULE: 'ACTION_PRICE', NETPRICE: 29.95, AMOUNT: 59.9 });
    expect(res.json().B2CPOSTWEBORDER.GROSS).toBe(99.85);
  });

  it('is all or nothing: a line short of stock places nothing', async () => {
    const before = await level('M');
    const res = await ctx.t.call('POST', 'B2C_PostWebOrder', {
      token: ctx.client,
      body: webOrder('W-2', [
        { barcode: O100[1]!.barcode, quantity: 1 },
        { barcode: O100[2]!.barcode, quantity: STOCK + 1 },
      ]),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('INSUFFICIENT_STOCK');
    expect(await level('M')).toEqual(before);
  });

  it('refuses an article not sold to retail', async () => {
    const res = await ctx.t.call('POST', 'B2C_PostWebOrder', {
      token: ctx.client,
      body: webOrder('W-3', [{ barcode: O200[0]!.barcode, quantity: 1 }]),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].name).toBe('/WEBORDERDATA/ORDERLINES/0/BARCODE');
  });
});
