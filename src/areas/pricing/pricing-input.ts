import { type Static, Type } from 'typebox';
import { ValidationError } from '../../kernel/errors.ts';
import { DIGITS_MAX, MAX_INT32 } from '../../kernel/int-limits.ts';
import { toMinor } from '../../kernel/money.ts';
import { readOnlyKeys } from '../../kernel/read-only-keys.ts';
import type { ListPriceInput } from './list-price-service.ts';
import type { CustomerInput } from './price-customer-service.ts';
import {
  type ActionPriceInput,
  type AgreementInput,
  type LineDiscountInput,
  MAX_QUANTITY,
} from './pricing-rules.ts';

/**
 * The written forms of pricing records: admin bodies and `tv2 import customers|prices|agreements`
 * records, in the upper-case style of the TV2 answers (the same keys B2B_GetPriceChanges and
 * B2B_GetAllPriceAgreements answer with). Amounts are numbers or decimal strings with at most two
 * decimals; percentages likewise (12.5 = 12.5 %). The schemas state every check of a field's shape
 * (the HTTP layer and the import check them); the services check what needs the database, more
 * than one field or record, and the ranges of parsed amounts and percentages.
 */
const Amount = Type.Union([Type.Number(), Type.String({ maxLength: 20 })], {
  description: 'A number, or a decimal string, with at most two decimals.',
});

/**
 * The alternatives of a regular expression for the whole numbers 1 to `max` written without
 * leading zeros (for 9999: `[1-9][0-9]{0,2}|[1-8][0-9]{3}|9[0-8][0-9]{2}|...|9999`).
 */
export function upTo(max: number): string {
  const digits = String(max);
  const alternatives = digits.length > 1 ? [`[1-9][0-9]{0,${digits.length - 2}}`] : [];
  for (let i = 0; i < digits.length; i++) {
    const d = Number(digits[i]);
    const low = i === 0 ? 1 : 0;
    if (d > low) alternatives.push(`${digits.slice(0, i)}[${low}-${d - 1}][0-9]{${digits.length - i - 1}}`);
  }
  return [...alternatives, digits].join('|');
}

/**
 * A whole number from 1 to `max`: a JSON integer or (as CSV gives it) a string of at most 12
 * digits. The pattern states the range itself, as the import checks records without the HTTP
 * layer's `x-digits-max` keyword (kept for the OpenAPI document).
 */
const Whole = (max: number, description?: string) =>
  Type.Union(
    [
      Type.Integer({ minimum: 1, maximum: max }),
      Type.String({ pattern: `^(?=[0-9]{1,12}$)0*(?:${upTo(max)})$`, [DIGITS_MAX]: max }),
    ],
    description ? { description } : {},
  );
export const MAX_PRICE_GROUP = 9999;
/** Customer groups, models, article groups (and articles in agreements): 1 to 40 characters. */
const CODE = '[A-Za-z0-9][A-Za-z0-9._/ -]{0,39}';
const CODE_TEXT = '1 to 40 letters, digits, spaces or . _ / -';
const Code = Type.String({ pattern: `^${CODE}$`, description: CODE_TEXT });
/**
 * One of ARTICLE, MODEL, ARTICLEGROUP; an empty one counts as not given. "Exactly one of" is checked
 * by scopeOf and named in the description, not stated with oneOf: Ajv would name the body itself and
 * every branch's fields instead of the one field.
 */
const ScopeCode = Type.String({
  pattern: `^(?:${CODE})?$`,
  description: `${CODE_TEXT}; empty: not given. Give exactly one of ARTICLE, MODEL, ARTICLEGROUP (a line discount: MODEL or ARTICLEGROUP).`,
});
/** A calendar date's shape: months 01 to 12, days 01 to 31 (the server also refuses 2025-02-30). */
const DAY_PATTERN = '^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])$';
const Day = Type.String({
  pattern: DAY_PATTERN,
  description: 'A calendar date, YYYY-MM-DD.',
});
const ValidTo = Type.String({
  pattern: DAY_PATTERN,
  description: 'A calendar date, YYYY-MM-DD, not before VALIDFROM.',
});
const Currency = Type.String({ pattern: '^[A-Z]{3}$' });
const Flag = Type.Union([Type.Boolean(), Type.Literal(0), Type.Literal(1)]);
const Optional = <T extends Parameters<typeof Type.Optional>[0]>(t: T) =>
  Type.Optional(Type.Union([t, Type.Null()]));

