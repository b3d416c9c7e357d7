import { type Static, type TSchema, Type } from 'typebox';
import { ValidationError } from '../../kernel/errors.ts';
import { DIGITS_MAX, MAX_INT32, MAX_SAFE_INT } from '../../kernel/int-limits.ts';
import { LANGUAGE_SLOTS } from '../../kernel/language.ts';
import { toMinor } from '../../kernel/money.ts';
import type { ArticleLinkInput } from './article-link-service.ts';
import { MAX_DELIVERY_ADDRESSES } from './customer-common.ts';
import type { AddressInput, InvoiceAddressInput } from './customer-validation.ts';
import type { CustomerDetailsInput, CustomerPatch } from './customer-write-plan.ts';
import type { RepresentativeInput } from './representative-service.ts';

/**
 * The written forms of the customers area: B2B_PostCustomer's CUSTOMERDATA, B2B_PostDeliveryAddress's
 * DELIVERYADDRESSDATA, the admin bodies and `tv2 import` records. They use the keys of the answers
 * (a customer read with B2B_GetCustomer can be posted back as it is, SCN included and ignored).
 * Where the documented bodies type numbers as strings, a JSON number or a numeric string is taken.
 * The schemas state the shape of every field (lengths, codes, ranges); the services check only what
 * a schema cannot state (customer-validation.ts), so `tv2 import` records are checked by the same
 * schemas (checkRecord) as the HTTP bodies.
 */
const Whole = Type.Union([
  Type.Integer({ minimum: 0, maximum: MAX_INT32 }),
  Type.String({ pattern: '^[0-9]{1,12}$', [DIGITS_MAX]: MAX_INT32 }),
]);
/** A customer number where one must be given: 1 or more (0 asks for a new customer only in B2B_PostCustomer). */
const CustomerNo = Type.Union(
  [
    Type.Integer({ minimum: 1, maximum: MAX_INT32 }),
    Type.String({ pattern: '^0*[1-9][0-9]{0,11}$', maxLength: 12, [DIGITS_MAX]: MAX_INT32 }),
  ],
  { description: `The customer number, 1 to ${MAX_INT32}.` },
);
/** A whole number in a range, as a JSON number or a digit string (leading zeros allowed). */
const WholeIn = (minimum: number, maximum: number, digitsPattern: string, maxLength: number) =>
  Type.Union([Type.Integer({ minimum, maximum }), Type.String({ pattern: digitsPattern, maxLength })], {
    description: `${minimum} to ${maximum}.`,
  });
/** Text with a character that is not a space. */
const NOT_BLANK = '\\S';
/** Printable ASCII without spaces (spaces around are trimmed); blank for none. */
const PRINTABLE_OR_BLANK = '^\\s*[\\x21-\\x7E]*\\s*$';
/** A representative code (spaces around are trimmed, kept in upper case). */
const REPRESENTATIVE_CODE = '^\\s*[A-Za-z0-9][A-Za-z0-9._-]*\\s*$';
/**
 * An amount or a percentage. Its range, a currency's and a country's code and an address's city are
 * not stated in the schema but checked by the services and named in the descriptions: a customer's
 * bad fields are all named in one answer (docs/customers.md, "Validation"), and a schema refusal
 * would come first, alone.
 */
const AmountOf = (what: string) =>
  Type.Union([Type.Number(), Type.String({ maxLength: 20 })], {
    description: `${what}: a number, or a decimal string, with at most two decimals.`,
  });
const Flag = Type.Union([Type.Boolean(), Type.Literal(0), Type.Literal(1)]);
const Text = (maxLength: number, description?: string, pattern?: string) =>
  Type.String({ maxLength, ...(pattern ? { pattern } : {}), ...(description ? { description } : {}) });
const Currency = Text(8, 'ISO 4217 in capitals, e.g. EUR (checked).');
/** A string field the documents type as string that clients may send as a number (house number 12). */
const TextOrNumber = (maxLength: number, description?: string, pattern?: string) =>
  Type.Union(
    [
      Type.String({ maxLength, ...(pattern ? { pattern } : {}) }),
      Type.Integer({ minimum: 0, maximum: MAX_SAFE_INT }),
    ],
    description ? { description } : {},
  );
const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

