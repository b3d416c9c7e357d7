import { type FieldError, type NotFoundError, ValidationError } from '../../kernel/errors.ts';
import { STOCK_ERRORS } from './errors.ts';
import type { LevelKey, LocationRow } from './stock-repository.ts';
import type { LocationKind } from './tables.ts';

/**
 * The stock area's rules that need no database (docs/stock.md): the checks of locations, movement
 * lines and corrections, and the mapping of stored rows to what the services answer.
 */

export interface LocationAddress {
  address?: string | null;
  houseNumber?: string | null;
  postalCode?: string | null;
  city?: string | null;
  /** ISO 3166-1 alpha-2, e.g. NL. */
  country?: string | null;
}

export interface LocationInput extends LocationAddress {
  code: string;
  name: string;
  kind: LocationKind;
  servesWholesale: boolean;
  servesRetail: boolean;
  /** Default true. An inactive location keeps its stock but nobody sees it or reserves from it. */
  active?: boolean;
}

export type LocationChanges = Partial<Omit<LocationInput, 'code'>>;

export interface Location {
  code: string;
  name: string;
  kind: LocationKind;
  servesWholesale: boolean;
  servesRetail: boolean;
  active: boolean;
  address: string | null;
  houseNumber: string | null;
  postalCode: string | null;
  city: string | null;
  country: string | null;
  scn: number;
}

/** One quantity of one size of one article at one location. */
export interface StockLine extends LevelKey {
  /** A whole number from 1 to 1,000,000. */
  quantity: number;
  /** What caused it (order number, delivery note, ...), up to 100 characters; kept in the ledger. */
  reference?: string;
}

export interface StockLevel extends LevelKey {
  onHand: number;
  reserved: number;
  available: number;
  scn: number;
}

export const MAX_MOVEMENT_QUANTITY = 1_000_000;
export const MAX_LEVEL_QUANTITY = 100_000_000;
const MAX_REFERENCE = 100;
export interface CorrectionInput extends LevelKey {
  /** The counted on-hand quantity (give this or `delta`). */
  setTo?: number;
  /** The change of on hand, not 0 (give this or `setTo`). */
  delta?: number;
  reference?: string;
}

const LOCATION_CODE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,19}$/;
const COUNTRY = /^[A-Z]{2}$/;
const KINDS: readonly LocationKind[] = ['SHOP', 'WAREHOUSE'];

export function flag(value: boolean): number {
  return value ? 1 : 0;
}

export function keyOf(key: LevelKey): LevelKey {
  return { articleNo: key.articleNo, sizex: key.sizex, locationCode: key.locationCode };
}

export function describe(key: LevelKey): string {
  return `article ${key.articleNo} size ${key.sizex} at ${key.locationCode}`;
}

export function locationNotFound(code: string): NotFoundError {
  return STOCK_ERRORS.LOCATION_NOT_FOUND(`No location "${code}".`);
}

export function prefixed(prefix: string, errors: FieldError[]): FieldError[] {
  return errors.map((e) => ({ name: `${prefix}/${e.name}`, message: e.message }));
}

export function checkQuantity(name: string, value: number, max: number, min = 1): FieldError[] {
  return Number.isSafeInteger(value) && value >= min && value <= max
    ? []
    : [{ name, message: `must be a whole number from ${min} to ${max}` }];
}

export function checkReference(reference: string | undefined): FieldError[] {
  return reference === undefined || (reference.length > 0 && reference.length <= MAX_REFERENCE)
    ? []
    : [{ name: 'reference', message: `1 to ${MAX_REFERENCE} characters` }];
}

export function checkKey(key: LevelKey): FieldError[] {
  const errors: FieldError[] = [];
  if (typeof key.locationCode !== 'string' || key.locationCode === '') {
    errors.push({ name: 'locationCode', message: 'required' });
  }
  if (typeof key.articleNo !== 'string' || key.articleNo === '') {
    errors.push({ name: 'articleNo', message: 'required' });
  }
  if (typeof key.sizex !== 'string' || key.sizex === '') errors.push({ name: 'sizex', message: 'required' });
  return errors;
}

