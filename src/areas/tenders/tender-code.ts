import { randomBytes } from 'node:crypto';

/**
 * Voucher codes: 16 random characters (80 bits from node:crypto) of Crockford's base-32 alphabet
 * (no I, L, O, U: nothing to misread), then one check character (Luhn mod 32), so a mistyped
 * character or two swapped neighbours (but 0 and Z, Luhn's one blind spot) are refused before the
 * database is asked. Codes are never
 * sequences: knowing one code tells nothing about another.
 */
export const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const N = CODE_ALPHABET.length;
export const CODE_RANDOM_LENGTH = 16;
export const CODE_LENGTH = CODE_RANDOM_LENGTH + 1;

/** The Luhn mod-N check character of `body` (characters of CODE_ALPHABET). */
export function checkCharacter(body: string): string {
  let factor = 2;
  let sum = 0;
  for (let i = body.length - 1; i >= 0; i--) {
    const addend = factor * CODE_ALPHABET.indexOf(body.charAt(i));
    factor = factor === 2 ? 1 : 2;
    sum += Math.floor(addend / N) + (addend % N);
  }
  return CODE_ALPHABET.charAt((N - (sum % N)) % N);
}

/** A new random code with its check character. */
export function newVoucherCode(): string {
  const bytes = randomBytes(CODE_RANDOM_LENGTH);
  // 256 is a multiple of 32, so the low five bits of each byte are uniform.
  const body = Array.from(bytes, (b) => CODE_ALPHABET.charAt(b & 31)).join('');
  return body + checkCharacter(body);
}

/** A code as typed: upper case, without spaces and dashes (codes may be printed in groups). */
export function normaliseCode(typed: string): string {
  return typed.toUpperCase().replace(/[\s-]/g, '');
}

/** Whether a normalised code has the form and check character of a voucher code. */
export function isWellFormedCode(code: string): boolean {
  if (code.length !== CODE_LENGTH) return false;
  for (const c of code) if (!CODE_ALPHABET.includes(c)) return false;
  return checkCharacter(code.slice(0, -1)) === code.slice(-1);
}

/**
 * The form a code brought over from another system may have (`tv2 import vouchers`): kept as the
 * old system printed it (normalised), 6 to 40 letters and digits, without our check character. Not
 * of our length, so a mistyped code of ours is still refused without a database read.
 */
export function isImportedCodeForm(code: string): boolean {
  return /^[A-Z0-9]{6,40}$/.test(code) && code.length !== CODE_LENGTH;
}

/** Whether a normalised code is worth looking up: one of ours with its check character, or an imported form. */
export function isLookupCode(code: string): boolean {
  return isWellFormedCode(code) || isImportedCodeForm(code);
}
