/**
 * The Belgian structured communication (gestructureerde mededeling / communication structurée,
 * OGM/VCS): twelve digits written "+++123/4567/89012+++", the last two a check on the first ten
 * (their value mod 97, 0 written as 97). Every invoice carries one as its payment reference, so a
 * payment can be matched to it; banks refuse a transfer whose check digits are wrong, so a malformed
 * one in input is refused here, with the reason, rather than stored.
 */

/** A base is at most ten digits (the document's own number, padded with zeros on the left). */
const MAX_BASE = 9_999_999_999;

/** "+++" or "***" around it (the same on both sides), then 3/4/5 digits with optional slashes. */
const WRITTEN = /^(?:(\+{3}|\*{3})(.*)\1|(.*))$/;
const DIGITS = /^(\d{3})\/?(\d{4})\/?(\d{5})$/;

export type StructuredReferenceResult =
  | { ok: true /** "+++123/4567/89012+++" */; value: string /** "123456789012" */; digits: string }
  | { ok: false; reason: string };

/** The two check digits of a ten-digit base: base mod 97, 0 → 97. */
export function checkDigits(base: number): string {
  const rest = base % 97;
  return String(rest === 0 ? 97 : rest).padStart(2, '0');
}

/** The structured communication of a base of at most ten digits (0 ≤ base ≤ 9,999,999,999). */
export function makeStructuredReference(base: number): string {
  if (!Number.isSafeInteger(base) || base < 0 || base > MAX_BASE)
    throw new RangeError(`a structured communication's base is 0 to ${MAX_BASE}, not ${base}`);
  const ten = String(base).padStart(10, '0');
  return formatDigits(ten + checkDigits(base));
}

/** Twelve digits written the usual way: "+++123/4567/89012+++". */
function formatDigits(digits: string): string {
  return `+++${digits.slice(0, 3)}/${digits.slice(3, 7)}/${digits.slice(7)}+++`;
}

/**
 * Reads a structured communication as people write it: with +++ or *** around it or neither,
 * slashes between the groups or not, spaces anywhere. Anything else (a wrong number of digits,
 * letters, unmatched markers, wrong check digits) is refused with the reason.
 */
export function parseStructuredReference(input: string): StructuredReferenceResult {
  const compact = input.replace(/\s+/g, '');
  if (compact === '') return { ok: false, reason: 'is empty' };
  const written = WRITTEN.exec(compact);
  const inner = written?.[2] ?? written?.[3] ?? '';
  if (/^[+*]|[+*]$/.test(inner))
    return { ok: false, reason: 'must be written between +++ and +++ (or *** and ***), or without them' };
  const groups = DIGITS.exec(inner);
  if (!groups) return { ok: false, reason: 'must be 12 digits, grouped 3/4/5 (e.g. +++123/4567/89012+++)' };
  const digits = groups.slice(1, 4).join('');
  const base = Number(digits.slice(0, 10));
  const expected = checkDigits(base);
  if (digits.slice(10) !== expected)
    return { ok: false, reason: `has check digits ${digits.slice(10)}, expected ${expected} (mod 97)` };
  return { ok: true, value: formatDigits(digits), digits };
}

/** Whether `input` is a structured communication in its canonical form "+++123/4567/89012+++". */
export function isCanonicalStructuredReference(input: string): boolean {
  const parsed = parseStructuredReference(input);
  return parsed.ok && parsed.value === input;
}
