import { describe, expect, it } from 'vitest';
import {
  formatAmount,
  formatDate,
  formatEnterpriseNumber,
  formatIban,
  formatMoney,
  formatRate,
  toWinAnsi,
} from './format.ts';

describe('formatAmount', () => {
  it('writes minor units exactly, grouped, in each language', () => {
    expect(formatAmount(0, 'nl')).toBe('0,00');
    expect(formatAmount(5, 'nl')).toBe('0,05');
    expect(formatAmount(99, 'fr')).toBe('0,99');
    expect(formatAmount(100, 'de')).toBe('1,00');
    expect(formatAmount(123456, 'nl')).toBe('1.234,56');
    expect(formatAmount(123456, 'en')).toBe('1,234.56');
    expect(formatAmount(100000, 'de')).toBe('1.000,00');
    expect(formatAmount(-150, 'nl')).toBe('-1,50');
    expect(formatAmount(-123456789, 'en')).toBe('-1,234,567.89');
  });

  it('is exact up to the largest safe integer (digits, not a float division)', () => {
    expect(formatAmount(Number.MAX_SAFE_INTEGER, 'nl')).toBe('90.071.992.547.409,91');
    expect(formatAmount(999999999999999, 'en')).toBe('9,999,999,999,999.99');
  });

  it('refuses what is not an integer of minor units', () => {
    expect(() => formatAmount(1.5, 'nl')).toThrow(RangeError);
    expect(() => formatAmount(Number.NaN, 'nl')).toThrow(RangeError);
  });
});

describe('formatMoney', () => {
  it('places the currency as each language does', () => {
    expect(formatMoney(134639, 'EUR', 'nl')).toBe('€ 1.346,39');
    expect(formatMoney(134639, 'EUR', 'fr')).toBe('1.346,39 €');
    expect(formatMoney(134639, 'EUR', 'de')).toBe('1.346,39 €');
    expect(formatMoney(134639, 'EUR', 'en')).toBe('€1,346.39');
    expect(formatMoney(-500, 'EUR', 'en')).toBe('-€5.00');
    expect(formatMoney(-500, 'EUR', 'nl')).toBe('€ -5,00');
  });

  it('writes a currency without a symbol by its code', () => {
    expect(formatMoney(123456, 'CHF', 'nl')).toBe('CHF 1.234,56');
    expect(formatMoney(123456, 'PLN', 'fr')).toBe('1.234,56 PLN');
    expect(formatMoney(123456, 'USD', 'en')).toBe('USD 1,234.56');
  });
});

describe('formatRate', () => {
  it('writes basis points as a percentage, decimals only when there are', () => {
    expect(formatRate(2100, 'nl')).toBe('21 %');
    expect(formatRate(600, 'fr')).toBe('6 %');
    expect(formatRate(550, 'de')).toBe('5,5 %');
    expect(formatRate(1225, 'nl')).toBe('12,25 %');
    expect(formatRate(5, 'nl')).toBe('0,05 %');
    expect(formatRate(0, 'en')).toBe('0%');
    expect(formatRate(550, 'en')).toBe('5.5%');
  });
});

describe('formatDate', () => {
  it('writes a date as each language does', () => {
    expect(formatDate('2026-11-20', 'nl')).toBe('20-11-2026');
    expect(formatDate('2026-11-20', 'fr')).toBe('20/11/2026');
    expect(formatDate('2026-11-20', 'de')).toBe('20.11.2026');
    expect(formatDate('2026-11-20', 'en')).toBe('20 Nov 2026');
    expect(formatDate('2027-01-05', 'en')).toBe('5 Jan 2027');
  });

  it('refuses what is not YYYY-MM-DD', () => {
    expect(() => formatDate('20-11-2026', 'nl')).toThrow(RangeError);
  });
});

describe('identifiers', () => {
  it('groups an IBAN by four and a Belgian enterprise number as 0123.456.749', () => {
    expect(formatIban('BE68539007547034')).toBe('BE68 5390 0754 7034');
    expect(formatIban('DE89370400440532013000')).toBe('DE89 3704 0044 0532 0130 00');
    expect(formatEnterpriseNumber('0123456749')).toBe('0123.456.749');
    expect(formatEnterpriseNumber('HRB 1234')).toBe('HRB 1234');
  });
});

describe('toWinAnsi', () => {
  it('keeps what the standard font shows: Latin-1, €, œ, Š, quotes and dashes', () => {
    const text = 'Größe € 1.234,56 — Note de crédit « œuvre » Šárka ‘x’ Ÿ';
    expect(toWinAnsi(text)).toBe(text);
    expect(toWinAnsi('two\nlines')).toBe('two\nlines');
  });

  it('writes other letters without their accent, and anything else as ?', () => {
    expect(toWinAnsi('Łódź')).toBe('Lódz');
    expect(toWinAnsi('Čačak')).toBe('Cacak');
    expect(toWinAnsi('Győ, Ștefan, Kraków')).toBe('Gyo, Stefan, Kraków');
    expect(toWinAnsi('Αθήνα')).toBe('?????');
    expect(toWinAnsi('a\tb')).toBe('a b');
  });
});
