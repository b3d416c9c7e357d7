import { type Static, Type } from 'typebox';
import { NotFoundError } from '../../kernel/errors.ts';
import { readOnlyKeys } from '../../kernel/read-only-keys.ts';
import type { LocationService } from './location-service.ts';
import {
  type Location,
  type LocationInput,
  MAX_LEVEL_QUANTITY,
  MAX_MOVEMENT_QUANTITY,
} from './stock-rules.ts';
import type { LevelInput } from './stock-take-service.ts';

/**
 * The written forms of stock records: admin bodies and `tv2 import locations|stock` records, in the
 * upper-case style of the TV2 answers. Their schemas state every check of a field's shape; the
 * services check what needs the database or several fields, naming the field by its pointer in
 * these forms (`/SIZEX`, `/3/ARTICLE`).
 */
const Flag = Type.Union([Type.Boolean(), Type.Literal(0), Type.Literal(1)]);
const OptionalText = (max: number) =>
  Type.Optional(Type.Union([Type.String({ maxLength: max }), Type.Null()]));

export const LocationBody = Type.Object(
  {
    LOCATION: Type.String({ minLength: 1, maxLength: 20, description: 'Location code.' }),
    NAME: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: 'Not blank.' }),
    KIND: Type.Union([Type.Literal('SHOP'), Type.Literal('WAREHOUSE')]),
    WHOLESALE: Flag,
    RETAIL: Flag,
    ACTIVE: Type.Optional(Flag),
    ADDRESS: OptionalText(100),
    HOUSENUMBER: OptionalText(20),
    POSTALCODE: OptionalText(20),
    CITY: OptionalText(60),
    COUNTRY: Type.Optional(
      Type.Union([
        Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2 in capitals, e.g. NL.' }),
        Type.Null(),
      ]),
    ),
    ...readOnlyKeys(['SCN']),
  },
  { additionalProperties: false, description: 'Read-only keys of an answer (SCN) are ignored.' },
);
export type LocationBody = Static<typeof LocationBody>;

export const LevelBody = Type.Object(
  {
    LOCATION: Type.String({ minLength: 1 }),
    ARTICLE: Type.String({ minLength: 1 }),
    SIZEX: Type.String({ minLength: 1 }),
    ONHAND: Type.Union([
      Type.Integer({ minimum: 0, maximum: MAX_LEVEL_QUANTITY }),
      // Digits spelling 0 to 100,000,000 (MAX_LEVEL_QUANTITY), so a CSV value is bounded by the
      // schema alone, also where it is checked without the HTTP layer's x-digits-max (the import).
      Type.String({ pattern: '^0*(?:[0-9]{1,8}|100000000)$', maxLength: 16 }),
    ]),
  },
  { additionalProperties: false },
);
export type LevelBody = Static<typeof LevelBody>;

export const MovementBody = Type.Object(
  {
    TYPE: Type.Union([Type.Literal('RECEIPT'), Type.Literal('CORRECTION'), Type.Literal('TRANSFER')]),
    LOCATION: Type.String({ minLength: 1, description: 'Where (for a transfer: from where).' }),
    TOLOCATION: Type.Optional(
      Type.String({ minLength: 1, description: 'Required for a TRANSFER: to where.' }),
    ),
    ARTICLE: Type.String({ minLength: 1 }),
    SIZEX: Type.String({ minLength: 1 }),
    QUANTITY: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_MOVEMENT_QUANTITY,
        description: 'Required for a RECEIPT and a TRANSFER.',
      }),
    ),
    SETTO: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_LEVEL_QUANTITY,
        description: 'Correction: the counted on-hand quantity; give either SETTO or DELTA.',
      }),
    ),
    DELTA: Type.Optional(
      Type.Integer({
        minimum: -MAX_MOVEMENT_QUANTITY,
        maximum: MAX_MOVEMENT_QUANTITY,
        not: { const: 0 },
        description: 'Correction: the change of on hand, not 0 (instead of SETTO).',
      }),
    ),
    REASON: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Why: delivery note, count, order number.',
    }),
  },
  {
    additionalProperties: false,
    // What each TYPE needs is checked by the handler and checkCorrection and named in the fields'
    // descriptions, not stated with if/then: Ajv would add a second, unnamed error ("/") to each.
  },
);
export type MovementBody = Static<typeof MovementBody>;

const flag = (v: boolean | 0 | 1 | undefined, fallback: boolean) => (v === undefined ? fallback : Boolean(v));

export function locationInput(body: LocationBody): LocationInput {
  return {
    code: body.LOCATION,
    name: body.NAME,
    kind: body.KIND,
    servesWholesale: flag(body.WHOLESALE, false),
    servesRetail: flag(body.RETAIL, false),
    active: flag(body.ACTIVE, true),
    address: body.ADDRESS ?? null,
    houseNumber: body.HOUSENUMBER ?? null,
    postalCode: body.POSTALCODE ?? null,
    city: body.CITY ?? null,
    country: body.COUNTRY ?? null,
  };
}

export function levelInput(body: LevelBody): LevelInput {
  return {
    locationCode: body.LOCATION,
    articleNo: body.ARTICLE,
    sizex: body.SIZEX,
    onHand: Number(body.ONHAND),
  };
}

export function locationToBody(l: Location) {
  return {
    LOCATION: l.code,
    NAME: l.name,
    KIND: l.kind,
    WHOLESALE: l.servesWholesale,
    RETAIL: l.servesRetail,
    ACTIVE: l.active,
    ADDRESS: l.address,
    HOUSENUMBER: l.houseNumber,
    POSTALCODE: l.postalCode,
    CITY: l.city,
    COUNTRY: l.country,
    SCN: l.scn,
  };
}

const SAME_FIELDS = [
  'name',
  'kind',
  'servesWholesale',
  'servesRetail',
  'active',
  'address',
  'houseNumber',
  'postalCode',
  'city',
  'country',
] as const;

/** Creates a location or changes it to the given form; an unchanged location is left alone. */
export async function saveLocation(
  locations: LocationService,
  input: LocationInput,
): Promise<{ location: Location; written: boolean }> {
  let existing: Location | undefined;
  try {
    existing = await locations.location(input.code);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
  }
  if (!existing) return { location: await locations.createLocation(input), written: true };
  const wanted = { ...input, active: input.active ?? true };
  if (SAME_FIELDS.every((f) => (existing[f] ?? null) === (wanted[f] ?? null)))
    return { location: existing, written: false };
  const { code: _code, ...changes } = wanted;
  return { location: await locations.changeLocation(input.code, changes), written: true };
}

/** CSV rows keep their text; flags accept 1/0, true/false, yes/no. */
export function locationRecordFromCsv(row: Record<string, string>): Record<string, unknown> {
  const record: Record<string, unknown> = { ...row };
  for (const f of ['WHOLESALE', 'RETAIL', 'ACTIVE']) {
    if (f in row) record[f] = /^(1|true|yes|y)$/i.test(row[f] ?? '');
  }
  for (const f of ['ADDRESS', 'HOUSENUMBER', 'POSTALCODE', 'CITY', 'COUNTRY'])
    if (row[f] === '') record[f] = null;
  return record;
}
