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