export function checkLineFields(line: StockLine): FieldError[] {
  return [
    ...checkQuantity('quantity', line.quantity, MAX_MOVEMENT_QUANTITY),
    ...checkReference(line.reference),
  ];
}

export function checkLine(line: StockLine): void {
  const errors = [...checkKey(line), ...checkLineFields(line)];
  if (errors.length > 0) throw new ValidationError(errors);
}

export function toLevel(
  key: LevelKey,
  row: { on_hand: number; reserved: number; scn: number } | undefined,
): StockLevel {
  const onHand = Number(row?.on_hand ?? 0);
  const reserved = Number(row?.reserved ?? 0);
  return { ...keyOf(key), onHand, reserved, available: onHand - reserved, scn: Number(row?.scn ?? 0) };
}

export function checkCorrection(input: CorrectionInput): void {
  const errors = [...checkKey(input), ...checkReference(input.reference)];
  if ((input.setTo === undefined) === (input.delta === undefined)) {
    errors.push({ name: 'setTo', message: 'give either setTo or delta' });
  } else if (input.setTo !== undefined) {
    errors.push(...checkQuantity('setTo', input.setTo, MAX_LEVEL_QUANTITY, 0));
  } else if (
    input.delta === undefined ||
    !Number.isSafeInteger(input.delta) ||
    input.delta === 0 ||
    Math.abs(input.delta) > MAX_MOVEMENT_QUANTITY
  ) {
    errors.push({
      name: 'delta',
      message: `a whole number, not 0, from -${MAX_MOVEMENT_QUANTITY} to ${MAX_MOVEMENT_QUANTITY}`,
    });
  }
  if (errors.length > 0) throw new ValidationError(errors);
}

export function checkLocation(input: LocationChanges & { code?: string }, creating: boolean): FieldError[] {
  const errors: FieldError[] = [];
  if (creating && (input.code === undefined || !LOCATION_CODE.test(input.code))) {
    errors.push({ name: 'code', message: 'use 1 to 20 letters, digits or . _ -' });
  }
  if (creating || input.name !== undefined) {
    const name = input.name?.trim() ?? '';
    if (name.length < 1 || name.length > 100) errors.push({ name: 'name', message: '1 to 100 characters' });
  }
  if ((creating || input.kind !== undefined) && !KINDS.includes(input.kind as LocationKind)) {
    errors.push({ name: 'kind', message: 'SHOP or WAREHOUSE' });
  }
  for (const field of ['servesWholesale', 'servesRetail', 'active'] as const) {
    const value = input[field];
    const required = creating && field !== 'active';
    if ((required || value !== undefined) && typeof value !== 'boolean') {
      errors.push({ name: field, message: 'true or false' });
    }
  }
  for (const field of ['address', 'houseNumber', 'postalCode', 'city'] as const) {
    const value = input[field];
    if (value !== undefined && value !== null && (typeof value !== 'string' || value.length > 100)) {
      errors.push({ name: field, message: 'at most 100 characters, or null' });
    }
  }
  if (input.country !== undefined && input.country !== null && !COUNTRY.test(input.country)) {
    errors.push({ name: 'country', message: 'an ISO 3166-1 alpha-2 code in capitals, e.g. NL' });
  }
  return errors;
}

export function toLocation(row: LocationRow): Location {
  return {
    code: row.code,
    name: row.name,
    kind: row.kind,
    servesWholesale: row.serves_wholesale === 1,
    servesRetail: row.serves_retail === 1,
    active: row.active === 1,
    address: row.address,
    houseNumber: row.house_number,
    postalCode: row.postal_code,
    city: row.city,
    country: row.country,
    scn: Number(row.scn),
  };
}
