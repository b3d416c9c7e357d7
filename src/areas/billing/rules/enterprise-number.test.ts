import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertProperty } from '../../../../test/helpers/seed.ts';
import {
  belgianVatNumber,
  enterpriseNumberFromVat,
  formatEnterpriseNumber,
  isEnterpriseNumber,
  parseEnterpriseNumber,
} from './enterprise-number.ts';

describe('parseEnterpriseNumber', () => {
  it('reads the written forms into ten digits', () => {
    // 01234567 = 1234567 = 97 × 12727 + 48; 97 − 48 = 49
    for (const input of [
      '0123456749',
      '0123.456.749',
      '0123 456 749',
      'BE 0123.456.749',
      'be0123456749',
      '123.456.749',
    ])
      expect(parseEnterpriseNumber(input), input).toEqual({ ok: true, value: '0123456749' });
  });

  it('accepts numbers starting with 1 and a check of 97', () => {
    // 10000000 = 97 × 103092 + 76; 97 − 76 = 21
    expect(parseEnterpriseNumber('1000.000.021')).toEqual({ ok: true, value: '1000000021' });
    // 00000097 mod 97 = 0: the check is 97
    expect(parseEnterpriseNumber('0000.000.097')).toEqual({ ok: true, value: '0000000097' });
  });

  it('refuses malformed numbers with a reason', () => {
    expect(parseEnterpriseNumber('0123.456.748')).toEqual({
      ok: false,
      reason: 'has check digits 48, expected 49 (mod 97)',
    });
    expect(parseEnterpriseNumber('2123.456.749')).toEqual({ ok: false, reason: 'must start with 0 or 1' });
    for (const input of ['', 'BE', '0123.456.74', '01234567490', 'O123456749', 'NL0123456749'])
      expect(parseEnterpriseNumber(input).ok, input).toBe(false);
  });

  it('reads back every valid number and refuses any one changed digit', async () => {
    await assertProperty(
      fc.property(
        fc.integer({ min: 0, max: 19_999_999 }),
        fc.integer({ min: 0, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
        (first, position, delta) => {
          const eight = String(first).padStart(8, '0');
          const value = eight + String(97 - (first % 97)).padStart(2, '0');
          expect(isEnterpriseNumber(value)).toBe(true);
          expect(parseEnterpriseNumber(`BE ${formatEnterpriseNumber(value)}`)).toEqual({ ok: true, value });
          const changed =
            value.slice(0, position) +
            String((Number(value[position]) + delta) % 10) +
            value.slice(position + 1);
          expect(parseEnterpriseNumber(changed).ok).toBe(false);
        },
      ),
      500,
    );
  });
});

describe('the enterprise number and the VAT number', () => {
  it('formats as printed', () => {
    expect(formatEnterpriseNumber('0123456749')).toBe('0123.456.749');
  });

  it('derives the enterprise number from a Belgian VAT number and back', () => {
    expect(enterpriseNumberFromVat('BE0123456749')).toEqual({ ok: true, value: '0123456749' });
    expect(enterpriseNumberFromVat('BE 0123.456.749')).toEqual({ ok: true, value: '0123456749' });
    expect(belgianVatNumber('0123456749')).toBe('BE0123456749');
    expect(enterpriseNumberFromVat('NL123456789B01')).toMatchObject({ ok: false });
    expect(enterpriseNumberFromVat('BE0123456748')).toMatchObject({ ok: false });
  });

  it('calls only the stored ten-digit form an enterprise number', () => {
    expect(isEnterpriseNumber('0123.456.749')).toBe(false);
    expect(isEnterpriseNumber('123456749')).toBe(false);
  });
});