export const CustomerBody = Type.Object(
  {
    CUSTOMER: Whole(MAX_INT32),
    NAME: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: 'Not blank.' }),
    PRICEGROUP: Whole(MAX_PRICE_GROUP),
    CUSTOMERGROUP: Optional(Code),
    CURRENCY: Currency,
    DISCOUNTPERC: Type.Optional(Amount),
    ACTIVE: Type.Optional(Flag),
    ...readOnlyKeys(
      [
        'EXTERNALKEY',
        'NAME2',
        'VATNO',
        'LANGUAGE',
        'PAYMENTDAYS',
        'CREDITLIMIT',
        'REPRESENTATIVE',
        'INVOICE ADDRESSES',
        'DELIVERY ADDRESSES',
      ],
      'read-only here: ignored (set with PUT /TV2/Admin/customers/{customer}/details)',
    ),
    ...readOnlyKeys(['SCN']),
  },
  {
    additionalProperties: false,
    description:
      'The pricing terms of a customer, in the form of a B2B_GetCustomer record: its other keys are ignored; any other unknown key is a 400.',
  },
);
export type CustomerBody = Static<typeof CustomerBody>;

export const ListPriceBody = Type.Object(
  {
    ARTICLE: Type.String({ minLength: 1 }),
    PRICETYPE: Type.Union([Type.Literal('SELLING'), Type.Literal('RECOMMENDED')]),
    PRICEGROUP: Whole(MAX_PRICE_GROUP),
    CURRENCY: Currency,
    SIZEX: Type.String({ minLength: 1 }),
    PRICE: Amount,
  },
  { additionalProperties: false },
);
export type ListPriceBody = Static<typeof ListPriceBody>;

