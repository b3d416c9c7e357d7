import type { FieldError } from '../../kernel/errors.ts';
import type { LanguageText } from '../../kernel/language.ts';

/**
 * Validation patterns for client apps (B2C_GetCompanyRegEx, docs/shops.md). The built-in ones are
 * the patterns this server itself validates with (src/kernel/contact.ts and the
 * member card rule of the clients area): they are answered in every list, cannot be changed in the
 * back office, and `company-regex.test.ts` checks that they accept and refuse exactly what the
 * server's own checks do. Further patterns (VAT numbers, per-country phone forms, ...) are kept in
 * the `company_regex` table.
 *
 * Patterns are written for every common engine (JavaScript, Java, .NET, Swift, Kotlin): anchored with
 * ^ and $, no flags, no named groups or look-behind.
 */
export interface CompanyPattern {
  name: string;
  /** ISO 3166-1 alpha-2, or null for a pattern that applies to every country without its own. */
  country: string | null;
  pattern: string;
  description: LanguageText;
}

/** E-mail as `checkEmail` takes it (applied to the trimmed value). */
const EMAIL =
  "^(?=.{1,254}$)(?=[^@]{1,64}@)[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*" +
  '@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{0,58}[A-Za-z0-9])$';

const postal = (country: string | null, pattern: string, example: string): CompanyPattern => ({
  name: 'POSTALCODE',
  country,
  pattern,
  description: {
    LANGUAGE_1: `Postcode${example ? `, bijvoorbeeld ${example}` : ''} (hoofdletters)`,
    LANGUAGE_2: `Postal code${example ? `, e.g. ${example}` : ''} (upper case)`,
  },
});

/** The patterns the server validates with; answered first in every B2C_GetCompanyRegEx list. */
export const SERVER_PATTERNS: readonly CompanyPattern[] = [
  {
    name: 'CARDNO',
    country: null,
    pattern: '^[A-Z0-9-]{4,32}$',
    description: {
      LANGUAGE_1: 'Klantenkaartnummer: 4 tot 32 hoofdletters, cijfers of -',
      LANGUAGE_2: 'Member card number: 4 to 32 capitals, digits or -',
    },
  },
  {
    name: 'EMAIL',
    country: null,
    pattern: EMAIL,
    description: { LANGUAGE_1: 'E-mailadres: naam@domein.nl', LANGUAGE_2: 'E-mail address: name@domain.com' },
  },
  {
    name: 'PHONE',
    country: null,
    pattern: '^\\+[1-9][0-9]{6,14}$',
    description: {
      LANGUAGE_1: 'Telefoonnummer internationaal, zonder spaties: +31612345678',
      LANGUAGE_2: 'Phone number in international form without spaces: +31612345678',
    },
  },
  postal(null, '^[A-Z0-9][A-Z0-9 -]{0,8}[A-Z0-9]$', ''),
  postal('AT', '^([1-9][0-9]{3})$', '1010'),
  postal('BE', '^([1-9][0-9]{3})$', '1000'),
  postal('DE', '^([0-9]{5})$', '10115'),
  postal('FR', '^([0-9]{5})$', '75001'),
  postal('GB', '^(GIR|[A-Z]{1,2}[0-9][A-Z0-9]?) ?([0-9][A-Z]{2})$', 'SW1A 1AA'),
  postal('LU', '^(?:L-?)?([0-9]{4})$', '1234'),
  postal('NL', '^([1-9][0-9]{3}) ?(?!SA|SD|SS)([A-Z]{2})$', '1234 AB'),
];

export function isServerPattern(name: string, country: string | null): boolean {
  return SERVER_PATTERNS.some((p) => p.name === name && p.country === country);
}

export const PATTERN_NAME = /^[A-Z][A-Z0-9_]{0,39}$/;
export const MAX_PATTERN_LENGTH = 500;

/**
 * Checks a pattern for the table: a portable, anchored regular expression that compiles (its name,
 * country and length are the request schema's, RegexBody).
 */
export function checkPattern(entry: CompanyPattern): FieldError[] {
  const errors: FieldError[] = [];
  const p = entry.pattern;
  if (!p.startsWith('^') || !p.endsWith('$') || p.endsWith('\\$')) {
    errors.push({ name: 'PATTERN', message: 'must be anchored: start with ^ and end with $' });
  } else if (/\(\?<[=!]|\(\?<[A-Za-z]|\(\?[a-z]/.test(p)) {
    errors.push({ name: 'PATTERN', message: 'no look-behind, named groups or inline flags (not portable)' });
  } else {
    try {
      new RegExp(p);
    } catch (error) {
      errors.push({ name: 'PATTERN', message: `does not compile: ${(error as Error).message}` });
    }
  }
  return errors;
}
