import { Type } from 'typebox';
import { LANGUAGE_SLOTS } from '../../kernel/language.ts';
import { LanguageSchema, ScnSchema } from '../../kernel/schemas.ts';
import { DAY_OR_EMPTY_PATTERN, NO_CONTROL_PATTERN, SHOP_CODE_OR_EMPTY_PATTERN } from './client-common.ts';
import { MAX_PHOTO_BASE64 } from './client-photo.ts';

const Instant = (description: string) =>
  Type.String({ description: `${description} ISO 8601 UTC (2026-11-22T18:28:14Z).` });
const NullableInstant = (description: string) => Type.Union([Instant(description), Type.Null()]);
const Day = (description: string) => Type.String({ description: `${description} YYYY-MM-DD.` });
const Money = (description: string) =>
  Type.Number({ description: `${description} At most two decimals, in CURRENCY.` });

export const ClientNoSchema = Type.Integer({ minimum: 1, description: 'Client number.' });

const ConsentSchema = Type.Object(
  {
    GIVEN: Type.Boolean(),
    GIVENAT: NullableInstant('When the consent was given; null when it is not.'),
  },
  { title: 'Consent' },
);

export const MemberCardSchema = Type.Object(
  {
    CARDNO: Type.String(),
    LEVEL: Type.String({ description: 'e.g. SILVER, GOLD.' }),
    VALIDFROM: Day('First day of validity,'),
    VALIDTO: Day('Last day of validity,'),
  },
  { title: 'MemberCard' },
);

export const ClientSchema = Type.Object(
  {
    CLIENT: ClientNoSchema,
    FIRSTNAME: Type.String(),
    MIDDLENAME: Type.String({ description: 'Name prefix such as "van der"; empty when none.' }),
    LASTNAME: Type.String(),
    EMAIL: Type.String(),
    PHONE: Type.String({ description: 'E.164 (+31612345678); empty when none.' }),
    ADDRESS: Type.String({ description: 'Street.' }),
    HOUSENUMBER: Type.String(),
    POSTALCODE: Type.String({ description: 'In its country’s form (1234 AB, 10115, SW1A 1AA).' }),
    CITY: Type.String(),
    COUNTRY: Type.String({ description: 'ISO 3166-1 alpha-2; empty when unknown.' }),
    BIRTHDATE: Type.Union([Day('Birth date,'), Type.Null()]),
    LANGUAGE: Type.String({ description: `Language slot: ${LANGUAGE_SLOTS.join(', ')}.` }),
    CONSENTS: Type.Object({ NEWSLETTER: ConsentSchema, SMS: ConsentSchema, PROFILING: ConsentSchema }),
    MEMBERCARD: Type.Union([MemberCardSchema, Type.Null()]),
    HOMESHOP: Type.String({ description: 'Shop code of the client’s home shop; empty when none.' }),
    HASPROFILEPHOTO: Type.Boolean(),
    MARKEDFORDELETION: Type.Boolean(),
    MARKEDFORDELETIONAT: NullableInstant('When the client asked to be deleted.'),
    DELETIONDUE: NullableInstant('When the personal data will be anonymised (30 days after marking).'),
    CREATED: Instant('Created.'),
    UPDATED: Instant('Last changed.'),
    SCN: ScnSchema,
  },
  { title: 'Client' },
);

const optionalText = (maxLength: number, description: string, pattern?: string) =>
  Type.Optional(
    Type.Union([Type.String({ maxLength, ...(pattern ? { pattern } : {}), description }), Type.Null()]),
  );

/** The body of B2C_PostClient. Absent fields keep their stored value; null clears an optional one. */
export const ClientDataSchema = Type.Object(
  {
    CLIENTDATA: Type.Object(
      {
        CLIENT: Type.Optional(
          Type.Integer({
            minimum: 0,
            maximum: 2_147_483_647,
            description:
              'Client to change; absent or 0 creates a new client (a token confined to one client changes its own).',
          }),
        ),
        EMAIL: Type.Optional(
          Type.String({ maxLength: 254, description: 'Required for a new client; one client per address.' }),
        ),
        FIRSTNAME: optionalText(80, 'First name.', NO_CONTROL_PATTERN),
        MIDDLENAME: optionalText(40, 'Name prefix ("van der").', NO_CONTROL_PATTERN),
        LASTNAME: Type.Optional(
          Type.String({
            maxLength: 80,
            pattern: NO_CONTROL_PATTERN,
            description: 'Required for a new client.',
          }),
        ),
        PHONE: optionalText(40, 'International (+31 6 12345678) or national with COUNTRY (06 12345678).'),
        ADDRESS: optionalText(120, 'Street.', NO_CONTROL_PATTERN),
        HOUSENUMBER: optionalText(20, 'House number with addition.', NO_CONTROL_PATTERN),
        POSTALCODE: optionalText(12, 'Checked against COUNTRY (NL, BE, DE, FR, GB, ... ).'),
        CITY: optionalText(80, 'City.', NO_CONTROL_PATTERN),
        COUNTRY: optionalText(2, 'ISO 3166-1 alpha-2.'),
        BIRTHDATE: Type.Optional(
          Type.Union([
            Type.String({ maxLength: 10, pattern: DAY_OR_EMPTY_PATTERN, description: 'YYYY-MM-DD.' }),
            Type.Null(),
          ]),
        ),
        LANGUAGE: Type.Optional(
          Type.Union(
            LANGUAGE_SLOTS.map((s) => Type.Literal(s)),
            { description: 'Language slot the client reads (default LANGUAGE_1).' },
          ),
        ),
        CONSENTS: Type.Optional(
          Type.Object(
            {
              NEWSLETTER: Type.Optional(Type.Boolean()),
              SMS: Type.Optional(Type.Boolean()),
              PROFILING: Type.Optional(Type.Boolean()),
            },
            {
              additionalProperties: false,
              description: 'true gives the consent (stamped now, unless already given), false withdraws it.',
            },
          ),
        ),
        HOMESHOP: optionalText(20, 'Shop code.', SHOP_CODE_OR_EMPTY_PATTERN),
      },
      { additionalProperties: false },
    ),
  },
  { title: 'ClientData', additionalProperties: false },
);

