import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromMinor, percentFromBasisPoints, percentOf, toMinor } from './money.ts';

describe('money', () => {
  it('parses strings and numbers exactly into cents', () => {
    expect(toMinor('12.5', 'PRICE')).toBe(1250);
    expect(toMinor('12.50', 'PRICE')).toBe(1250);
    expect(toMinor(19.99, 'PRICE')).toBe(1999);
    expect(toMinor('-3', 'PRICE')).toBe(-300);
    expect(toMinor(0.07, 'PRICE')).toBe(7);
  });

  it('refuses more than two decimals and non-numbers, naming the field', () => {
    expect(() => toMinor('1.005', 'PRICE')).toThrow(/PRICE/);
    expect(() => toMinor(0.1 + 0.2, 'DISCOUNT')).toThrow(/DISCOUNT/);
    expect(() => toMinor('12,50', 'PRICE')).toThrow();
    expect(() => toMinor(Number.NaN, 'PRICE')).toThrow();
  });

  it('formats cents as a JSON number', () => {
    expect(fromMinor(1999)).toBe(19.99);
    expect(fromMinor(-5)).toBe(-0.05);
  });

  it('prints every amount of up to 13 whole digits as its exact decimal text, and reads it back', () => {
    // The wire's text of an amount is String(number) (JSON); it must be the amount's own decimals.
    const decimal = (minor: number) => {
      const digits = String(Math.abs(minor)).padStart(3, '0');
      const text = `${digits.slice(0, -2)}.${digits.slice(-2)}`.replace(/\.?0+$/, '');
      return minor < 0 ? `-${text}` : text;
    };
    const amounts = fc.oneof(
      fc.integer({ min: -999_999_999_999_999, max: 999_999_999_999_999 }),
      fc.integer({ min: -100_000, max: 100_000 }),
    );
    fc.assert(
      fc.property(amounts, (minor) => {
        expect(String(fromMinor(minor))).toBe(decimal(minor));
        expect(toMinor(fromMinor(minor), 'PRICE')).toBe(minor);
        expect(String(percentFromBasisPoints(minor))).toBe(decimal(minor));
      }),
      { numRuns: 20_000 },
    );
    expect(Object.is(fromMinor(-1 * 0), 0)).toBe(true); // no -0 (a credit note's sign times zero)
    expect(Object.is(percentFromBasisPoints(-0), 0)).toBe(true);
    expect(decimal(0)).toBe('0');
    expect(decimal(1950)).toBe('19.5');
    expect(decimal(-5)).toBe('-0.05');
  });

  it('applies percentages with half-away-from-zero rounding to the cent', () => {
    expect(percentOf(1999, 1000)).toBe(200); // 199.9 -> 200
    expect(percentOf(1005, 5000)).toBe(503); // 502.5 -> 503
    expect(percentOf(-1005, 5000)).toBe(-503);
    expect(percentOf(333, 3333)).toBe(111); // 110.9889 -> 111
  });

  it('shows basis points as a percentage number', () => {
    expect(percentFromBasisPoints(2100)).toBe(21);
    expect(percentFromBasisPoints(550)).toBe(5.5);
    expect(percentFromBasisPoints(1)).toBe(0.01);
    expect(percentFromBasisPoints(0)).toBe(0);
  });
});
