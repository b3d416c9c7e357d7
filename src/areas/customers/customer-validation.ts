import { checkCountry, checkEmail, checkPhone, checkPostalCode } from '../../kernel/contact.ts';
import type { FieldError } from '../../kernel/errors.ts';
import { CURRENCY } from '../../kernel/money.ts';
import { MAX_CUSTOMER_NO } from './customer-common.ts';
import { checkVatNumber } from './vat.ts';

/**
 * Field rules of the customers area that the request schemas (customer-input.ts) cannot state: VAT
 * numbers, addresses against their country, amounts parsed to minor units, contact data (the
 * kernel's contact.ts). Each `check...` pushes errors named by the JSON pointer of the field in the
 * record it was given (`/VATNO`, `/DELIVERY ADDRESSES/2/POSTALCODE`); a caller that received the
 * record under a root puts them there (withRoot).
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
export const MAX_CREDIT_MINOR = 9_999_999_999_99;

const trim = (v: string | undefined) => (v ?? '').trim();

/**
 * An address, checked and normalised; `at` is the JSON pointer of the address in the record, with
 * a closing slash (`/DELIVERY ADDRESSES/0/`, `/` for an address that is the record). Lengths are
 * the schema's (customer-input.ts); `CITY` stays required here, so that it is named in the same
 * answer as the rules a schema cannot state (country, street or post box, postal code).
 */
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
    errors.push({ name: `${at}COUNTRYPOST`, message: out.country === '' ? 'is required' : country.message });
  if (out.city === '') errors.push({ name: `${at}CITY`, message: 'is required' });
  if (out.address === '' && out.post_box === '') {
    errors.push({ name: `${at}ADDRESS`, message: 'give a street (ADDRESS) or a post box (POSTBOX)' });
  }
  if (out.postal_code !== '') {
    const postal = checkPostalCode(out.postal_code, country.ok ? country.value : null);
    if (postal.ok) out.postal_code = postal.value;
    else errors.push({ name: `${at}POSTALCODE`, message: postal.message });
  } else if (POSTAL_CODE_REQUIRED.has(out.country)) {
    errors.push({ name: `${at}POSTALCODE`, message: `is required in ${out.country}` });
  }
  return out;
}

export function sameAddress(a: AddressFields, b: AddressFields): boolean {
  return ADDRESS_KEYS.every((k) => a[k] === b[k]);
}

export function checkVat(errors: FieldError[], name: string, value: string): string {
  const r = checkVatNumber(value);
  if (!r.ok) {
    errors.push({ name, message: r.message });
    return value;
  }
  return r.value;
}

/**
 * A currency code. A shape rule kept here rather than in the schema: a bad currency is named in the
 * same answer as a bad VAT number, postal code or amount (docs/customers.md, "Validation").
 */
export function checkCurrency(errors: FieldError[], name: string, value: string): void {
  if (!CURRENCY.test(value)) errors.push({ name, message: 'must be an ISO 4217 code such as EUR' });
}

/**
 * A customer number, 1 to 2147483647. The HTTP schemas bound it too, but an imported record's check
 * (checkRecord) does not read their `x-digits-max`, so the bound is kept here.
 */
export function checkCustomerNo(errors: FieldError[], name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_CUSTOMER_NO) {
    errors.push({ name, message: `must be a whole number from 1 to ${MAX_CUSTOMER_NO}` });
  }
}

/** A percentage in basis points, parsed from the written decimal by the input mapper (NaN: malformed). */
export function checkDiscount(errors: FieldError[], name: string, bp: number): void {
  if (!Number.isInteger(bp) || bp < 0 || bp > 10_000) {
    errors.push({ name, message: 'must be a percentage from 0 to 100 with at most two decimals' });
  }
}

/** An amount in minor units, parsed from the written decimal by the input mapper (NaN: malformed). */
export function checkCredit(errors: FieldError[], name: string, minor: number): void {
  if (!Number.isSafeInteger(minor) || minor < 0 || minor > MAX_CREDIT_MINOR) {
    errors.push({ name, message: 'must be an amount of 0 or more with at most two decimals' });
  }
}

/** Representative codes are kept in upper case: "jdv" and "JDV" are one representative. */
export function normaliseRepresentative(code: string): string {
  return code.trim().toUpperCase();
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
