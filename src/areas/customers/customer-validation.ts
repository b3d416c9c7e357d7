import { checkCountry, checkEmail, checkPhone, checkPostalCode } from '../../kernel/contact.ts';
import type { FieldError } from '../../kernel/errors.ts';
import { LANGUAGE_SLOTS } from '../../kernel/language.ts';
import { CURRENCY } from '../../kernel/money.ts';
import { checkVatNumber } from './vat.ts';

/**
 * Field rules of the customers area. Each `check...` pushes errors named by the domain field
 * (`vatNo`, `deliveryAddresses/2/postalCode`); the HTTP layer renames them to the wire's JSON
 * pointers. Contact-data rules (country, postal code, e-mail, phone) are the kernel's (contact.ts).
 */

export interface AddressInput {
  /** EXTRAADDRESSNO: 0 is the invoice address, 1, 2, ... delivery addresses. */
  addressNo?: number;
  address?: string;
  houseNumber?: string;
  postalCode?: string;
  city?: string;
  /** ISO 3166-1 alpha-2 (COUNTRYPOST). */
  country?: string;
  mapArea?: string;
  postBox?: string;
}

export interface InvoiceAddressInput extends AddressInput {
  /** The customer's VAT number; when given both here and on the customer, the two must agree. */
  vatNo?: string;
}

/** The stored form of an address (the columns of customer_address that carry its content). */
export interface AddressFields {
  address: string;
  house_number: string;
  postal_code: string;
  city: string;
  country: string;
  map_area: string;
  post_box: string;
}

export const ADDRESS_KEYS: ReadonlyArray<keyof AddressFields> = [
  'address',
  'house_number',
  'postal_code',
  'city',
  'country',
  'map_area',
  'post_box',
];

/** Countries whose addresses need a postal code (the others may have none). */
const POSTAL_CODE_REQUIRED = new Set(['NL', 'BE', 'LU', 'DE', 'AT', 'FR', 'GB']);
const CODE = /^[A-Za-z0-9][A-Za-z0-9._/ -]{0,39}$/;
const REPRESENTATIVE = /^[A-Z0-9][A-Z0-9._-]{0,19}$/;
const EXTERNAL_KEY = /^[\x21-\x7E]{1,64}$/;
export const MAX_CREDIT_MINOR = 9_999_999_999_99;

const trim = (v: string | undefined) => (v ?? '').trim();

function length(errors: FieldError[], name: string, value: string, max: number, required = false): void {
  if (required && value === '') errors.push({ name, message: 'is required' });
  else if (value.length > max) errors.push({ name, message: `is longer than ${max} characters` });
}

/** An address, checked and normalised; `at` is the field prefix (`deliveryAddresses/0/`). */
export function checkAddress(errors: FieldError[], at: string, a: AddressInput): AddressFields {
  const out: AddressFields = {
    address: trim(a.address),
    house_number: trim(a.houseNumber),
    postal_code: trim(a.postalCode),
    city: trim(a.city),
    country: trim(a.country).toUpperCase(),
    map_area: trim(a.mapArea),
    post_box: trim(a.postBox),
  };
  const country = checkCountry(out.country);
  if (!country.ok)
    errors.push({ name: `${at}country`, message: out.country === '' ? 'is required' : country.message });
  length(errors, `${at}address`, out.address, 120);
  length(errors, `${at}houseNumber`, out.house_number, 20);
  length(errors, `${at}city`, out.city, 80, true);
  length(errors, `${at}mapArea`, out.map_area, 40);
  length(errors, `${at}postBox`, out.post_box, 20);
  if (out.address === '' && out.post_box === '') {
    errors.push({ name: `${at}address`, message: 'give a street (ADDRESS) or a post box (POSTBOX)' });
  }
  if (out.postal_code !== '') {
    const postal = checkPostalCode(out.postal_code, country.ok ? country.value : null);
    if (postal.ok) out.postal_code = postal.value;
    else errors.push({ name: `${at}postalCode`, message: postal.message });
  } else if (POSTAL_CODE_REQUIRED.has(out.country)) {
    errors.push({ name: `${at}postalCode`, message: `is required in ${out.country}` });
  }
  return out;
}

export function sameAddress(a: AddressFields, b: AddressFields): boolean {
  return ADDRESS_KEYS.every((k) => a[k] === b[k]);
}

export function checkName(errors: FieldError[], name: string, value: string, required: boolean): string {
  const v = value.trim();
  length(errors, name, v, 100, required);
  return v;
}

export function checkVat(errors: FieldError[], name: string, value: string): string {
  const r = checkVatNumber(value);
  if (!r.ok) {
    errors.push({ name, message: r.message });
    return value;
  }
  return r.value;
}

export function checkLanguage(errors: FieldError[], name: string, value: string): void {
  if (!(LANGUAGE_SLOTS as readonly string[]).includes(value)) {
    errors.push({ name, message: `is one of ${LANGUAGE_SLOTS.join(', ')}` });
  }
}

export function checkCurrency(errors: FieldError[], name: string, value: string): void {
  if (!CURRENCY.test(value)) errors.push({ name, message: 'must be an ISO 4217 code such as EUR' });
}

export function checkWhole(
  errors: FieldError[],
  name: string,
  value: number,
  min: number,
  max: number,
): void {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    errors.push({ name, message: `must be a whole number from ${min} to ${max}` });
  }
}

export function checkCustomerGroup(errors: FieldError[], name: string, value: string | null): void {
  if (value !== null && !CODE.test(value)) {
    errors.push({ name, message: 'use 1 to 40 letters, digits, spaces or . _ / -' });
  }
}

export function checkDiscount(errors: FieldError[], name: string, bp: number): void {
  if (!Number.isInteger(bp) || bp < 0 || bp > 10_000) {
    errors.push({ name, message: 'must be a percentage from 0 to 100 with at most two decimals' });
  }
}

export function checkCredit(errors: FieldError[], name: string, minor: number): void {
  if (!Number.isSafeInteger(minor) || minor < 0 || minor > MAX_CREDIT_MINOR) {
    errors.push({ name, message: 'must be an amount of 0 or more with at most two decimals' });
  }
}

/** Representative codes are kept in upper case: "jdv" and "JDV" are one representative. */
export function normaliseRepresentative(code: string): string {
  return code.trim().toUpperCase();
}

export function checkRepresentativeCode(errors: FieldError[], name: string, code: string): void {
  if (!REPRESENTATIVE.test(code)) {
    errors.push({ name, message: 'use 1 to 20 letters, digits or . _ - (kept in upper case)' });
  }
}

export function checkExternalKey(errors: FieldError[], name: string, key: string | null): void {
  if (key !== null && !EXTERNAL_KEY.test(key)) {
    errors.push({ name, message: 'use 1 to 64 printable characters without spaces' });
  }
}

export function checkOptionalEmail(errors: FieldError[], name: string, value: string): string {
  if (value.trim() === '') return '';
  const r = checkEmail(value);
  if (!r.ok) {
    errors.push({ name, message: r.message });
    return value;
  }
  return r.value;
}

export function checkOptionalPhone(errors: FieldError[], name: string, value: string): string {
  if (value.trim() === '') return '';
  const r = checkPhone(value, null);
  if (!r.ok) {
    errors.push({ name, message: r.message });
    return value;
  }
  return r.value;
}
