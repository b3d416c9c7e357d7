import { type FieldError, type NotFoundError, ValidationError } from '../../kernel/errors.ts';
import { STOCK_ERRORS } from './errors.ts';
import type { LevelKey, LocationRow } from './stock-repository.ts';
import type { LocationKind } from './tables.ts';

/**
 * The stock area's rules that need no database (docs/stock.md): the checks of locations and
 * corrections that the written forms' schemas do not state (stock-input.ts states the shape of
 * every field), and the mapping of stored rows to what the services answer. A refusal names the
 * field by its pointer in the written form (`/LOCATION`, `/SETTO`).
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
  /** A whole number from 1 to 1,000,000 (MovementBody; assertQuantity guards the ledger). */
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

/** The most a movement moves, and the most a level holds: the limits of the written forms. */
export const MAX_MOVEMENT_QUANTITY = 1_000_000;
export const MAX_LEVEL_QUANTITY = 100_000_000;
export interface CorrectionInput extends LevelKey {
  /** The counted on-hand quantity (give this or `delta`). */
  setTo?: number;
  /** The change of on hand, not 0 (give this or `setTo`). */
  delta?: number;
  reference?: string;
}

const LOCATION_CODE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,19}$/;

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

/**
 * The ledger's guard: a movement moves a whole number, at least `min`. The written forms state the
 * range for a client (stock-input.ts); this catches a caller's bug (a 500) before it could take
 * stock below zero or store a fraction.
 */
export function assertQuantity(quantity: number, min = 1): void {
  if (!Number.isSafeInteger(quantity) || quantity < min) {
    throw new RangeError(`a stock quantity is a whole number of at least ${min}, not ${quantity}`);
  }
}

export function toLevel(
  key: LevelKey,
  row: { on_hand: number; reserved: number; scn: number } | undefined,
): StockLevel {
  const onHand = Number(row?.on_hand ?? 0);
  const reserved = Number(row?.reserved ?? 0);
  return { ...keyOf(key), onHand, reserved, available: onHand - reserved, scn: Number(row?.scn ?? 0) };
}

/** A correction gives the counted quantity or the change, not both, not neither. */
export function checkCorrection(input: CorrectionInput): void {
  if ((input.setTo === undefined) === (input.delta === undefined)) {
    throw new ValidationError([{ name: '/SETTO', message: 'give either SETTO or DELTA' }]);
  }
}

/**
 * A new location's code: its letters, digits and . _ - are checked when the location is saved
 * (the schema states only its length), so a bad code is refused as the record is written.
 */
export function checkLocationCode(code: string): FieldError[] {
  return LOCATION_CODE.test(code)
    ? []
    : [{ name: '/LOCATION', message: 'use 1 to 20 letters, digits or . _ -' }];
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
