import { Type } from 'typebox';
import { ScnSchema } from '../../kernel/schemas.ts';

const Money = (description: string) =>
  Type.Number({ description: `${description} At most two decimals, in CURRENCY.` });
const Day = (description: string) =>
  Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: `${description} YYYY-MM-DD.` });

/** An amount in a request: a positive number with at most two decimals (checked exactly as text). */
const Amount = Type.Number({
  exclusiveMinimum: 0,
  maximum: 1_000_000,
  description: 'Greater than 0, at most 1,000,000, with at most two decimals.',
});
const Currency = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217; default EUR.' });
const Key = (description: string) =>
  Type.String({
    minLength: 1,
    maxLength: 50,
    pattern: '^[\\x21-\\x7E](?:[\\x20-\\x7E]*[\\x21-\\x7E])?$',
    description: `${description} 1 to 50 printable ASCII characters, no leading or trailing space.`,
  });
const Email = Type.String({ maxLength: 254, format: 'email', description: 'Where the voucher is sent.' });
const CodeText = Type.String({
  minLength: 1,
  maxLength: 40,
  description: 'The voucher code as printed (case, spaces and dashes do not matter).',
});

const TenderKindSchema = Type.Union([
  Type.Literal('GIFT_VOUCHER'),
  Type.Literal('CREDIT_NOTE_VOUCHER'),
  Type.Literal('CLIENT_CHEQUE'),
  Type.Literal('BONUS_CARD'),
]);

export const VoucherSchema = Type.Object(
  {
    CODE: Type.String({ description: '17 characters: 16 random and a check character.' }),
    KIND: TenderKindSchema,
    CLIENT: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
      description: 'The owner; null for a gift voucher of no client (whoever holds the code).',
    }),
    CURRENCY: Type.String(),
    AMOUNT: Money('Issued with.'),
    BALANCE: Money('What it still holds.'),
    VALIDUNTIL: Day('The last day it can be used (always stated).'),
    BLOCKED: Type.Boolean(),
    WEBID: Type.Union([Type.String(), Type.Null()], { description: 'The WEBID it was issued under.' }),
    ISSUED: Type.String({ description: 'ISO 8601 UTC (2026-11-22T18:28:14Z).' }),
    SCN: ScnSchema,
  },
  { title: 'Voucher' },
);

const voucherFields = (client: string) =>
  Type.Object(
    {
      AMOUNT: Amount,
      CLIENT: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: client })),
      CURRENCY: Type.Optional(Currency),
      EMAIL: Type.Optional(Email),
      WEBID: Key(
        'The issuing request’s own key: a repeat with the same WEBID answers the first voucher; with another amount, currency or client it is 409 TENDER_KEY_REUSED.',
      ),
    },
    { additionalProperties: false },
  );

/** The documented body of B2C_PostNewGiftVoucher: GIFTVOUCHERDATA with AMOUNT, CLIENT, CURRENCY, EMAIL, WEBID. */
export const GiftVoucherDataSchema = Type.Object(
  { GIFTVOUCHERDATA: voucherFields('The client it is for; absent or 0: none (a bearer voucher).') },
  {
    title: 'GiftVoucherData',
    additionalProperties: false,
    examples: [
      { GIFTVOUCHERDATA: { AMOUNT: 25, CURRENCY: 'EUR', EMAIL: 'anna@example.nl', WEBID: 'GV-2026-0001' } },
    ],
  },
);

/** The documented body of B2C_PostNewCreditNoteVoucher: CREDITVOUCHERDATA, the same fields. */
export const CreditVoucherDataSchema = Type.Object(
  { CREDITVOUCHERDATA: voucherFields('The client it is for (required).') },
  {
    title: 'CreditVoucherData',
    additionalProperties: false,
    examples: [
      { CREDITVOUCHERDATA: { AMOUNT: 19.95, CLIENT: 100001, CURRENCY: 'EUR', WEBID: 'RET-2026-0042' } },
    ],
  },
);

export const CashedVoucherDataSchema = Type.Object(
  {
    CASHEDVOUCHERDATA: Type.Object(
      {
        CODE: CodeText,
        AMOUNT: Amount,
        CURRENCY: Type.Optional(Currency),
        REFERENCE: Key(
          'What the voucher pays (a receipt or order number): once per voucher; a repeat answers the first cashing, with another amount 409 TENDER_KEY_REUSED.',
        ),
      },
      { additionalProperties: false },
    ),
  },
  {
    title: 'CashedVoucherData',
    additionalProperties: false,
    examples: [
      {
        CASHEDVOUCHERDATA: {
          CODE: '8K2M-9QX4-P8R3-TZ5H-4',
          AMOUNT: 10,
          CURRENCY: 'EUR',
          REFERENCE: 'WEB-7731',
        },
      },
    ],
  },
);

export const CashingSchema = Type.Object(
  {
    CODE: Type.String(),
    KIND: TenderKindSchema,
    REFERENCE: Type.String(),
    AMOUNT: Money('Cashed.'),
    BALANCE: Money('Left on the voucher right after this cashing.'),
    CURRENCY: Type.String(),
    VALIDUNTIL: Day('The last day the voucher can be used.'),
    CASHED: Type.String({ description: 'When, ISO 8601 UTC.' }),
    CREATED: Type.Boolean({ description: 'False when this answers a repeat of an earlier cashing.' }),
  },
  { title: 'Cashing' },
);

export const ValidVoucherSchema = Type.Object(
  {
    CODE: Type.String(),
    KIND: Type.Union([Type.Literal('GIFT_VOUCHER'), Type.Literal('CREDIT_NOTE_VOUCHER')]),
    BALANCE: Money('What it holds now.'),
    CURRENCY: Type.String(),
    VALIDUNTIL: Day('The last day it can be used (always stated).'),
  },
  { title: 'ValidVoucher' },
);

/** The body of B2C_PostCashedClientCheque. */
export const CashedClientChequeDataSchema = Type.Object(
  {
    CASHEDCLIENTCHEQUEDATA: Type.Object(
      {
        CLIENT: Type.Optional(
          Type.Integer({
            minimum: 0,
            maximum: 2_147_483_647,
            description: 'The cheque’s client; optional for a token confined to one client.',
          }),
        ),
        CODE: CodeText,
        AMOUNT: Amount,
        CURRENCY: Type.Optional(Currency),
        REFERENCE: Key(
          'What the cheque pays: once per cheque; a repeat answers the first cashing, with another amount 409 TENDER_KEY_REUSED.',
        ),
      },
      { additionalProperties: false },
    ),
  },
  {
    title: 'CashedClientChequeData',
    additionalProperties: false,
    examples: [
      {
        CASHEDCLIENTCHEQUEDATA: {
          CLIENT: 100001,
          CODE: '8K2M-9QX4-P8R3-TZ5H-4',
          AMOUNT: 5,
          CURRENCY: 'EUR',
          REFERENCE: 'POS-0042-7781',
        },
      },
    ],
  },
);
