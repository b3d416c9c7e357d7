/**
 * Contact data rules every area that keeps addresses uses (clients, customers, shops): e-mail,
 * phone (normalised to E.164), postal codes per country and the country code itself. Each check
 * returns the normalised value or an error message; the caller names the field.
 */

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
const bad = (message: string): Checked<never> => ({ ok: false, message });

const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const TOP_LEVEL = /^(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$/;

/**
 * A deliverable-looking address: `local@domain.tld` in ASCII (an international domain in its
 * xn-- form), at most 254 characters, no quoted local parts and no IP-literal domains. Trimmed.
 */
export function checkEmail(input: string): Checked<string> {
  const email = input.trim();
  if (email.length === 0) return bad('is required');
  if (email.length > 254) return bad('is longer than 254 characters');
  const at = email.lastIndexOf('@');
  if (at < 1 || at !== email.indexOf('@')) return bad('must be one address: name@domain.tld');
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (local.length > 64 || !LOCAL_PART.test(local)) return bad('has an invalid name before the @');
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((l) => DOMAIN_LABEL.test(l))) return bad('has an invalid domain');
  if (!TOP_LEVEL.test(labels[labels.length - 1] ?? '')) return bad('has an invalid top-level domain');
  return ok(email);
}

/** Country calling codes for national numbers (a leading trunk 0 is dropped). */
const CALLING_CODES: Record<string, string> = {
  NL: '31',
  BE: '32',
  DE: '49',
  FR: '33',
  GB: '44',
  LU: '352',
  AT: '43',
  CH: '41',
  DK: '45',
  ES: '34',
  IT: '39',
  IE: '353',
  PL: '48',
  SE: '46',
  NO: '47',
  FI: '358',
  PT: '351',
  CZ: '420',
};

const E164 = /^\+[1-9][0-9]{6,14}$/;

/**
 * E.164 after normalising: spaces, dots, dashes, slashes and brackets go, a `00` prefix becomes `+`,
 * and a national number (leading 0) gets the calling code of `country` when that is known
 * ("06 1234 5678" in NL becomes "+31612345678"). The "(0)" of "+31 (0)6 ..." is dropped.
 */
export function checkPhone(input: string, country: string | null): Checked<string> {
  let p = input.trim().replace(/\(0\)/g, '');
  if (!/^[+0-9 ()./-]+$/.test(p)) return bad('may hold only digits, spaces and + ( ) . / -');
  p = p.replace(/[ ()./-]/g, '');
  if (p.startsWith('00')) p = `+${p.slice(2)}`;
  else if (p.startsWith('0')) {
    const code = country ? CALLING_CODES[country] : undefined;
    if (!code) return bad('give the number with its country code, e.g. +31 6 12345678');
    p = `+${code}${p.slice(1)}`;
  }
  if (!E164.test(p)) return bad('must be an international number: + country code and 7 to 15 digits');
  return ok(p);
}

interface PostalRule {
  pattern: RegExp;
  format: (m: RegExpExecArray) => string;
  example: string;
}

const POSTAL_RULES: Record<string, PostalRule> = {
  // 1234 AB; the letter pairs SA, SD and SS are not issued.
  NL: {
    pattern: /^([1-9][0-9]{3}) ?(?!SA|SD|SS)([A-Z]{2})$/,
    format: (m) => `${m[1]} ${m[2]}`,
    example: '1234 AB',
  },
  BE: { pattern: /^([1-9][0-9]{3})$/, format: (m) => m[1] ?? '', example: '1000' },
  LU: { pattern: /^(?:L-?)?([0-9]{4})$/, format: (m) => m[1] ?? '', example: '1234' },
  DE: { pattern: /^([0-9]{5})$/, format: (m) => m[1] ?? '', example: '10115' },
  AT: { pattern: /^([1-9][0-9]{3})$/, format: (m) => m[1] ?? '', example: '1010' },
  FR: { pattern: /^([0-9]{5})$/, format: (m) => m[1] ?? '', example: '75001' },
  // Outward code (A9, A99, AA9, AA99, A9A, AA9A) and inward code (9AA); GIR 0AA is the one exception.
  GB: {
    pattern: /^(GIR|[A-Z]{1,2}[0-9][A-Z0-9]?) ?([0-9][A-Z]{2})$/,
    format: (m) => `${m[1]} ${m[2]}`,
    example: 'SW1A 1AA',
  },
};

const GENERIC_POSTAL = /^[A-Z0-9][A-Z0-9 -]{0,8}[A-Z0-9]$/;

/** Postal code for `country`, normalised (upper case, the country's spacing). */
export function checkPostalCode(input: string, country: string | null): Checked<string> {
  const code = input.trim().toUpperCase().replace(/\s+/g, ' ');
  if (code.length === 0) return bad('is empty');
  const rule = country ? POSTAL_RULES[country] : undefined;
  if (rule) {
    const m = rule.pattern.exec(code);
    return m ? ok(rule.format(m)) : bad(`is not a postal code of ${country} (e.g. ${rule.example})`);
  }
  return GENERIC_POSTAL.test(code) ? ok(code) : bad('must be 2 to 10 letters, digits, spaces or dashes');
}

/** Made on the first country checked, not at start: loading ICU's region names takes 13 to 20 ms (decision 53). */
let regionNames: Intl.DisplayNames | undefined;
function regionName(code: string): string | undefined {
  regionNames ??= new Intl.DisplayNames(['en'], { type: 'region' });
  return regionNames.of(code);
}
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'UN', 'ZZ', 'QO', 'XA', 'XB']);

/** ISO 3166-1 alpha-2, upper case. */
export function checkCountry(input: string): Checked<string> {
  const code = input.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(code) || NOT_COUNTRIES.has(code) || regionName(code) === code) {
    return bad('must be an ISO 3166-1 alpha-2 country code, e.g. NL');
  }
  return ok(code);
}
