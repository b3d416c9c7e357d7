import { type Static, Type } from 'typebox';
import { ValidationError } from '../../kernel/errors.ts';
import { MAX_INT32, MIN_INT32 } from '../../kernel/int-limits.ts';
import { LANGUAGE_SLOTS, type LanguageText } from '../../kernel/language.ts';
import { readOnlyKeys } from '../../kernel/read-only-keys.ts';
import { type CompanyPattern, MAX_PATTERN_LENGTH, PATTERN_NAME } from './company-regex.ts';
import { MAX_EXCEPTIONS, MAX_INTERVALS_PER_DAY } from './opening-hours.ts';
import {
  type HomePageBlockInput,
  MAX_BLOCK_NO,
  PAGE_CODE,
  type PickupPointInput,
  POINT_CODE,
  type ShopDetailInput,
} from './shop-rules.ts';
import { type AssistantInput, MAX_ASSISTANT_NO, MAX_IMAGE_NO } from './shop-service.ts';

/** The range of an integer column; the service checks the narrower business range. */
const INT32 = { minimum: MIN_INT32, maximum: MAX_INT32 };

/**
 * The written forms of the shops area: admin bodies and `tv2 import shops` records, in the
 * upper-case style of the answers, so a record read through the API can be written back as it is
 * (read-only keys such as NAME and ADDRESS of a shop, SCN, SERVER, DISTANCE are ignored). The
 * schemas state every check of a field's shape (the HTTP layer and the import check them); the
 * rules (shop-rules.ts, opening-hours.ts) check what needs the database or more than one field,
 * contact details, positions, time zones and calendar days, and the fields the back office reports
 * together with those (a block's POSITION, IMAGE and LINK).
 */
const Text = Type.Object(
  Object.fromEntries(
    LANGUAGE_SLOTS.map((slot) => [slot, Type.Optional(Type.String({ maxLength: 2000 }))]),
  ) as Record<
    (typeof LANGUAGE_SLOTS)[number],
    ReturnType<typeof Type.Optional<ReturnType<typeof Type.String>>>
  >,
  { additionalProperties: false, description: 'Text per language slot; missing slots stay empty.' },
);
const Flag = Type.Union([Type.Boolean(), Type.Literal(0), Type.Literal(1)]);
const OptionalText = (max: number) =>
  Type.Optional(Type.Union([Type.String({ maxLength: max }), Type.Null()]));
const Degrees = (description: string) =>
  Type.Union([Type.Number(), Type.String({ maxLength: 20 })], {
    description: `${description}: decimal degrees with at most six decimals, as a number or a string.`,
  });
/** Not empty and not only spaces (names are stored trimmed). */
const NOT_BLANK = '\\S';
const TIME = '(?:[01][0-9]|2[0-3]):[0-5][0-9]';
const Hours = Type.Array(
  Type.Object(
    {
      OPENS: Type.String({ pattern: `^${TIME}$`, description: 'HH:MM' }),
      CLOSES: Type.String({
        pattern: `^(?:${TIME}|24:00)$`,
        description: 'HH:MM after OPENS; 24:00 for midnight.',
      }),
    },
    { additionalProperties: false },
  ),
  { maxItems: MAX_INTERVALS_PER_DAY, description: 'Intervals of the day; none: closed.' },
);

export const ShopBody = Type.Object(
  {
    LOCATION: Type.String({
      minLength: 1,
      maxLength: 20,
      description: 'Code of a stock location of kind SHOP.',
    }),
    PHONE: OptionalText(40),
    EMAIL: OptionalText(254),
    LATITUDE: Type.Optional(Type.Union([Degrees('Latitude'), Type.Null()])),
    LONGITUDE: Type.Optional(Type.Union([Degrees('Longitude'), Type.Null()])),
    PICKUP: Type.Optional(Flag),
    TIMEZONE: OptionalText(60),
    DESCRIPTION: Type.Optional(Text),
    OPENINGHOURS: Type.Optional(
      Type.Array(
        Type.Object(
          {
            WEEKDAY: Type.Integer({ minimum: 1, maximum: 7, description: '1 Monday .. 7 Sunday.' }),
            HOURS: Hours,
          },
          { additionalProperties: false },
        ),
        { maxItems: 7 },
      ),
    ),
    EXCEPTIONS: Type.Optional(
      Type.Array(
        Type.Object(
          {
            // The shape only: a day that does not exist is named by the service with the other
            // fields of the shop, all at once (opening-hours.ts).
            DATE: Type.String({
              pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
              description: 'A calendar date, YYYY-MM-DD.',
            }),
            HOURS: Hours,
            DESCRIPTION: Type.Optional(Text),
          },
          { additionalProperties: false },
        ),
        { maxItems: MAX_EXCEPTIONS },
      ),
    ),
    ...readOnlyKeys(
      ['NAME', 'ADDRESS', 'HOUSENUMBER', 'POSTALCODE', 'CITY', 'COUNTRY'],
      "read-only here: ignored (the stock location's, set with PUT /TV2/Admin/locations/{location})",
    ),
    ...readOnlyKeys(['SCN']),
  },
  {
    additionalProperties: false,
    description:
      'The form of a B2C_GetAllShops record; its location keys (NAME, address) and SCN are ignored; any other unknown key is a 400.',
  },
);
export type ShopBody = Static<typeof ShopBody>;

