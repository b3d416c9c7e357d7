import { afterAll, beforeAll } from 'vitest';
import { article, sizeTable, toEan13 } from '../../../../test/helpers/fixtures.ts';
import { startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { AREAS } from '../../../areas.ts';
import type { Config } from '../../../config.ts';
import { seedCatalog } from '../../catalog/index.ts';
import { FIRST_CLIENT_NO } from '../../clients/index.ts';
import { FIRST_DEMO_CUSTOMER } from '../../customers/index.ts';

/** Article O100-010 (retail) in S, M, L with fixed barcodes; O200-010 is wholesale only. */
export const O100 = ['S', 'M', 'L'].map((sizex, i) => ({ sizex, barcode: toEan13(`87300000010${i}`) }));
export const O200 = ['S', 'M', 'L'].map((sizex, i) => ({ sizex, barcode: toEan13(`87300000020${i}`) }));
export const CUSTOMER = FIRST_DEMO_CUSTOMER;
export const CLIENT = FIRST_CLIENT_NO;
/** List prices of the test articles: wholesale (SELLING of every price group but 1) and retail (group 1), EUR. */
export const WHOLESALE_PRICE = 2000;
export const RETAIL_PRICE = 4995;
/** Pieces of each size at WH (the order location) at the start. */
export const STOCK = 10;

export interface OrderContext {
  t: TestApp;
  /** Tokens: B2B+B2C unconfined, ADMIN, confined to CUSTOMER, confined to CLIENT. */
  both: string;
  admin: string;
  customer: string;
  client: string;
}

/**
 * A fresh app with the demo parties (customers from 10001, clients from 100001, shops and pickup
 * points, a small demo catalogue) and two articles of its own with known prices and STOCK pieces
 * per size at WH. Registers beforeAll/afterAll; the fields are there from beforeAll on.
 */
export function orderContext(overrides: Partial<Config> = {}): OrderContext {
  const ctx = {} as OrderContext;
  beforeAll(async () => {
    const t = await startTestApp(overrides);
    ctx.t = t;
    const s = t.services;
    await seedCatalog(s, { articles: 12, images: false });
    // The other areas' demo data as the server loads it (their seeds are their own: src/areas.ts).
    for (const area of AREAS) {
      if (['stock', 'shops', 'pricing', 'customers', 'clients'].includes(area.name)) await area.seedDemo?.(s);
    }
    await s.catalog.saveSizeTable(sizeTable('OSZ', ['S', 'M', 'L']));
    await s.catalog.saveArticles([
      article('O100-010', { sizeTableCode: 'OSZ', sizes: O100 }),
      article('O200-010', { sizeTableCode: 'OSZ', sizes: O200, retail: false }),
    ]);
    const prices = [];
    for (const articleNo of ['O100-010', 'O200-010']) {
      for (const sizex of ['S', 'M', 'L']) {
        for (const priceGroup of [1, 2, 3, 4, 5]) {
          for (const priceType of ['SELLING', 'RECOMMENDED'] as const) {
            prices.push({
              articleNo,
              sizex,
              priceGroup,
              priceType,
              currency: 'EUR',
              priceMinor: priceGroup === 1 || priceType === 'RECOMMENDED' ? RETAIL_PRICE : WHOLESALE_PRICE,
            });
          }
        }
      }
    }
    await s.pricing.listPrices.setListPrices(prices);
    await s.stock.ledger.receiveAll(
      [...O100, ...O200].map((z, i) => ({
        locationCode: 'WH',
        articleNo: i < 3 ? 'O100-010' : 'O200-010',
        sizex: z.sizex,
        quantity: STOCK,
      })),
    );
    [ctx.both, ctx.admin, ctx.customer, ctx.client] = await Promise.all([
      t.tokenFor(['B2B', 'B2C']),
      t.tokenFor(['ADMIN']),
      t.tokenFor(['B2B'], { customerNo: CUSTOMER }),
      t.tokenFor(['B2C'], { clientNo: CLIENT }),
    ]);
  }, 120_000);
  afterAll(async () => {
    await ctx.t?.close();
  });
  return ctx;
}

/** A B2B_PostOrdCus body. */
export function ordCus(
  weborder: string,
  lines: Array<{ barcode: string; quantity: number | string; [k: string]: unknown }>,
  header: Record<string, unknown> = {},
) {
  return {
    ORDERREQUEST: {
      ORDERHEADER: { CUSTOMER: String(CUSTOMER), WEBORDER: weborder, ...header },
      ORDERLINES: lines.map(({ barcode, quantity, ...rest }) => ({
        BARCODE: barcode,
        QUANTITY: quantity,
        ...rest,
      })),
    },
  };
}

/** A B2C_PostWebOrder body. */
export function webOrder(
  weborder: string,
  lines: Array<{ barcode: string; quantity: number | string; [k: string]: unknown }>,
  data: Record<string, unknown> = {},
) {
  return {
    WEBORDERDATA: {
      CLIENT: CLIENT,
      WEBORDER: weborder,
      ...data,
      ORDERLINES: lines.map(({ barcode, quantity, ...rest }) => ({
        BARCODE: barcode,
        QUANTITY: quantity,
        ...rest,
      })),
    },
  };
}
