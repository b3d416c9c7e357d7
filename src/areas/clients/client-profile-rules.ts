import { checkCountry, checkEmail, checkPhone, checkPostalCode } from '../../kernel/contact.ts';
import { type FieldError, ValidationError } from '../../kernel/errors.ts';
import type { ClientRow } from './client-repository.ts';
import { isValidDay, normaliseEmail } from './client-validation.ts';

/**
 * The rules of a client's profile that need no database: the checks of the input its schema
 * cannot state and the stored row it leads to (normalised and checked as a whole). The client
 * service reads and writes.
 */

export type ConsentKind = 'newsletter' | 'sms' | 'profiling';

export interface MemberCardInput {
  cardNo: string;
  level: string;
  validFrom: string;
  validTo: string;
}

/**
 * A client's data to create or change. Absent (undefined) fields keep their stored value; null
 * clears an optional one. Creating needs `email` and `lastName`.
 */
export interface ClientInput {
  clientNo?: number;
  email?: string;
  firstName?: string | null;
  middleName?: string | null;
  lastName?: string;
  phone?: string | null;
  address?: string | null;
  houseNumber?: string | null;
  postalCode?: string | null;
  city?: string | null;
  country?: string | null;
  birthDate?: string | null;
  /** A language slot: LANGUAGE_1 (default), LANGUAGE_11, LANGUAGE_2, LANGUAGE_3, LANGUAGE_4. */
  language?: string;
  /** true: given (stamped now unless already given), false: withdrawn. */
  consents?: Partial<Record<ConsentKind, boolean>>;
  homeShop?: string | null;
  /** Back office only: B2C_PostClient does not carry it. */
  memberCard?: MemberCardInput | null;
}

const CONSENT_COLUMNS = {
  newsletter: 'consent_newsletter_at',
  sms: 'consent_sms_at',
  profiling: 'consent_profiling_at',
} as const;

/**
 * The rules of a client's input that its schema cannot state, checked before a transaction is
 * opened: what a new client needs, a last name that is not blank, the e-mail address and country
 * (src/kernel/contact.ts), days that exist and their order. The shapes (types, lengths, patterns:
 * names without control characters, the home shop, card number and level) are the request
 * schema's (client-input.ts, schemas.ts). Fields are named by their pointers in the client record
 * (`/EMAIL`, `/MEMBERCARD/VALIDTO`).
 */
export function checkClientInput(input: ClientInput): void {
  const errors: FieldError[] = [];
  if (input.clientNo === undefined) {
    if (input.email === undefined) errors.push({ name: '/EMAIL', message: 'is required for a new client' });
    if (input.lastName === undefined)
      errors.push({ name: '/LASTNAME', message: 'is required for a new client' });
  }
  if (input.lastName !== undefined && input.lastName.trim() === '') {
    errors.push({ name: '/LASTNAME', message: 'is required' });
  }
  if (input.email !== undefined) {
    const email = checkEmail(input.email);
    if (!email.ok) errors.push({ name: '/EMAIL', message: email.message });
  }
  if (input.country != null && input.country.trim() !== '') {
    const country = checkCountry(input.country);
    if (!country.ok) errors.push({ name: '/COUNTRY', message: country.message });
  }
  if (input.birthDate != null && input.birthDate !== '') {
    if (!isValidDay(input.birthDate))
      errors.push({ name: '/BIRTHDATE', message: 'must be a date YYYY-MM-DD' });
    else if (input.birthDate < '1900-01-01') errors.push({ name: '/BIRTHDATE', message: 'is before 1900' });
  }
  const card = input.memberCard;
  if (card) {
    if (!isValidDay(card.validFrom))
      errors.push({ name: '/MEMBERCARD/VALIDFROM', message: 'must be a date YYYY-MM-DD' });
    if (!isValidDay(card.validTo))
      errors.push({ name: '/MEMBERCARD/VALIDTO', message: 'must be a date YYYY-MM-DD' });
    else if (card.validTo < card.validFrom)
      errors.push({ name: '/MEMBERCARD/VALIDTO', message: 'is before VALIDFROM' });
  }
  if (errors.length > 0) throw new ValidationError(errors);
}

