import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertProperty } from '../../../../test/helpers/seed.ts';
import { percentOf } from '../../../kernel/money.ts';
import { calculateOrder, type OrderMoney, type PricedLine } from './order-calculator.ts';

const line = (over: Partial<PricedLine> = {}): PricedLine => ({
  quantity: 1,
  unitPrice: 1000,
  priceRule: 'LIST_PRICE',
  discountBp: 0,
  vatBp: 2100,
  ...over,
});
const NET = { pricesIncludeVat: false };
const GROSS = { pricesIncludeVat: true };

describe('calculateOrder', () => {
  it('prices each line once: quantity × unit price less its discount, keeping the price rule', () => {
    const money = calculateOrder(
      [line({ quantity: 3, unitPrice: 1999, discountBp: 1250, priceRule: 'AGREEMENT' })],
      NET,
    );
    // 59.97 less 12.5 % (7.49625, rounded to 7.50) = 52.47
    expect(money.lines[0]).toMatchObject({
      listAmount: 5997,
      discount: 750,
      amount: 5247,
      priceRule: 'AGREEMENT',
    });
  });

  it('computes VAT once per rate on the document, not from rounded line VAT', () => {
    // Three lines of 0.03 at 21 %: 0.0063 each would round to 0.01 (0.03 in all); once on 0.09: 0.0189 -> 0.02.
    const money = calculateOrder(
      [line({ unitPrice: 3 }), line({ unitPrice: 3 }), line({ unitPrice: 3 })],
      NET,
    );
    expect(money.vat).toEqual([{ vatBp: 2100, net: 9, vat: 2, gross: 11 }]);
    expect([money.net, money.vatTotal, money.gross]).toEqual([9, 2, 11]);
  });

  it('gives one row per rate, lowest first, and totals over the rows', () => {
    const money = calculateOrder(
      [
        line({ unitPrice: 10000 }),
        line({ unitPrice: 2500, vatBp: 900 }),
        line({ unitPrice: 4999, vatBp: 0 }),
      ],
      NET,
    );
    expect(money.vat).toEqual([
      { vatBp: 0, net: 4999, vat: 0, gross: 4999 },
      { vatBp: 900, net: 2500, vat: 225, gross: 2725 },
      { vatBp: 2100, net: 10000, vat: 2100, gross: 12100 },
    ]);
    expect([money.net, money.vatTotal, money.gross]).toEqual([17499, 2325, 19824]);
  });

  it('takes VAT out of prices that include it, once per rate', () => {
    // 2 × 12.10 gross at 21 %: 24.20 = 20.00 net + 4.20 VAT.
    expect(calculateOrder([line({ quantity: 2, unitPrice: 1210 })], GROSS).vat).toEqual([
      { vatBp: 2100, net: 2000, vat: 420, gross: 2420 },
    ]);
    // 9.99 at 21 %: 8.2562 net, rounded to 8.26; VAT 1.73.
    expect(calculateOrder([line({ unitPrice: 999 })], GROSS).vat).toEqual([
      { vatBp: 2100, net: 826, vat: 173, gross: 999 },
    ]);
  });

  it('answers zeros for no lines, and throws on what no caller may give', () => {
    expect(calculateOrder([], NET)).toEqual({ lines: [], vat: [], net: 0, vatTotal: 0, gross: 0 });
    expect(() => calculateOrder([line({ quantity: 0 })], NET)).toThrow(/line 1: quantity 0/);
    expect(() => calculateOrder([line(), line({ unitPrice: 1.5 })], NET)).toThrow(/line 2: unit price/);
    expect(() => calculateOrder([line({ discountBp: 10_001 })], NET)).toThrow(RangeError);
    expect(() => calculateOrder([line({ quantity: 2 ** 30, unitPrice: 2 ** 30 })], NET)).toThrow(/too large/);
  });
});

