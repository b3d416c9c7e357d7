import { describe, expect, it } from 'vitest';
import { daysBetween, readPaymentReference, refusalOf } from './payment-rules.ts';

describe('a payment reference', () => {
  it('reads a structured communication in the forms people write, canonical', () => {
    for (const written of [
      '+++261/0000/12374+++',
      '***261/0000/12374***',
      '261000012374',
      ' 261 0000 12374 ',
    ])
      expect(readPaymentReference(written)).toEqual({ kind: 'structured', value: '+++261/0000/12374+++' });
  });

  it('refuses a malformed structured communication with the reason, never as free text', () => {
    expect(readPaymentReference('+++261/0000/12375+++')).toEqual({
      refused: 'is not a valid structured communication: it has check digits 75, expected 74 (mod 97)',
    });
    expect(readPaymentReference('26100001237')).toHaveProperty('refused');
    expect(readPaymentReference('+++261/0000/12374')).toHaveProperty('refused');
    expect(readPaymentReference('  ')).toEqual({ refused: 'is empty' });
  });

  it('reads a document number, upper case, and keeps anything else as it is', () => {
    expect(readPaymentReference('inv-2026-000123')).toEqual({ kind: 'number', value: 'INV-2026-000123' });
    expect(readPaymentReference('CN-2026-000007')).toEqual({ kind: 'number', value: 'CN-2026-000007' });
    expect(readPaymentReference('rent march')).toEqual({ kind: 'other', value: 'rent march' });
  });
});

describe('allocation refusals and ages', () => {
  const invoice = { type: 'INVOICE' as const, currency: 'EUR' };
  const credit = { type: 'CREDIT_NOTE' as const, currency: 'EUR' };
  it('allocates money received to an invoice and money paid out to a credit note, in its currency', () => {
    expect(refusalOf({ amount: 100, currency: 'EUR' }, invoice)).toBeNull();
    expect(refusalOf({ amount: -100, currency: 'EUR' }, credit)).toBeNull();
    expect(refusalOf({ amount: 100, currency: 'EUR' }, credit)).toBe('WRONG_DIRECTION');
    expect(refusalOf({ amount: -100, currency: 'EUR' }, invoice)).toBe('WRONG_DIRECTION');
    expect(refusalOf({ amount: 100, currency: 'USD' }, invoice)).toBe('CURRENCY_MISMATCH');
    expect(refusalOf({ amount: 100, currency: 'EUR' }, undefined)).toBe('NO_MATCH');
  });

  it('counts whole days in UTC, across a month and a leap day', () => {
    expect(daysBetween('2026-11-26', '2026-11-26')).toBe(0);
    expect(daysBetween('2026-10-31', '2026-11-26')).toBe(26);
    expect(daysBetween('2028-02-28', '2028-03-01')).toBe(2);
  });
});