const addressProperties = {
  ADDRESS: Type.Optional(Text(120, 'Street; give a street (ADDRESS) or a post box (POSTBOX).')),
  CITY: Type.Optional(Text(80, 'Required (checked: not blank).')),
  COUNTRYPOST: Type.Optional(
    Text(2, 'ISO 3166-1 alpha-2 country code; required (checked against the list of countries).'),
  ),
  HOUSENUMBER: Type.Optional(TextOrNumber(20, 'House number with addition.')),
  MAPAREA: Type.Optional(Text(40, 'Region or delivery area.')),
  POSTALCODE: Type.Optional(
    TextOrNumber(
      12,
      'Checked against COUNTRYPOST (NL, BE, DE, FR, GB, ...): 2 to 10 letters, digits, spaces or dashes, in the ' +
        "country's form; required in NL, BE, LU, DE, AT, FR and GB.",
    ),
  ),
  POSTBOX: Type.Optional(TextOrNumber(20)),
};

export const AddressBody = Type.Object(
  {
    EXTRAADDRESSNO: Type.Optional(
      Type.Union(
        [
          Type.Integer({ minimum: 1, maximum: MAX_DELIVERY_ADDRESSES }),
          Type.String({ pattern: '^0*[1-9][0-9]{0,2}$', maxLength: 4 }),
        ],
        {
          description: `The delivery address to change (1 to ${MAX_DELIVERY_ADDRESSES}), each number at most once; absent: a new one is added.`,
        },
      ),
    ),
    ...addressProperties,
  },
  { additionalProperties: false },
);
export type AddressBody = Static<typeof AddressBody>;

export const InvoiceAddressBody = Type.Object(
  {
    EXTRAADDRESSNO: Type.Optional(
      Type.Union([Type.Literal(0), Type.Literal('0')], { description: 'The invoice address is number 0.' }),
    ),
    ...addressProperties,
    VATNO: Type.Optional(Text(30, "The customer's VAT number (the same as VATNO of the customer).")),
  },
  { additionalProperties: false },
);
export type InvoiceAddressBody = Static<typeof InvoiceAddressBody>;

const PriceGroup = WholeIn(1, 9999, '^0*[1-9][0-9]{0,3}$', 12);

const customerProperties = {
  CUSTOMER: Type.Optional(Whole),
  EXTERNALKEY: Type.Optional(
    Nullable(
      Text(
        64,
        "Your own unique key for the customer (e.g. your system's id), printable without spaces; null clears it.",
        PRINTABLE_OR_BLANK,
      ),
    ),
  ),
  NAME: Type.Optional(Text(100, undefined, NOT_BLANK)),
  NAME2: Type.Optional(Text(100, 'Name 2 / trade name.')),
  VATNO: Type.Optional(Text(30, 'VAT number with its country prefix; checked (docs/customers.md).')),
  LANGUAGE: Type.Optional(
    Type.Union(
      LANGUAGE_SLOTS.map((s) => Type.Literal(s)),
      { description: 'Language slot the customer reads.' },
    ),
  ),
  CURRENCY: Type.Optional(Currency),
  PRICEGROUP: Type.Optional(PriceGroup),
  CUSTOMERGROUP: Type.Optional(
    Nullable(
      Text(
        40,
        'A code: letters, digits, spaces or . _ / -; null for none.',
        '^(?:[A-Za-z0-9][A-Za-z0-9._/ -]*|\\s*)$',
      ),
    ),
  ),
  DISCOUNTPERC: Type.Optional(AmountOf('A percentage from 0 to 100')),
  PAYMENTDAYS: Type.Optional(WholeIn(0, 365, '^0*(?:[0-9]{1,2}|[12][0-9]{2}|3[0-5][0-9]|36[0-5])$', 12)),
  CREDITLIMIT: Type.Optional(AmountOf('An amount of 0 or more')),
  REPRESENTATIVE: Type.Optional(
    Nullable(
      Text(
        20,
        'Representative code: letters, digits or . _ -; null for none.',
        '^\\s*(?:[A-Za-z0-9][A-Za-z0-9._-]*)?\\s*$',
      ),
    ),
  ),
  ACTIVE: Type.Optional(Flag),
  'INVOICE ADDRESSES': Type.Optional(
    Type.Array(InvoiceAddressBody, { maxItems: 1, description: 'The invoice address; [] removes it.' }),
  ),
  'DELIVERY ADDRESSES': Type.Optional(Type.Array(AddressBody, { maxItems: 999 })),
  SCN: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_SAFE_INT,
      description: 'Ignored (a record read can be written back as it is).',
    }),
  ),
};

