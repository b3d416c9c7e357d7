import { Type } from 'typebox';
import { LanguageSchema } from '../../kernel/schemas.ts';

const Hours = Type.Array(
  Type.Object({
    OPENS: Type.String({ description: 'HH:MM, local time of the shop (TIMEZONE).' }),
    CLOSES: Type.String({ description: 'HH:MM after OPENS; 24:00 is midnight at the end of the day.' }),
  }),
  { description: 'Intervals of the day, in order; empty: closed.' },
);

const Degrees = (what: string) =>
  Type.Union([Type.Number(), Type.Null()], {
    description: `${what} in decimal degrees (at most six decimals); null when not known.`,
  });

const ADDRESS = {
  ADDRESS: Type.String(),
  HOUSENUMBER: Type.String(),
  POSTALCODE: Type.String(),
  CITY: Type.String(),
  COUNTRY: Type.String({ description: 'ISO 3166-1 alpha-2; empty when not known.' }),
};

export const ShopSchema = Type.Object(
  {
    LOCATION: Type.String({
      description: 'The shop: its stock location code (LOCATION in the stock answers).',
    }),
    NAME: Type.String(),
    ...ADDRESS,
    PHONE: Type.String({ description: 'E.164 (+31201234567); empty when not known.' }),
    EMAIL: Type.String(),
    LATITUDE: Degrees('Latitude'),
    LONGITUDE: Degrees('Longitude'),
    PICKUP: Type.Boolean({ description: 'Click-and-collect orders may be picked up here.' }),
    TIMEZONE: Type.String({ description: 'IANA time zone of the opening hours.' }),
    DESCRIPTION: LanguageSchema,
    OPENINGHOURS: Type.Array(
      Type.Object({
        WEEKDAY: Type.Integer({ minimum: 1, maximum: 7, description: '1 Monday .. 7 Sunday.' }),
        HOURS: Hours,
      }),
      { description: 'The weekly hours: all seven weekdays, Monday first.' },
    ),
    EXCEPTIONS: Type.Array(
      Type.Object({
        DATE: Type.String({ description: 'YYYY-MM-DD' }),
        HOURS: Hours,
        DESCRIPTION: LanguageSchema,
      }),
      { description: "Dates whose hours replace the weekday's (holidays, late openings); no HOURS: closed." },
    ),
    SCN: Type.Integer({ description: 'SCN of the last change of the shop or its location.' }),
  },
  { title: 'Shop' },
);

export const ShopImageSchema = Type.Object(
  {
    LOCATION: Type.String(),
    IMAGENO: Type.Integer(),
    CONTENTTYPE: Type.String(),
    BYTES: Type.Integer(),
    SHA256: Type.String({ description: 'Hex SHA-256 of the bytes; also the ETag of B2C_GetShopImage.' }),
    SCN: Type.Integer(),
  },
  { title: 'ShopImage' },
);

export const AssistantSchema = Type.Object(
  {
    LOCATION: Type.String(),
    ASSISTANT: Type.Integer({ description: 'Number of the assistant within the shop.' }),
    NAME: Type.String(),
    ROLE: LanguageSchema,
    PHOTOIMAGENO: Type.Union([Type.Integer(), Type.Null()], {
      description: 'The shop image (B2C_GetShopImage) showing the assistant; null: no photo.',
    }),
    SCN: Type.Integer(),
  },
  { title: 'ShopAssistant' },
);

export const PickupSchema = Type.Object(
  {
    TYPE: Type.Union([Type.Literal('SHOP'), Type.Literal('POINT')], {
      description: 'SHOP: a shop that allows pickup (LOCATION is its code); POINT: an external pickup point.',
    }),
    LOCATION: Type.String(),
    NAME: Type.String(),
    ...ADDRESS,
    LATITUDE: Degrees('Latitude'),
    LONGITUDE: Degrees('Longitude'),
    DISTANCE: Type.Union([Type.Integer(), Type.Null()], {
      description: 'Metres from strlat/strlon; null without a position.',
    }),
    DESCRIPTION: LanguageSchema,
    SCN: Type.Integer(),
  },
  { title: 'PickupLocation' },
);

export const BlockSchema = Type.Object(
  {
    PAGE: Type.String({ description: 'The page of the app (HOME, ...).' }),
    BLOCK: Type.Integer({ description: 'Number of the block within its page.' }),
    POSITION: Type.Integer({ description: 'Order on the page, lowest first.' }),
    TITLE: LanguageSchema,
    TEXT: LanguageSchema,
    IMAGE: Type.String({
      description: 'An https URL, ARTICLE:<article>/<imageno> or SHOP:<location>/<imageno>; empty: none.',
    }),
    LINK: Type.String({ description: 'A URL or app link; empty: none.' }),
    VALIDFROM: Type.Union([Type.String(), Type.Null()], { description: 'Show from this instant on (UTC).' }),
    VALIDTO: Type.Union([Type.String(), Type.Null()], {
      description: 'Show until before this instant (UTC).',
    }),
    SCN: Type.Integer(),
  },
  { title: 'HomePageBlock' },
);

export const RegexSchema = Type.Object(
  {
    NAME: Type.String({ description: 'The field: EMAIL, PHONE, POSTALCODE, CARDNO, ...' }),
    COUNTRY: Type.Union([Type.String(), Type.Null()], {
      description: 'ISO 3166-1 alpha-2; null: every country without a pattern of its own.',
    }),
    PATTERN: Type.String({ description: 'An anchored regular expression, portable across engines.' }),
    DESCRIPTION: LanguageSchema,
    SERVER: Type.Boolean({ description: 'The server validates this field with the very same pattern.' }),
    SCN: Type.Integer({ description: '0 for the server’s own patterns (sent in every answer).' }),
  },
  { title: 'CompanyRegex' },
);

/** The DELETED of every list of the area (FeedSchema's options). */
export const SHOP_FEED = {
  deleted: { description: 'Keys of records deleted or no longer shown since strscn.' },
};
