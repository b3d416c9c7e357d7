import { afterAll, beforeAll, expect } from 'vitest';
import { article, sizeTable, toEan13 } from '../../../../test/helpers/fixtures.ts';
import { startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { AREAS } from '../../../areas.ts';
import type { Config } from '../../../config.ts';
import { seedCatalog } from '../../catalog/index.ts';
import { FIRST_DEMO_CUSTOMER } from '../../customers/index.ts';

/** Article B100-010 in S, M, L (fixed barcodes), wholesale price 20.00 EUR at 21 % VAT. */
export const B100 = ['S', 'M', 'L'].map((sizex, i) => ({ sizex, barcode: toEan13(`87400000010${i}`) }));
/** The demo customers: 10001 is Dutch, 10009 Belgian (customers' demo.ts, countryOf). */
export const CUSTOMER = FIRST_DEMO_CUSTOMER;
export const BELGIAN_CUSTOMER = FIRST_DEMO_CUSTOMER + 8;
export const PRICE = 2000;
/** Pieces of each size at WH at the start: enough for every test of a file. */
export const STOCK = 5000;

export interface BillingContext {
  t: TestApp;
  /** Tokens: B2B unconfined, ADMIN. */
  b2b: string;
  admin: string;
}

/**
 * A fresh app with the demo parties (customers from 10001), a small demo catalogue and article
 * B100-010 with known prices and STOCK pieces per size at WH. Registers beforeAll/afterAll.
 */
export function billingContext(overrides: Partial<Config> = {}): BillingContext {
  const ctx = {} as BillingContext;
  beforeAll(async () => {
    const t = await startTestApp(overrides);
    ctx.t = t;
    const s = t.services;
    await seedCatalog(s, { articles: 6, images: false });
    for (const area of AREAS) {
      if (['stock', 'shops', 'pricing', 'customers', 'clients'].includes(area.name)) await area.seedDemo?.(s);
    }
    await s.catalog.saveSizeTable(sizeTable('BSZ', ['S', 'M', 'L']));
    await s.catalog.saveArticles([article('B100-010', { sizeTableCode: 'BSZ', sizes: B100 })]);
    const prices = [];
    for (const sizex of ['S', 'M', 'L'])
      for (const priceGroup of [1, 2, 3, 4, 5])
        for (const priceType of ['SELLING', 'RECOMMENDED'] as const)
          prices.push({
            articleNo: 'B100-010',
            sizex,
            priceGroup,
            priceType,
            currency: 'EUR',
            priceMinor: PRICE,
          });
    await s.pricing.listPrices.setListPrices(prices);
    await s.stock.ledger.receiveAll(
      B100.map((z) => ({ locationCode: 'WH', articleNo: 'B100-010', sizex: z.sizex, quantity: STOCK })),
    );
    [ctx.b2b, ctx.admin] = await Promise.all([t.tokenFor(['B2B']), t.tokenFor(['ADMIN'])]);
  }, 120_000);
  afterAll(async () => {
    await ctx.t?.close();
  });
  return ctx;
}

let orderCounter = 0;

/** Places and confirms a wholesale order of (size index, pieces) lines for a customer; answers its number. */
export async function placeOrder(
  ctx: BillingContext,
  customerNo: number,
  lines: Array<[number, number]>,
): Promise<number> {
  const res = await ctx.t.call('POST', 'B2B_PostOrdCus', {
    token: ctx.b2b,
    body: {
      ORDERREQUEST: {
        ORDERHEADER: { CUSTOMER: String(customerNo), WEBORDER: `BILL-${++orderCounter}-${Date.now()}` },
        ORDERLINES: lines.map(([size, quantity]) => ({
          BARCODE: (B100[size] as { barcode: string }).barcode,
          QUANTITY: quantity,
        })),
      },
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  const orderNo = res.json().B2BPOSTORDCUS.ORDERNO as number;
  const confirmed = await ctx.t.send(ctx.admin, 'POST', `/TV2/Admin/orders/${orderNo}/confirm`);
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return orderNo;
}

/** Delivers the given (order line, pieces), or everything open; answers the delivery number. */
export async function deliver(
  ctx: BillingContext,
  orderNo: number,
  lines?: Array<[number, number]>,
): Promise<number> {
  const body = lines ? { LINES: lines.map(([LINE, QUANTITY]) => ({ LINE, QUANTITY })) } : {};
  const res = await ctx.t.send(ctx.admin, 'POST', `/TV2/Admin/orders/${orderNo}/deliveries`, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().DELIVERYNO as number;
}

/** An order placed, confirmed and delivered in full; answers [order, delivery]. */
export async function delivered(
  ctx: BillingContext,
  customerNo: number,
  lines: Array<[number, number]>,
): Promise<[number, number]> {
  const orderNo = await placeOrder(ctx, customerNo, lines);
  return [orderNo, await deliver(ctx, orderNo)];
}
