/**
 * The Belgian enterprise number (ondernemingsnummer / numéro d'entreprise, KBO/BCE): ten digits,
 * the first 0 or 1, the last two a check on the first eight (97 − their value mod 97). It is a
 * Belgian party's Peppol endpoint and legal registration under ICD scheme 0208, and the Peppol
 * rules check it (PEPPOL-COMMON-R043), so a bad one is refused here before a document is written.
 * A Belgian VAT number is "BE" followed by the enterprise number.
 */

export type EnterpriseNumberResult =
  | { ok: true /** "0123456749" */; value: string }
  | { ok: false; reason: string };

/** 97 − (first eight digits mod 97), as two digits (01 to 97). */
function checkOf(firstEight: string): string {
  return String(97 - (Number(firstEight) % 97)).padStart(2, '0');
}

/**
 * Reads an enterprise number as written: "0123.456.749", "0123 456 749", "BE 0123.456.749",
 * "BE0123456749", or the old nine-digit form "123.456.749" (a leading 0 added). Refuses anything
 * else with the reason.
 */
export function parseEnterpriseNumber(input: string): EnterpriseNumberResult {
  let compact = input.replace(/[\s.\-/]+/g, '').toUpperCase();
  if (compact.startsWith('BE')) compact = compact.slice(2);
  if (compact === '') return { ok: false, reason: 'is empty' };
  if (!/^\d+$/.test(compact)) return { ok: false, reason: 'must be digits (e.g. 0123.456.749)' };
  if (compact.length === 9) compact = `0${compact}`;
  if (compact.length !== 10) return { ok: false, reason: 'must be 10 digits (e.g. 0123.456.749)' };
  if (compact[0] !== '0' && compact[0] !== '1') return { ok: false, reason: 'must start with 0 or 1' };
  const expected = checkOf(compact.slice(0, 8));
  if (compact.slice(8) !== expected)
    return { ok: false, reason: `has check digits ${compact.slice(8)}, expected ${expected} (mod 97)` };
  return { ok: true, value: compact };
}

/** Whether `value` is an enterprise number in its stored form: ten digits, checked. */
export function isEnterpriseNumber(value: string): boolean {
  const parsed = parseEnterpriseNumber(value);
  return parsed.ok && parsed.value === value;
}

/** "0123456749" → "0123.456.749", the way it is printed. */
export function formatEnterpriseNumber(value: string): string {
  return `${value.slice(0, 4)}.${value.slice(4, 7)}.${value.slice(7)}`;
}

/**
 * The enterprise number inside a Belgian VAT number ("BE0123456749", "BE 0123.456.749"); a VAT
 * number of another country, or a malformed one, is refused with the reason.
 */
export function enterpriseNumberFromVat(vatNumber: string): EnterpriseNumberResult {
  const compact = vatNumber.replace(/[\s.\-/]+/g, '').toUpperCase();
  if (!compact.startsWith('BE')) return { ok: false, reason: 'is not a Belgian VAT number (BE...)' };
  return parseEnterpriseNumber(compact);
}

/** The Belgian VAT number of an enterprise number: "BE0123456749". */
export function belgianVatNumber(enterpriseNumber: string): string {
  return `BE${enterpriseNumber}`;
}