export const PurchaseSchema = Type.Object(
  {
    PURCHASENO: Type.Integer(),
    SOURCE: Type.Union([Type.Literal('SHOP'), Type.Literal('WEB')]),
    SHOP: Type.String({ description: 'Shop code (SHOP), empty for web purchases without one.' }),
    REFERENCE: Type.String({ description: 'Receipt or web order number.' }),
    DATE: Instant('When it was bought.'),
    CURRENCY: Type.String(),
    TOTAL: Money('Sum of the line amounts.'),
    LINES: Type.Array(
      Type.Object({
        LINENO: Type.Integer(),
        ARTICLE: Type.String(),
        SIZEX: Type.String(),
        QUANTITY: Type.Integer({ description: 'Negative for a return.' }),
        PRICE: Money('Unit price.'),
        AMOUNT: Money('Line amount after discounts.'),
      }),
    ),
    SCN: ScnSchema,
  },
  { title: 'Purchase' },
);

export const OnAccountSchema = Type.Object(
  {
    DOCUMENTNO: Type.String(),
    DOCUMENTTYPE: Type.String({ description: 'INVOICE, CREDITNOTE, PAYMENT or OTHER.' }),
    DATE: Day('Document date,'),
    DUEDATE: Type.Union([Day('Due date,'), Type.Null()]),
    DESCRIPTION: Type.String(),
    CURRENCY: Type.String(),
    AMOUNT: Money('Document amount; negative for credit notes and payments.'),
    OPEN: Money('Still open; 0 when settled.'),
    SETTLED: Type.Boolean(),
    SCN: ScnSchema,
  },
  { title: 'OnAccountDocument' },
);

export const OpenTotalSchema = Type.Object(
  { CURRENCY: Type.String(), OPEN: Money('Open in total.') },
  { title: 'OpenTotal' },
);

export const MessageSchema = Type.Object(
  {
    MESSAGENO: Type.Integer(),
    SUBJECT: Type.String(),
    BODY: Type.String(),
    SENT: Instant('Sent.'),
    READ: Type.Boolean(),
    READAT: NullableInstant('First read.'),
  },
  { title: 'ClientMessage' },
);

export const ActionSchema = Type.Object(
  {
    ACTION: Type.String({ description: 'Action code (pass as straction to claim it).' }),
    DESCRIPTION: LanguageSchema,
    VALIDFROM: Day('First day,'),
    VALIDTO: Day('Last day,'),
    CLAIMED: Type.Boolean(),
    CLAIMEDAT: NullableInstant('When this client claimed it.'),
  },
  { title: 'ClientAction' },
);

export const PhotoSchema = Type.Object(
  {
    CLIENT: ClientNoSchema,
    CONTENTTYPE: Type.String({ description: 'image/jpeg, image/png or image/webp.' }),
    WIDTH: Type.Integer(),
    HEIGHT: Type.Integer(),
    SHA256: Type.String({ description: 'Of the image bytes; unchanged SHA256, unchanged photo.' }),
    PHOTO: Type.String({ contentEncoding: 'base64', description: 'The image bytes, base64.' }),
  },
  { title: 'Photo' },
);

export const ProfilePhotoDataSchema = Type.Object(
  {
    PROFILEPHOTODATA: Type.Object(
      {
        CLIENT: Type.Optional(
          Type.Integer({
            minimum: 0,
            maximum: 2_147_483_647,
            description: 'Client; a confined token may leave it out.',
          }),
        ),
        PHOTO: Type.String({
          maxLength: MAX_PHOTO_BASE64,
          description: 'JPEG, PNG or WebP, base64, at most 2 MiB decoded; an empty string removes the photo.',
        }),
        CONTENTTYPE: Type.Optional(
          Type.Union([Type.Literal('image/jpeg'), Type.Literal('image/png'), Type.Literal('image/webp')], {
            description: 'If given, must match what the bytes are.',
          }),
        ),
      },
      { additionalProperties: false },
    ),
  },
  { title: 'ProfilePhotoData', additionalProperties: false },
);