const clean = (value: string | null | undefined): string | null => {
  if (value == null) return null;
  const trimmed = value.trim().replace(/\s+/g, ' ');
  return trimmed === '' ? null : trimmed;
};

/**
 * The stored row with the input applied, normalised (e-mail trimmed, phone E.164, postal code in
 * its country's form) and checked as a whole: a changed country re-checks the stored postal code.
 */
export function mergeClient(
  stored: ClientRow | undefined,
  input: ClientInput,
  clientNo: number,
  at: string,
  scn: number,
): ClientRow {
  const pick = <K extends keyof ClientInput, C extends keyof ClientRow>(
    key: K,
    column: C,
  ): ClientRow[C] | string | null =>
    input[key] === undefined ? (stored?.[column] ?? null) : clean(input[key] as string | null);

  const country =
    input.country === undefined ? (stored?.country ?? null) : (clean(input.country)?.toUpperCase() ?? null);
  const email = input.email === undefined ? (stored?.email ?? null) : input.email.trim();
  const errors: FieldError[] = [];

  let phone = pick('phone', 'phone') as string | null;
  if (phone !== null && (input.phone !== undefined || input.country !== undefined)) {
    const checked = checkPhone(phone, country);
    if (checked.ok) phone = checked.value;
    else errors.push({ name: '/PHONE', message: checked.message });
  }
  let postalCode = pick('postalCode', 'postal_code') as string | null;
  if (postalCode !== null && (input.postalCode !== undefined || input.country !== undefined)) {
    const checked = checkPostalCode(postalCode, country);
    if (checked.ok) postalCode = checked.value;
    else errors.push({ name: '/POSTALCODE', message: checked.message });
  }
  if (errors.length > 0) throw new ValidationError(errors);

  const consentAt = (kind: ConsentKind): string | null => {
    const column = CONSENT_COLUMNS[kind];
    const given = input.consents?.[kind];
    if (given === undefined) return stored?.[column] ?? null;
    return given ? (stored?.[column] ?? at) : null;
  };
  const card = input.memberCard === undefined ? undefined : input.memberCard;

  return {
    client_no: clientNo,
    email,
    email_norm: email === null ? null : normaliseEmail(email),
    first_name: pick('firstName', 'first_name') as string | null,
    middle_name: pick('middleName', 'middle_name') as string | null,
    last_name: pick('lastName', 'last_name') as string | null,
    phone,
    address: pick('address', 'address') as string | null,
    house_number: pick('houseNumber', 'house_number') as string | null,
    postal_code: postalCode,
    city: pick('city', 'city') as string | null,
    country,
    birth_date: input.birthDate === undefined ? (stored?.birth_date ?? null) : clean(input.birthDate),
    language: input.language ?? stored?.language ?? 'LANGUAGE_1',
    consent_newsletter_at: consentAt('newsletter'),
    consent_sms_at: consentAt('sms'),
    consent_profiling_at: consentAt('profiling'),
    card_no: card === undefined ? (stored?.card_no ?? null) : (card?.cardNo ?? null),
    card_level: card === undefined ? (stored?.card_level ?? null) : (card?.level ?? null),
    card_valid_from: card === undefined ? (stored?.card_valid_from ?? null) : (card?.validFrom ?? null),
    card_valid_to: card === undefined ? (stored?.card_valid_to ?? null) : (card?.validTo ?? null),
    home_shop: input.homeShop === undefined ? (stored?.home_shop ?? null) : clean(input.homeShop),
    marked_for_deletion: stored?.marked_for_deletion ?? 0,
    marked_at: stored?.marked_at ?? null,
    anonymised: 0,
    anonymised_at: null,
    scn,
    created_at: stored?.created_at ?? at,
    updated_at: at,
  };
}

const COMPARED: Array<keyof ClientRow> = [
  'email',
  'first_name',
  'middle_name',
  'last_name',
  'phone',
  'address',
  'house_number',
  'postal_code',
  'city',
  'country',
  'birth_date',
  'language',
  'consent_newsletter_at',
  'consent_sms_at',
  'consent_profiling_at',
  'card_no',
  'card_level',
  'card_valid_from',
  'card_valid_to',
  'home_shop',
];

export function sameClient(stored: ClientRow, wanted: ClientRow): boolean {
  return COMPARED.every((k) => stored[k] === wanted[k]);
}