export const AgreementBody = Type.Object(
  {
    CUSTOMER: Optional(
      Whole(MAX_INT32, 'The customer (it must exist); give either CUSTOMER or CUSTOMERGROUP, not both.'),
    ),
    CUSTOMERGROUP: Optional(Code),
    ARTICLE: Optional(ScopeCode),
    MODEL: Optional(ScopeCode),
    ARTICLEGROUP: Optional(ScopeCode),
    MINQUANTITY: Type.Optional(Whole(MAX_QUANTITY)),
    VALIDFROM: Day,
    VALIDTO: Optional(ValidTo),
    DISCOUNTPERC: Optional(
      Type.Union(Amount.anyOf, {
        description:
          'A percentage with at most two decimals; give either DISCOUNTPERC or NETPRICES, not both.',
      }),
    ),
    ...readOnlyKeys(['AGREEMENT', 'TYPE', 'SCN']),
    NETPRICES: Optional(
      Type.Array(Type.Object({ CURRENCY: Currency, PRICE: Amount }, { additionalProperties: false }), {
        maxItems: 20,
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Give exactly one of ARTICLE, MODEL, ARTICLEGROUP; one of DISCOUNTPERC, NETPRICES. Read-only keys of an answer (AGREEMENT, TYPE, SCN) are ignored.',
  },
);
export type AgreementBody = Static<typeof AgreementBody>;

export const LineDiscountBody = Type.Object(
  {
    CUSTOMER: Whole(MAX_INT32),
    MODEL: Optional(ScopeCode),
    ARTICLEGROUP: Optional(ScopeCode),
    DISCOUNTPERC: Amount,
    ...readOnlyKeys(['LINEDISCOUNT', 'SCN']),
    VALIDFROM: Day,
    VALIDTO: Optional(ValidTo),
  },
  {
    additionalProperties: false,
    description:
      'Give exactly one of MODEL, ARTICLEGROUP. Read-only keys of an answer (LINEDISCOUNT, SCN) are ignored.',
  },
);
export type LineDiscountBody = Static<typeof LineDiscountBody>;

export const ActionPriceBody = Type.Object(
  {
    ARTICLE: Type.String({ minLength: 1 }),
    SIZEX: Optional(Type.String()),
    CURRENCY: Currency,
    PRICE: Amount,
    STARTDATE: Day,
    ...readOnlyKeys(['ACTIONPRICE', 'SCN']),
    ENDDATE: Type.String({
      pattern: DAY_PATTERN,
      description: 'A calendar date, YYYY-MM-DD, not before STARTDATE.',
    }),
  },
  { additionalProperties: false, description: 'Read-only keys of an answer (ACTIONPRICE, SCN) are ignored.' },
);
export type ActionPriceBody = Static<typeof ActionPriceBody>;

const flag = (v: boolean | 0 | 1 | undefined, fallback: boolean) => (v === undefined ? fallback : Boolean(v));

export function customerInput(b: CustomerBody): CustomerInput {
  return {
    customerNo: Number(b.CUSTOMER),
    name: b.NAME,
    priceGroup: Number(b.PRICEGROUP),
    customerGroup: b.CUSTOMERGROUP ?? null,
    currency: b.CURRENCY,
    discountBp: b.DISCOUNTPERC === undefined ? 0 : toMinor(b.DISCOUNTPERC, '/DISCOUNTPERC'),
    active: flag(b.ACTIVE, true),
  };
}

export function listPriceInput(b: ListPriceBody, pointer = ''): ListPriceInput {
  return {
    articleNo: b.ARTICLE,
    priceType: b.PRICETYPE,
    priceGroup: Number(b.PRICEGROUP),
    currency: b.CURRENCY,
    sizex: b.SIZEX,
    priceMinor: toMinor(b.PRICE, `${pointer}/PRICE`),
  };
}

function scopeOf(
  b: { ARTICLE?: string | null; MODEL?: string | null; ARTICLEGROUP?: string | null },
  allowed: string[],
) {
  const given = (['ARTICLE', 'MODEL', 'ARTICLEGROUP'] as const).filter((k) => allowed.includes(k) && b[k]);
  if (given.length !== 1) {
    throw new ValidationError([
      { name: `/${allowed[0]}`, message: `give exactly one of ${allowed.join(', ')}` },
    ]);
  }
  const key = given[0]!;
  return { scope: key, scopeValue: b[key] as string };
}

export function agreementInput(b: AgreementBody): AgreementInput {
  const { scope, scopeValue } = scopeOf(b, ['ARTICLE', 'MODEL', 'ARTICLEGROUP']);
  return {
    customerNo: b.CUSTOMER === undefined || b.CUSTOMER === null ? null : Number(b.CUSTOMER),
    customerGroup: b.CUSTOMERGROUP ?? null,
    scope,
    scopeValue,
    minQuantity: b.MINQUANTITY === undefined ? 1 : Number(b.MINQUANTITY),
    validFrom: b.VALIDFROM,
    validTo: b.VALIDTO ?? null,
    discountBp:
      b.DISCOUNTPERC === undefined || b.DISCOUNTPERC === null
        ? null
        : toMinor(b.DISCOUNTPERC, '/DISCOUNTPERC'),
    netPrices: b.NETPRICES
      ? Object.fromEntries(b.NETPRICES.map((p, i) => [p.CURRENCY, toMinor(p.PRICE, `/NETPRICES/${i}/PRICE`)]))
      : null,
  };
}

export function lineDiscountInput(b: LineDiscountBody): LineDiscountInput {
  const { scope, scopeValue } = scopeOf(b, ['MODEL', 'ARTICLEGROUP']);
  return {
    customerNo: Number(b.CUSTOMER),
    scope: scope as 'MODEL' | 'ARTICLEGROUP',
    scopeValue,
    discountBp: toMinor(b.DISCOUNTPERC, '/DISCOUNTPERC'),
    validFrom: b.VALIDFROM,
    validTo: b.VALIDTO ?? null,
  };
}

export function actionPriceInput(b: ActionPriceBody): ActionPriceInput {
  return {
    articleNo: b.ARTICLE,
    sizex: b.SIZEX ?? null,
    currency: b.CURRENCY,
    priceMinor: toMinor(b.PRICE, '/PRICE'),
    startDate: b.STARTDATE,
    endDate: b.ENDDATE,
  };
}

/** A CSV row: empty cells are absent; NETPRICES as "EUR=12.50|GBP=10.90". */
export function pricingRecordFromCsv(row: Record<string, string>): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) {
    if (value === '') continue;
    if (column === 'NETPRICES') {
      record.NETPRICES = value.split('|').map((pair) => {
        const [CURRENCY = '', PRICE = ''] = pair.split('=').map((p) => p.trim());
        return { CURRENCY, PRICE };
      });
    } else if (column === 'ACTIVE') {
      record.ACTIVE = /^(1|true|yes|y)$/i.test(value);
    } else {
      record[column] = value;
    }
  }
  return record;
}
