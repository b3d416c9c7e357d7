import { type Static, Type } from 'typebox';
import { DIGITS_MAX, MAX_INT32 } from '../../kernel/int-limits.ts';
import { LANGUAGE_SLOTS } from '../../kernel/language.ts';
import { toMinor } from '../../kernel/money.ts';
import { readOnlyKeys } from '../../kernel/read-only-keys.ts';
import {
  DAY_OR_EMPTY_PATTERN,
  LEVEL_PATTERN,
  NO_CONTROL_PATTERN,
  SHOP_CODE_OR_EMPTY_PATTERN,
} from './client-common.ts';
import type { ActionInput } from './client-message-service.ts';
import type { ClientInput } from './client-profile-rules.ts';
import { ON_ACCOUNT_TYPES, type OnAccountInput, type OnAccountType } from './client-purchase-service.ts';

/**
 * The written forms of client records: the CLIENTDATA of B2C_PostClient, and the back office's
 * admin bodies and `tv2 import clients` records (the same fields, plus the member card). The
 * schemas hold every shape check (lengths, patterns, types); the services check only what needs
 * the stored data or more than one field, naming fields by their pointers in these records.
 */
const optionalText = (maxLength: number, pattern?: string) =>
  Type.Optional(Type.Union([Type.String({ maxLength, ...(pattern ? { pattern } : {}) }), Type.Null()]));
/** A calendar date's shape: months 01 to 12, days 01 to 31 (the server also refuses 2025-02-30). */
const DAY_PATTERN = '^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])$';
const Day = Type.String({
  pattern: DAY_PATTERN,
  description: 'A calendar date, YYYY-MM-DD.',
});

