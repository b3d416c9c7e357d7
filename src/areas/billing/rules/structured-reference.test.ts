import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertProperty } from '../../../../test/helpers/seed.ts';
import {
  checkDigits,
  isCanonicalStructuredReference,
  makeStructuredReference,
  parseStructuredReference,
} from './structured-reference.ts';

describe('makeStructuredReference', () => {
  it('appends base mod 97 and groups the digits 3/4/5 between +++', () => {
    // 1234567890 = 97 × 12727504 + 2
    expect(makeStructuredReference(1_234_567_890)).toBe('+++123/4567/89002+++');
    expect(makeStructuredReference(123)).toBe('+++000/0000/12326+++');
  });

  it('writes a remainder of 0 as 97', () => {
    expect(checkDigits(0)).toBe('97');
    expect(checkDigits(97 * 1_000_003)).toBe('97');
    expect(makeStructuredReference(0)).toBe('+++000/0000/00097+++');
    expect(makeStructuredReference(97)).toBe('+++000/0000/09797+++');
  });

  it('takes bases of at most ten digits, whole and not negative', () => {
    expect(makeStructuredReference(9_999_999_999)).toBe('+++999/9999/99948+++');
    for (const base of [-1, 10_000_000_000, 1.5, Number.NaN])
      expect(() => makeStructuredReference(base)).toThrow(RangeError);
  });
});

describe('parseStructuredReference', () => {
  it('reads the usual written forms into the canonical one', () => {
    for (const input of [
      '+++123/4567/89002+++',
      '***123/4567/89002***',
      '123/4567/89002',
      '123456789002',
      '+++123456789002+++',
      ' +++ 123 / 4567 / 89002 +++ ',
      '123 4567 89002',
    ])
      expect(parseStructuredReference(input), input).toEqual({
        ok: true,
        value: '+++123/4567/89002+++',
        digits: '123456789002',
      });
  });

  it('refuses wrong check digits, naming the expected ones', () => {
    expect(parseStructuredReference('+++123/4567/89012+++')).toEqual({
      ok: false,
      reason: 'has check digits 12, expected 02 (mod 97)',
    });
    // A remainder of 0 is written 97, never 00.
    expect(parseStructuredReference('000/0000/00000')).toMatchObject({ ok: false });
  });

  it('refuses malformed input with a reason', () => {
    const refused = [
      '',
      '   ',
      '+++123/4567/89002***',
      '++123/4567/89002++',
      '+++123/4567/89002',
      '12345678900',
      '1234567890022',
      '12/34567/89002',
      '123//4567/89002',
      '123-4567-89002',
      'abc/defg/hijkl',
      '+++123/4567/8900A+++',
    ];
    for (const input of refused) {
      const parsed = parseStructuredReference(input);
      expect(parsed.ok, input).toBe(false);
      if (!parsed.ok) expect(parsed.reason.length, input).toBeGreaterThan(0);
    }
  });

  it('reads back every reference it makes, and refuses it with any one digit changed', async () => {
    await assertProperty(
      fc.property(
        fc.integer({ min: 0, max: 9_999_999_999 }),
        fc.integer({ min: 0, max: 11 }),
        fc.integer({ min: 1, max: 9 }),
        (base, position, delta) => {
          const made = makeStructuredReference(base);
          const parsed = parseStructuredReference(made);
          expect(parsed).toMatchObject({ ok: true, value: made });
          expect(isCanonicalStructuredReference(made)).toBe(true);
          const digits = made.replace(/\D/g, '');
          const changed =
            digits.slice(0, position) +
            String((Number(digits[position]) + delta) % 10) +
            digits.slice(position + 1);
          // One changed digit changes the value mod 97 (10^k is never a multiple of 97), except
          // a check of 97 written for a remainder that became 0 by the change: then 97 ≠ 00 too.
          expect(parseStructuredReference(changed).ok).toBe(false);
        },
      ),
      500,
    );
  });

  it('calls only the +++123/4567/89002+++ form canonical', () => {
    expect(isCanonicalStructuredReference('123456789002')).toBe(false);
    expect(isCanonicalStructuredReference('+++123/4567/89012+++')).toBe(false);
  });
});