/** One customer: what B2B_PostCustomer takes under CUSTOMERDATA. */
export const CustomerDataBody = Type.Object(customerProperties, { additionalProperties: false });
export type CustomerDataBody = Static<typeof CustomerDataBody>;

/** A whole customer (admin PUT, `tv2 import customerdetails`): number, name, price group and currency required. */
export const CustomerDetailsBody = Type.Object(
  {
    ...customerProperties,
    CUSTOMER: CustomerNo,
    NAME: Text(100, undefined, NOT_BLANK),
    PRICEGROUP: PriceGroup,
    CURRENCY: Currency,
  },
  { additionalProperties: false },
);
export type CustomerDetailsBody = Static<typeof CustomerDetailsBody>;

/** B2B_PostDeliveryAddress's DELIVERYADDRESSDATA. */
export const DeliveryAddressDataBody = Type.Object(
  {
    CUSTOMER: Type.Optional(Whole),
    ...AddressBody.properties,
    EXTRAADDRESSNO: Type.Optional(
      Type.Union(
        [
          Type.Integer({ minimum: 0, maximum: MAX_DELIVERY_ADDRESSES }),
          Type.String({ pattern: '^[0-9]{1,4}$', [DIGITS_MAX]: MAX_DELIVERY_ADDRESSES }),
        ],
        {
          description: `The delivery address to change (1 to ${MAX_DELIVERY_ADDRESSES}), each number at most once; absent: a new one is added.`,
        },
      ),
    ),
  },
  { additionalProperties: false },
);
export type DeliveryAddressDataBody = Static<typeof DeliveryAddressDataBody>;

export const RepresentativeBody = Type.Object(
  {
    REPRESENTATIVE: Text(20, 'Code: letters, digits or . _ -, kept in upper case.', REPRESENTATIVE_CODE),
    NAME: Text(100, undefined, NOT_BLANK),
    EMAIL: Type.Optional(Text(254)),
    PHONE: Type.Optional(Text(40, 'International: +31 6 12345678.')),
    ACTIVE: Type.Optional(Flag),
    SCN: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_SAFE_INT })),
  },
  { additionalProperties: false },
);
export type RepresentativeBody = Static<typeof RepresentativeBody>;

export const ArticleLinkBody = Type.Object(
  {
    CUSTOMER: CustomerNo,
    ARTICLE: Text(64, undefined, NOT_BLANK),
    CUSTOMERARTICLE: TextOrNumber(40, "The customer's own article number.", NOT_BLANK),
    CUSTOMERDESCRIPTION: Type.Optional(Text(200)),
    CUSTOMERBARCODE: Type.Optional(
      Nullable(TextOrNumber(40, 'Printable characters without spaces.', PRINTABLE_OR_BLANK)),
    ),
    SCN: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_SAFE_INT })),
  },
  { additionalProperties: false },
);
export type ArticleLinkBody = Static<typeof ArticleLinkBody>;

const str = (v: string | number | undefined) => (v === undefined ? undefined : String(v));
const num = (v: string | number | undefined) => (v === undefined ? undefined : Number(v));
const flag = (v: boolean | 0 | 1 | undefined) => (v === undefined ? undefined : Boolean(v));

/** An amount in minor units; a malformed one becomes NaN, which the service names as the field's error. */
function minor(v: string | number | undefined): number | undefined {
  if (v === undefined) return undefined;
  try {
    return toMinor(v, '');
  } catch (error) {
    if (error instanceof ValidationError) return Number.NaN;
    throw error;
  }
}

function addressInput(b: AddressBody | InvoiceAddressBody): AddressInput {
  return {
    addressNo: num(b.EXTRAADDRESSNO),
    address: b.ADDRESS,
    houseNumber: str(b.HOUSENUMBER),
    postalCode: str(b.POSTALCODE),
    city: b.CITY,
    country: b.COUNTRYPOST,
    mapArea: b.MAPAREA,
    postBox: str(b.POSTBOX),
  };
}