export const CLIENT_FIELDS = {
  EMAIL: Type.Optional(
    Type.String({
      maxLength: 254,
      description: 'One e-mail address, name@domain.tld; required for a new client.',
    }),
  ),
  FIRSTNAME: optionalText(80, NO_CONTROL_PATTERN),
  MIDDLENAME: optionalText(40, NO_CONTROL_PATTERN),
  LASTNAME: Type.Optional(
    Type.String({ maxLength: 80, pattern: NO_CONTROL_PATTERN, description: 'Required for a new client.' }),
  ),
  PHONE: optionalText(40),
  ADDRESS: optionalText(120, NO_CONTROL_PATTERN),
  HOUSENUMBER: optionalText(20, NO_CONTROL_PATTERN),
  POSTALCODE: optionalText(12),
  CITY: optionalText(80, NO_CONTROL_PATTERN),
  COUNTRY: Type.Optional(
    Type.Union([Type.String({ maxLength: 2 }), Type.Null()], {
      description: 'ISO 3166-1 alpha-2 country code (checked against the list).',
    }),
  ),
  BIRTHDATE: Type.Optional(
    Type.Union([Type.String({ maxLength: 10, pattern: DAY_OR_EMPTY_PATTERN }), Type.Null()], {
      description: 'A calendar date, YYYY-MM-DD; empty or null for none.',
    }),
  ),
  LANGUAGE: Type.Optional(Type.Union(LANGUAGE_SLOTS.map((s) => Type.Literal(s)))),
  CONSENTS: Type.Optional(
    Type.Object(
      {
        NEWSLETTER: Type.Optional(Type.Boolean()),
        SMS: Type.Optional(Type.Boolean()),
        PROFILING: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
  ),
  HOMESHOP: optionalText(20, SHOP_CODE_OR_EMPTY_PATTERN),
};

export const MemberCardBody = Type.Object(
  {
    CARDNO: Type.String({ pattern: '^[A-Z0-9-]{4,32}$' }),
    LEVEL: Type.String({ pattern: LEVEL_PATTERN }),
    VALIDFROM: Day,
    VALIDTO: Day,
  },
  { additionalProperties: false },
);

/**
 * A consent in the back office's body: a boolean, or the consent as B2C_GetClient answers it
 * (`{ GIVEN, GIVENAT }`), so that a client read can be sent back as read. `GIVENAT` is the server's
 * (when the consent was first given; kept while it stays given): declared and ignored.
 */
const AdminConsent = Type.Optional(
  Type.Union([
    Type.Boolean(),
    Type.Object(
      {
        GIVEN: Type.Boolean(),
        GIVENAT: Type.Optional(
          Type.Union([Type.String({ maxLength: 40 }), Type.Null()], {
            description: 'Ignored: when a consent was given is the server’s.',
          }),
        ),
      },
      { additionalProperties: false },
    ),
  ]),
);

export const AdminClientBody = Type.Object(
  {
    CLIENT: Type.Union([
      Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
      // 1 or more: at least one digit that is not 0
      Type.String({ pattern: '^0*[1-9][0-9]*$', maxLength: 9, [DIGITS_MAX]: MAX_INT32 }),
    ]),
    ...CLIENT_FIELDS,
    CONSENTS: Type.Optional(
      Type.Object(
        { NEWSLETTER: AdminConsent, SMS: AdminConsent, PROFILING: AdminConsent },
        { additionalProperties: false },
      ),
    ),
    MEMBERCARD: Type.Optional(Type.Union([MemberCardBody, Type.Null()])),
    ...readOnlyKeys([
      'HASPROFILEPHOTO',
      'MARKEDFORDELETION',
      'MARKEDFORDELETIONAT',
      'DELETIONDUE',
      'CREATED',
      'UPDATED',
      'SCN',
    ]),
  },
  {
    additionalProperties: false,
    description:
      'Read-only keys of an answer (HASPROFILEPHOTO, MARKEDFORDELETION, MARKEDFORDELETIONAT, DELETIONDUE, CREATED, UPDATED, SCN) are ignored; any other unknown key is a 400.',
  },
);
export type AdminClientBody = Static<typeof AdminClientBody>;

type ClientFields = Partial<{
  [K in keyof typeof CLIENT_FIELDS]: Static<(typeof CLIENT_FIELDS)[K]>;
}>;

/** B2C_PostClient's and the back office's client fields as the service's input. */
export function clientInputFrom(data: ClientFields, clientNo: number | undefined): ClientInput {
  return {
    clientNo,
    email: data.EMAIL,
    firstName: data.FIRSTNAME,
    middleName: data.MIDDLENAME,
    lastName: data.LASTNAME,
    phone: data.PHONE,
    address: data.ADDRESS,
    houseNumber: data.HOUSENUMBER,
    postalCode: data.POSTALCODE,
    city: data.CITY,
    country: data.COUNTRY,
    birthDate: data.BIRTHDATE,
    language: data.LANGUAGE,
    consents: data.CONSENTS && {
      newsletter: data.CONSENTS.NEWSLETTER,
      sms: data.CONSENTS.SMS,
      profiling: data.CONSENTS.PROFILING,
    },
    homeShop: data.HOMESHOP,
  };
}

/** A consent of the admin body as the boolean the service takes. */
const given = (consent: boolean | { GIVEN: boolean } | undefined) =>
  typeof consent === 'object' ? consent.GIVEN : consent;

export function adminClientInput(body: AdminClientBody): ClientInput {
  const card = body.MEMBERCARD;
  const consents = body.CONSENTS;
  return {
    ...clientInputFrom(
      {
        ...body,
        CONSENTS: consents && {
          NEWSLETTER: given(consents.NEWSLETTER),
          SMS: given(consents.SMS),
          PROFILING: given(consents.PROFILING),
        },
      },
      Number(body.CLIENT),
    ),
    ...(card === undefined
      ? {}
      : {
          memberCard:
            card === null
              ? null
              : { cardNo: card.CARDNO, level: card.LEVEL, validFrom: card.VALIDFROM, validTo: card.VALIDTO },
        }),
  };
}

export const OnAccountBody = Type.Object(
  {
    DOCUMENTTYPE: Type.Union(ON_ACCOUNT_TYPES.map((t) => Type.Literal(t))),
    DOCUMENTDATE: Day,
    DUEDATE: Type.Optional(Type.Union([Day, Type.Null()])),
    DESCRIPTION: Type.Optional(Type.String({ maxLength: 200 })),
    CURRENCY: Type.String({ pattern: '^[A-Z]{3}$' }),
    AMOUNT: Type.Union([Type.Number(), Type.String()], {
      description: 'A number, or a decimal string, with at most two decimals.',
    }),
    OPEN: Type.Union([Type.Number(), Type.String()], {
      description: 'What is still open: a number, or a decimal string, with at most two decimals.',
    }),
  },
  { additionalProperties: false },
);
export type OnAccountBody = Static<typeof OnAccountBody>;

export function onAccountInput(clientNo: number, documentNo: string, b: OnAccountBody): OnAccountInput {
  return {
    clientNo,
    documentNo,
    documentType: b.DOCUMENTTYPE as OnAccountType,
    documentDate: b.DOCUMENTDATE,
    dueDate: b.DUEDATE ?? null,
    description: b.DESCRIPTION,
    currency: b.CURRENCY,
    amountMinor: toMinor(b.AMOUNT, '/AMOUNT'),
    openMinor: toMinor(b.OPEN, '/OPEN'),
  };
}

export const ActionBody = Type.Object(
  {
    DESCRIPTION: Type.Object(
      Object.fromEntries(LANGUAGE_SLOTS.map((s) => [s, Type.Optional(Type.String({ maxLength: 500 }))])),
      {
        additionalProperties: false,
        description: 'The text per language slot: a text in at least one language.',
      },
    ),
    CLIENT: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), Type.Null()], {
        description: 'Only this client (it must exist); null or absent: every client.',
      }),
    ),
    MEMBERLEVEL: Type.Optional(Type.Union([Type.String({ pattern: LEVEL_PATTERN }), Type.Null()])),
    VALIDFROM: Day,
    VALIDTO: Type.String({
      pattern: DAY_PATTERN,
      description: 'A calendar date, YYYY-MM-DD, not before VALIDFROM.',
    }),
    ACTIVE: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type ActionBody = Static<typeof ActionBody>;

export function actionInput(code: string, b: ActionBody): ActionInput {
  return {
    code,
    description: b.DESCRIPTION as ActionInput['description'],
    clientNo: b.CLIENT ?? null,
    memberLevel: b.MEMBERLEVEL ?? null,
    validFrom: b.VALIDFROM,
    validTo: b.VALIDTO,
    active: b.ACTIVE,
  };
}

/** A flat CSV row of `tv2 import clients`: consents as 1/0, the member card as CARDNO, CARDLEVEL, CARDVALIDFROM, CARDVALIDTO. */
export function clientRecordFromCsv(row: Record<string, string>): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  const consents: Record<string, boolean> = {};
  for (const [column, value] of Object.entries(row)) {
    if (value === '') continue;
    if (column.startsWith('CONSENT_')) consents[column.slice(8)] = /^(1|true|yes|y)$/i.test(value);
    else if (!column.startsWith('CARD')) record[column] = value;
  }
  if (Object.keys(consents).length > 0) record.CONSENTS = consents;
  if (row.CARDNO) {
    record.MEMBERCARD = {
      CARDNO: row.CARDNO,
      LEVEL: row.CARDLEVEL,
      VALIDFROM: row.CARDVALIDFROM,
      VALIDTO: row.CARDVALIDTO,
    };
  }
  return record;
}
