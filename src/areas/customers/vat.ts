/**
 * VAT identification numbers (docs/customers.md, "VAT numbers"). A number is normalised first
 * (upper case; spaces, dots, dashes dropped) and must start with its country prefix. Countries with
 * a published check-digit rule that is implemented here are checked by it (NL, BE, DE); the other
 * EU member states (and XI, GB, CH, NO) by the format of their numbers only. Whether a number is
 * actually registered is not something a format can tell (that is VIES's job).
 */

export type VatCheck = { ok: true; value: string } | { ok: false; message: string };

/** Format of the part after the prefix, per prefix (EL is Greece, XI Northern Ireland). */
const FORMATS: Record<string, RegExp> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^[1-9]\d{8}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  EL: /^\d{9}$/,
  ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^\d{8}$/,
  FR: /^[A-HJ-NP-Z0-9]{2}\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^(?:\d{7}[A-W][A-IW]?|\d[A-Z+*]\d{5}[A-W])$/,
  IT: /^\d{11}$/,
  LT: /^(?:\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^[1-9]\d{1,9}$/,
  SE: /^\d{10}01$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
  XI: /^(?:\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
  GB: /^(?:\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
  CH: /^E\d{9}(?:MWST|TVA|IVA)?$/,
  NO: /^\d{9}(?:MVA)?$/,
};

/** Check-digit rules where implemented; the argument is the part after the prefix. */
const CHECKS: Record<string, (body: string) => boolean> = {
  NL: (body) => nlElevenProof(body.slice(0, 9)) || nlMod97(`NL${body}`),
  BE: beMod97,
  DE: deMod1110,
};

/** Upper case without spaces, dots and dashes: "nl 1234.56.782.b01" -> "NL123456782B01". */
export function normaliseVat(input: string): string {
  return input.toUpperCase().replace(/[\s.-]/g, '');
}

/** Checks a VAT number; the empty string (no VAT number) is fine and stays empty. */
export function checkVatNumber(input: string): VatCheck {
  const vat = normaliseVat(input);
  if (vat === '') return { ok: true, value: '' };
  const prefix = vat.slice(0, 2);
  const body = vat.slice(2);
  if (prefix === 'GR') return { ok: false, message: 'Greek VAT numbers start with EL' };
  const format = FORMATS[prefix];
  if (!format) {
    return {
      ok: false,
      message: 'must start with a known country prefix (NL, BE, DE, FR, ... EL for Greece)',
    };
  }
  if (!format.test(body)) return { ok: false, message: `is not in the format of a ${prefix} VAT number` };
  const check = CHECKS[prefix];
  if (check && !check(body))
    return { ok: false, message: `fails the check digits of a ${prefix} VAT number` };
  return { ok: true, value: vat };
}

/** The pre-2020 Dutch rule: weights 9..2 over the first eight digits, -1 on the ninth; sum divisible by 11. */
export function nlElevenProof(nine: string): boolean {
  if (!/^\d{9}$/.test(nine)) return false;
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(nine[i]) * (9 - i);
  sum -= Number(nine[8]);
  return sum % 11 === 0;
}

/**
 * The Dutch rule since 2020 (btw-id of sole traders, NLxxxxxxxxxBxx): letters as numbers (A = 10 ...
 * Z = 35), the whole string read as one number, modulo 97 is 1 (ISO 7064 mod 97-10, as for IBAN).
 */
export function nlMod97(vat: string): boolean {
  if (!/^NL\d{9}B\d{2}$/.test(vat)) return false;
  return mod97(vat) === 1;
}

function mod97(text: string): number {
  let rest = 0;
  for (const ch of text) {
    const digits = /\d/.test(ch) ? ch : String(ch.charCodeAt(0) - 55);
    for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest;
}

/** Belgium: ten digits, the last two are 97 minus the first eight modulo 97. */
export function beMod97(ten: string): boolean {
  if (!/^[01]\d{9}$/.test(ten)) return false;
  return 97 - (Number(ten.slice(0, 8)) % 97) === Number(ten.slice(8));
}

/** Germany: nine digits, the ninth an ISO 7064 MOD 11,10 check digit over the first eight. */
export function deMod1110(nine: string): boolean {
  if (!/^\d{9}$/.test(nine)) return false;
  let product = 10;
  for (let i = 0; i < 8; i++) {
    let sum = (Number(nine[i]) + product) % 10;
    if (sum === 0) sum = 10;
    product = (2 * sum) % 11;
  }
  let check = 11 - product;
  if (check === 10) check = 0;
  return check === Number(nine[8]);
}