export function customerPatch(b: CustomerDataBody): CustomerPatch {
  const invoice = b['INVOICE ADDRESSES'];
  const customerNo = num(b.CUSTOMER);
  return {
    customerNo: customerNo === 0 ? undefined : customerNo,
    externalKey: b.EXTERNALKEY,
    name: b.NAME,
    name2: b.NAME2,
    vatNo: b.VATNO,
    language: b.LANGUAGE,
    currency: b.CURRENCY,
    priceGroup: num(b.PRICEGROUP),
    customerGroup: b.CUSTOMERGROUP,
    discountBp: minor(b.DISCOUNTPERC),
    paymentDays: num(b.PAYMENTDAYS),
    creditLimitMinor: minor(b.CREDITLIMIT),
    representative: b.REPRESENTATIVE,
    active: flag(b.ACTIVE),
    invoiceAddress:
      invoice === undefined
        ? undefined
        : invoice[0] === undefined
          ? null
          : ({ ...addressInput(invoice[0]), vatNo: invoice[0].VATNO } satisfies InvoiceAddressInput),
    deliveryAddresses: b['DELIVERY ADDRESSES']?.map(addressInput),
  };
}

export function customerDetailsInput(b: CustomerDetailsBody): CustomerDetailsInput {
  return {
    ...customerPatch(b),
    customerNo: Number(b.CUSTOMER),
    name: b.NAME,
    priceGroup: Number(b.PRICEGROUP),
    currency: b.CURRENCY,
  };
}

export function deliveryAddressInput(b: DeliveryAddressDataBody): AddressInput {
  return addressInput(b);
}

export function representativeInput(b: RepresentativeBody): RepresentativeInput {
  return { code: b.REPRESENTATIVE, name: b.NAME, email: b.EMAIL, phone: b.PHONE, active: flag(b.ACTIVE) };
}

export function articleLinkInput(b: ArticleLinkBody): ArticleLinkInput {
  return {
    customerNo: Number(b.CUSTOMER),
    articleNo: b.ARTICLE,
    customerArticleNo: String(b.CUSTOMERARTICLE),
    customerDescription: b.CUSTOMERDESCRIPTION,
    customerBarcode:
      b.CUSTOMERBARCODE === undefined || b.CUSTOMERBARCODE === null ? null : String(b.CUSTOMERBARCODE),
  };
}

/** Empty CSV cells are absent; ACTIVE as 1/0/true/false/yes/no. */
function csvValue(column: string, value: string): unknown {
  if (column === 'ACTIVE') return /^(1|true|yes|y)$/i.test(value);
  return value;
}

/** A flat CSV row of representatives or article links as a record. */
export function flatRecordFromCsv(row: Record<string, string>): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) {
    if (value !== '') record[column] = csvValue(column, value);
  }
  return record;
}

const ADDRESS_COLUMN =
  /^(INVOICE|DELIVERY(\d{1,3}))_(ADDRESS|CITY|COUNTRYPOST|HOUSENUMBER|MAPAREA|POSTALCODE|POSTBOX|VATNO)$/;

/**
 * A CSV row of customer details as a record: customer columns as in the answer; the invoice address
 * as INVOICE_ADDRESS, INVOICE_CITY, ...; delivery address n as DELIVERY<n>_ADDRESS, DELIVERY<n>_CITY, ...
 * (n is its EXTRAADDRESSNO). Empty cells are absent.
 */
export function customerDetailsRecordFromCsv(row: Record<string, string>): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  let invoice: Record<string, unknown> | undefined;
  const delivery = new Map<number, Record<string, unknown>>();
  for (const [column, value] of Object.entries(row)) {
    if (value === '') continue;
    const m = ADDRESS_COLUMN.exec(column);
    if (!m) {
      record[column] = csvValue(column, value);
      continue;
    }
    const field = m[3] as string;
    if (m[2] === undefined) {
      invoice ??= { EXTRAADDRESSNO: 0 };
      invoice[field] = value;
    } else {
      const no = Number(m[2]);
      const a = delivery.get(no) ?? { EXTRAADDRESSNO: no };
      a[field] = value;
      delivery.set(no, a);
    }
  }
  if (invoice) record['INVOICE ADDRESSES'] = [invoice];
  if (delivery.size > 0) {
    record['DELIVERY ADDRESSES'] = [...delivery.entries()].sort((a, b) => a[0] - b[0]).map(([, a]) => a);
  }
  return record;
}
