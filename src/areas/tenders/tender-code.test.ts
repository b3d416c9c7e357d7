import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertProperty } from '../../../test/helpers/seed.ts';
import {
  CODE_ALPHABET,
  CODE_LENGTH,
  checkCharacter,
  isImportedCodeForm,
  isLookupCode,
  isWellFormedCode,
  newVoucherCode,
  normaliseCode,
} from './tender-code.ts';

const bodyArb = fc
  .array(fc.constantFrom(...CODE_ALPHABET), { minLength: CODE_LENGTH - 1, maxLength: CODE_LENGTH - 1 })
  .map((cs) => cs.join(''));

describe('voucher codes', () => {
  it('are long, random, well formed and never repeat in 10,000 draws', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 10_000; i++) {
      const code = newVoucherCode();
      expect(code).toHaveLength(CODE_LENGTH);
      expect(isWellFormedCode(code)).toBe(true);
      seen.add(code);
    }
    expect(seen.size).toBe(10_000);
  });

  it('refuse any single changed character', async () => {
    await assertProperty(
      fc.property(bodyArb, fc.nat(CODE_LENGTH - 1), fc.constantFrom(...CODE_ALPHABET), (body, at, c) => {
        const code = body + checkCharacter(body);
        fc.pre(code.charAt(at) !== c);
        const typo = code.slice(0, at) + c + code.slice(at + 1);
        expect(isWellFormedCode(typo)).toBe(false);
      }),
      300,
    );
  });

  // Luhn mod 32 misses one transposition, as Luhn mod 10 misses 09/90: the first and last
  // characters of the alphabet (0 and Z) side by side.
  it('refuse two swapped neighbours that differ (but 0 and Z)', async () => {
    await assertProperty(
      fc.property(bodyArb, fc.nat(CODE_LENGTH - 3), (body, at) => {
        const code = body + checkCharacter(body);
        const [a, b] = [code.charAt(at), code.charAt(at + 1)];
        fc.pre(a !== b && `${a}${b}` !== '0Z' && `${a}${b}` !== 'Z0');
        const swapped = code.slice(0, at) + b + a + code.slice(at + 2);
        expect(isWellFormedCode(swapped)).toBe(false);
      }),
      300,
    );
  });

  it('are read as printed: groups, spaces and lower case', () => {
    const code = newVoucherCode();
    const printed = `${code.slice(0, 4)}-${code.slice(4, 8)} ${code.slice(8)}`.toLowerCase();
    expect(normaliseCode(printed)).toBe(code);
    expect(isWellFormedCode('')).toBe(false);
    expect(isWellFormedCode(`${code.slice(0, -1)}I`)).toBe(false);
  });
});

describe('imported codes (tv2 import vouchers)', () => {
  it('keep their old form: 6 to 40 letters and digits, never of our length, so a mistyped code of ours is still no lookup', () => {
    expect(isImportedCodeForm('773100429981')).toBe(true);
    expect(isImportedCodeForm('GV2025000417')).toBe(true);
    expect(isImportedCodeForm('AB1')).toBe(false);
    expect(isImportedCodeForm('A'.repeat(41))).toBe(false);
    expect(isImportedCodeForm('A'.repeat(CODE_LENGTH))).toBe(false);
    const code = newVoucherCode();
    expect(isLookupCode(code)).toBe(true);
    const typo = code.slice(0, 3) + (code.charAt(3) === 'A' ? 'B' : 'A') + code.slice(4);
    expect(isLookupCode(typo)).toBe(false);
    expect(isLookupCode('773100429981')).toBe(true);
  });
});