const pricedLine: fc.Arbitrary<PricedLine> = fc.record({
  quantity: fc.integer({ min: 1, max: 500 }),
  unitPrice: fc.integer({ min: 0, max: 2_000_000 }),
  priceRule: fc.constantFrom('AGREEMENT', 'LINE_DISCOUNT', 'CUSTOMER_DISCOUNT', 'LIST_PRICE', 'ACTION_PRICE'),
  discountBp: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 10_000 })),
  vatBp: fc.constantFrom(0, 550, 900, 1300, 2100, 2500),
});
const document = fc.record({
  lines: fc.array(pricedLine, { maxLength: 12 }),
  pricesIncludeVat: fc.boolean(),
});

function sumBy<T>(items: readonly T[], pick: (item: T) => number): number {
  return items.reduce((n, item) => n + pick(item), 0);
}

function consistent(money: OrderMoney, pricesIncludeVat: boolean): void {
  expect(money.gross).toBe(money.net + money.vatTotal);
  expect(money.net).toBe(sumBy(money.vat, (r) => r.net));
  expect(money.vatTotal).toBe(sumBy(money.vat, (r) => r.vat));
  const rates = money.vat.map((r) => r.vatBp);
  expect(rates).toEqual([...new Set(rates)].sort((a, b) => a - b));
  for (const row of money.vat) {
    expect(row.gross).toBe(row.net + row.vat);
    const base = sumBy(
      money.lines.filter((l) => l.vatBp === row.vatBp),
      (l) => l.amount,
    );
    if (pricesIncludeVat) {
      expect(row.gross).toBe(base);
      // The net taken out once is the net whose VAT gives the gross, to the cent.
      expect(Math.abs(row.net + percentOf(row.net, row.vatBp) - row.gross)).toBeLessThanOrEqual(1);
    } else {
      expect(row.net).toBe(base);
      expect(row.vat).toBe(percentOf(base, row.vatBp));
    }
  }
  for (const l of money.lines) {
    expect(l.amount).toBe(l.quantity * l.unitPrice - l.discount);
    expect(l.discount).toBe(percentOf(l.listAmount, l.discountBp));
  }
  if (!pricesIncludeVat) expect(money.net).toBe(sumBy(money.lines, (l) => l.amount));
  else expect(money.gross).toBe(sumBy(money.lines, (l) => l.amount));
}

describe('calculateOrder over random documents', () => {
  it('keeps its totals consistent: gross = net + VAT, the sums of the rows and lines, each rate once', async () => {
    await assertProperty(
      fc.property(document, ({ lines, pricesIncludeVat }) =>
        consistent(calculateOrder(lines, { pricesIncludeVat }), pricesIncludeVat),
      ),
      500,
    );
  });

  it('gives the same breakdown and totals whatever the order of the lines', async () => {
    await assertProperty(
      fc.property(
        document.chain((d) =>
          fc.tuple(fc.constant(d), fc.shuffledSubarray(d.lines, { minLength: d.lines.length })),
        ),
        ([{ lines, pricesIncludeVat }, shuffled]) => {
          const a = calculateOrder(lines, { pricesIncludeVat });
          const b = calculateOrder(shuffled, { pricesIncludeVat });
          expect([b.vat, b.net, b.vatTotal, b.gross]).toEqual([a.vat, a.net, a.vatTotal, a.gross]);
        },
      ),
      300,
    );
  });

  it('does not care how pieces without a discount are split over lines (no rounding per line)', async () => {
    await assertProperty(
      fc.property(pricedLine, fc.integer({ min: 1, max: 499 }), fc.boolean(), (l, cut, pricesIncludeVat) => {
        fc.pre(l.quantity > cut);
        const whole = { ...l, discountBp: 0 };
        const split = [
          { ...whole, quantity: cut },
          { ...whole, quantity: l.quantity - cut },
        ];
        const a = calculateOrder([whole], { pricesIncludeVat });
        const b = calculateOrder(split, { pricesIncludeVat });
        expect([b.vat, b.gross]).toEqual([a.vat, a.gross]);
      }),
      300,
    );
  });
});
