import { describe, expect, it } from 'vitest';
import type { BarcodeSize } from '../catalog/index.ts';
import {
  amountProblems,
  type Party,
  type PricedPlacementLine,
  placementFromOrdCus,
  placementFromWebOrder,
  placementProblems,
  priceDifferences,
  requestHash,
} from './placement-rules.ts';

const header = { CUSTOMER: '10001', WEBORDER: 'PO-1' };
const line = { BARCODE: '8710000100011', QUANTITY: '2' };

const party: Party = {
  channel: 'B2B',
  currency: 'EUR',
  discountBp: 500,
  paymentDays: 30,
  deliveryAddressNo: 1,
  invoiceAddressNo: 0,
  deliveryAddress: null,
  invoiceAddress: null,
  pickupPoint: null,
  email: null,
};
const size: BarcodeSize = {
  barcode: '8710000100011',
  articleNo: 'A',
  sizex: 'S',
  position: 1,
  vatRateBp: 2100,
  active: true,
  retail: true,
  deleted: false,
  description: '{}',
};

describe('placement from the bodies', () => {
  it('parses the documented string-typed numbers strictly into whole pieces and minor units', () => {
    const p = placementFromOrdCus(
      {
        ORDERREQUEST: {
          ORDERHEADER: { ...header, CUSTOMERDISCOUNTPERC: '5', COSTFREIGHT: '' },
          ORDERLINES: [{ ...line, NETPRICE: '19.5', DISCOUNT: 12.5, PRICE: ' ' }],
        },
      },
      10001,
    );
    expect(p.lines[0]).toMatchObject({
      quantity: 2,
      shown: { netPrice: 1950, discountBp: 1250, price: undefined },
      pointer: '/ORDERREQUEST/ORDERLINES/0',
    });
    expect(p.customerDiscountShownBp).toBe(500);
    expect(p.freightShown).toBeUndefined();
  });

  it('needs a pickup location for a pickup', () => {
    const p = placementFromWebOrder(
      {
        WEBORDERDATA: {
          WEBORDER: 'W',
          DELIVERY: 'PICKUP',
          ORDERLINES: [{ BARCODE: line.BARCODE, QUANTITY: 1 }],
        },
      },
      100001,
    );
    expect(placementProblems(p)).toEqual([
      { name: '/WEBORDERDATA/PICKUPLOCATION', message: 'required with DELIVERY PICKUP' },
    ]);
  });
});

describe('requestHash', () => {
  const body = (quantity: string | number) =>
    placementFromOrdCus(
      { ORDERREQUEST: { ORDERHEADER: header, ORDERLINES: [{ ...line, QUANTITY: quantity }] } },
      10001,
    );

  it('is the same for the same request however its numbers are spelled, and differs for another', () => {
    expect(requestHash(body('2'))).toBe(requestHash(body(2)));
    expect(requestHash(body(' 02'))).toBe(requestHash(body(2)));
    expect(requestHash(body(3))).not.toBe(requestHash(body(2)));
  });
});

describe('priceDifferences', () => {
  const priced = (shown: PricedPlacementLine['shown']): PricedPlacementLine => ({
    barcode: size.barcode,
    quantity: 1,
    shown,
    customerSequence: '',
    pointer: '/ORDERREQUEST/ORDERLINES/0',
    size,
    vatBp: 2100,
    listPrice: 2000,
    unitPrice: 1900,
    priceRule: 'CUSTOMER_DISCOUNT',
    ruleDiscountBp: 500,
  });
  const placement = placementFromOrdCus({ ORDERREQUEST: { ORDERHEADER: header, ORDERLINES: [line] } }, 10001);

  it('accepts prices that are the server’s, or none', () => {
    expect(priceDifferences(placement, party, [priced({})])).toEqual([]);
    expect(
      priceDifferences(placement, party, [priced({ price: 2000, netPrice: 1900, discountBp: 500 })]),
    ).toEqual([]);
  });

  it('names every field that differs with the server’s value', () => {
    expect(
      priceDifferences({ ...placement, freightShown: 100, customerDiscountShownBp: 0 }, party, [
        priced({ price: 1999, netPrice: 1800, discountBp: 0 }),
      ]),
    ).toEqual([
      { name: '/ORDERREQUEST/ORDERHEADER/COSTFREIGHT', message: 'is 0.00 (no freight is charged)' },
      { name: '/ORDERREQUEST/ORDERHEADER/CUSTOMERDISCOUNTPERC', message: 'is 5.00' },
      { name: '/ORDERREQUEST/ORDERLINES/0/PRICE', message: 'is 20.00' },
      { name: '/ORDERREQUEST/ORDERLINES/0/NETPRICE', message: 'is 19.00' },
      { name: '/ORDERREQUEST/ORDERLINES/0/DISCOUNT', message: 'is 5.00' },
    ]);
  });

  it('compares a retail PRICE with what a piece costs', () => {
    const web = { ...placement, channel: 'B2C' as const };
    expect(priceDifferences(web, party, [priced({ price: 1900 })])).toEqual([]);
    expect(priceDifferences(web, party, [priced({ price: 2000 })])).toHaveLength(1);
  });
});

describe('amountProblems', () => {
  const line = (quantity: number, unitPrice: number, i: number): PricedPlacementLine => ({
    barcode: size.barcode,
    quantity,
    shown: {},
    customerSequence: '',
    pointer: `/WEBORDERDATA/ORDERLINES/${i}`,
    size,
    vatBp: 2100,
    listPrice: unitPrice,
    unitPrice,
    priceRule: 'LIST_PRICE',
    ruleDiscountBp: null,
  });

  it('accepts amounts the calculator computes exactly, up to its limit', () => {
    expect(amountProblems([line(1_000_000, 450_359, 0)])).toEqual([]);
    expect(amountProblems([line(1, Math.floor(Number.MAX_SAFE_INTEGER / 20_000), 0)])).toEqual([]);
  });

  it('names the QUANTITY of the line that takes a line, or the order, past it', () => {
    expect(amountProblems([line(1_000_000, 10_000_000, 0)])).toEqual([
      { name: '/WEBORDERDATA/ORDERLINES/0/QUANTITY', message: 'the amount of the order is too large' },
    ]);
    const half = Math.floor(Number.MAX_SAFE_INTEGER / 40_000) + 1;
    expect(amountProblems([line(1, half, 0), line(1, half, 1)]).map((e) => e.name)).toEqual([
      '/WEBORDERDATA/ORDERLINES/1/QUANTITY',
    ]);
  });
});