export const AssistantBody = Type.Object(
  {
    LOCATION: Type.String({ minLength: 1, maxLength: 20 }),
    ASSISTANT: Type.Integer({
      minimum: 1,
      maximum: MAX_ASSISTANT_NO,
      description: 'Number of the assistant within the shop, 1 to 9999.',
    }),
    NAME: Type.String({ minLength: 1, maxLength: 100, pattern: NOT_BLANK }),
    ROLE: Type.Optional(Text),
    PHOTOIMAGENO: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: MAX_IMAGE_NO }), Type.Null()], {
        description: 'A shop image.',
      }),
    ),
    ACTIVE: Type.Optional(Flag),
    ...readOnlyKeys(['SCN']),
  },
  { additionalProperties: false, description: 'Read-only keys of an answer (SCN) are ignored.' },
);
export type AssistantBody = Static<typeof AssistantBody>;

export const PickupPointBody = Type.Object(
  {
    LOCATION: Type.String({
      pattern: POINT_CODE.source,
      description: 'Code of the pickup point: 1 to 20 letters, digits or . _ -',
    }),
    NAME: Type.String({ minLength: 1, maxLength: 100, pattern: NOT_BLANK }),
    ADDRESS: OptionalText(100),
    HOUSENUMBER: OptionalText(20),
    POSTALCODE: OptionalText(20),
    CITY: OptionalText(60),
    COUNTRY: OptionalText(2),
    LATITUDE: Degrees('Latitude'),
    LONGITUDE: Degrees('Longitude'),
    DESCRIPTION: Type.Optional(Text),
    ACTIVE: Type.Optional(Flag),
    ...readOnlyKeys(['TYPE', 'DISTANCE', 'SCN']),
  },
  {
    additionalProperties: false,
    description: 'Read-only keys of an answer (TYPE, DISTANCE, SCN) are ignored.',
  },
);
export type PickupPointBody = Static<typeof PickupPointBody>;

export const HomePageBlockBody = Type.Object(
  {
    PAGE: Type.String({ pattern: PAGE_CODE.source, description: '1 to 20 capitals, digits, _ or -' }),
    BLOCK: Type.Integer({ minimum: 1, maximum: MAX_BLOCK_NO }),
    POSITION: Type.Integer({ ...INT32, description: 'Order on the page, 0 to 9999.' }),
    TITLE: Type.Optional(Text),
    TEXT: Type.Optional(Text),
    IMAGE: OptionalText(500),
    LINK: OptionalText(500),
    VALIDFROM: OptionalText(20),
    VALIDTO: OptionalText(20),
    ACTIVE: Type.Optional(Flag),
    ...readOnlyKeys(['SCN']),
  },
  { additionalProperties: false, description: 'Read-only keys of an answer (SCN) are ignored.' },
);
export type HomePageBlockBody = Static<typeof HomePageBlockBody>;

export const RegexBody = Type.Object(
  {
    NAME: Type.String({
      pattern: PATTERN_NAME.source,
      description: '1 to 40 capitals, digits or _, starting with a capital',
    }),
    COUNTRY: Type.Optional(
      Type.Union([
        Type.String({ pattern: '^(?:[A-Z]{2})?$', description: 'ISO 3166-1 alpha-2' }),
        Type.Null(),
      ]),
    ),
    PATTERN: Type.String({ minLength: 1, maxLength: MAX_PATTERN_LENGTH }),
    DESCRIPTION: Type.Optional(Text),
    ...readOnlyKeys(['SERVER', 'SCN']),
  },
  { additionalProperties: false, description: 'Read-only keys of an answer (SERVER, SCN) are ignored.' },
);
export type RegexBody = Static<typeof RegexBody>;

function text(value: LanguageText | undefined): LanguageText {
  const out: LanguageText = {};
  for (const slot of LANGUAGE_SLOTS) if (value?.[slot]) out[slot] = value[slot];
  return out;
}

const flag = (value: boolean | 0 | 1 | undefined, fallback: boolean) =>
  value === undefined ? fallback : Boolean(value);
const hours = (h: Array<{ OPENS: string; CLOSES: string }>) =>
  h.map((i) => ({ opens: i.OPENS, closes: i.CLOSES }));

export function shopInput(body: ShopBody): ShopDetailInput {
  return {
    locationCode: body.LOCATION,
    phone: body.PHONE ?? null,
    email: body.EMAIL ?? null,
    latitude: body.LATITUDE ?? null,
    longitude: body.LONGITUDE ?? null,
    pickup: flag(body.PICKUP, false),
    timeZone: body.TIMEZONE ?? null,
    description: text(body.DESCRIPTION),
    openingHours: (body.OPENINGHOURS ?? []).map((d) => ({ weekday: d.WEEKDAY, hours: hours(d.HOURS) })),
    exceptions: (body.EXCEPTIONS ?? []).map((e) => ({
      date: e.DATE,
      hours: hours(e.HOURS),
      description: text(e.DESCRIPTION),
    })),
  };
}

export function assistantInput(body: AssistantBody): AssistantInput {
  return {
    locationCode: body.LOCATION,
    assistantNo: body.ASSISTANT,
    name: body.NAME,
    role: text(body.ROLE),
    photoImageNo: body.PHOTOIMAGENO ?? null,
    active: flag(body.ACTIVE, true),
  };
}

export function pickupPointInput(body: PickupPointBody): PickupPointInput {
  return {
    code: body.LOCATION,
    name: body.NAME,
    address: body.ADDRESS ?? null,
    houseNumber: body.HOUSENUMBER ?? null,
    postalCode: body.POSTALCODE ?? null,
    city: body.CITY ?? null,
    country: body.COUNTRY ?? null,
    latitude: body.LATITUDE,
    longitude: body.LONGITUDE,
    description: text(body.DESCRIPTION),
    active: flag(body.ACTIVE, true),
  };
}

export function homePageBlockInput(body: HomePageBlockBody): HomePageBlockInput {
  return {
    page: body.PAGE,
    blockNo: body.BLOCK,
    position: body.POSITION,
    title: text(body.TITLE),
    text: text(body.TEXT),
    image: body.IMAGE ?? null,
    link: body.LINK ?? null,
    validFrom: body.VALIDFROM ?? null,
    validTo: body.VALIDTO ?? null,
    active: flag(body.ACTIVE, true),
  };
}

export function regexInput(body: RegexBody): CompanyPattern {
  return {
    name: body.NAME,
    country: body.COUNTRY === undefined || body.COUNTRY === null || body.COUNTRY === '' ? null : body.COUNTRY,
    pattern: body.PATTERN,
    description: text(body.DESCRIPTION),
  };
}

const INTERVAL = /^(\d{2}:\d{2})-(\d{2}:\d{2})$/;

/**
 * A CSV row of `tv2 import shops` in the JSON form: LOCATION, PHONE, EMAIL, LATITUDE, LONGITUDE,
 * PICKUP (1/0, yes/no), TIMEZONE, HOURS_1 .. HOURS_7 ("09:00-12:30 13:30-18:00"; empty: closed) and
 * DESCRIPTION_LANGUAGE_1 etc. Exceptions are JSON only.
 */
export function shopRecordFromCsv(row: Record<string, string>): Record<string, unknown> {
  const record: Record<string, unknown> = { LOCATION: row.LOCATION };
  for (const f of ['PHONE', 'EMAIL', 'LATITUDE', 'LONGITUDE', 'TIMEZONE'] as const)
    if (f in row) record[f] = row[f] === '' ? null : row[f];
  if ('PICKUP' in row) record.PICKUP = /^(1|true|yes|y)$/i.test(row.PICKUP ?? '');
  const description: Record<string, string> = {};
  for (const slot of LANGUAGE_SLOTS) {
    const value = row[`DESCRIPTION_${slot}`];
    if (value) description[slot] = value;
  }
  record.DESCRIPTION = description;
  const days = [];
  for (let weekday = 1; weekday <= 7; weekday++) {
    const column = `HOURS_${weekday}`;
    const value = (row[column] ?? '').trim();
    if (value === '') continue;
    const intervals = value.split(/[\s,;]+/).map((part) => {
      const m = INTERVAL.exec(part);
      if (!m) throw new ValidationError([{ name: `/${column}`, message: `"${part}" is not HH:MM-HH:MM` }]);
      return { OPENS: m[1] ?? '', CLOSES: m[2] ?? '' };
    });
    days.push({ WEEKDAY: weekday, HOURS: intervals });
  }
  record.OPENINGHOURS = days;
  return record;
}
