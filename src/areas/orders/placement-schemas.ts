import { type Static, Type } from 'typebox';
import { DIGITS_MAX, MAX_INT32 } from '../../kernel/int-limits.ts';
import { LanguageSchema } from '../../kernel/schemas.ts';

/**
 * The bodies of the two placements and their answer (docs/orders.md, "Placing an order").
 * B2B_PostOrdCus takes the documented ORDERREQUEST exactly: where it types a number as a string, a
 * JSON number or a numeric string is taken, and anything else is a 400 naming the field.
 * B2C_PostWebOrder follows the same conventions with a WEBORDERDATA wrapper.
 */

/** Quantities: a whole number from 1 to 1,000,000 (a JSON number or digits). */
export const MAX_LINE_QUANTITY = 1_000_000;
/** Lines per order. */
export const MAX_ORDER_LINES = 500;
/** Tenders per web order. */
export const MAX_ORDER_TENDERS = 10;

const Quantity = Type.Union(
  [
    Type.Integer({ minimum: 1, maximum: MAX_LINE_QUANTITY }),
    Type.String({ pattern: '^\\s*0*[1-9][0-9]{0,6}\\s*$', maxLength: 20, [DIGITS_MAX]: MAX_LINE_QUANTITY }),
  ],
  { description: `Pieces, 1 to ${MAX_LINE_QUANTITY.toLocaleString('en')}: a JSON number or a digit string.` },
);
/** An amount or percentage the client shows; compared with the server's, never trusted. */
const Decimal = (description: string) =>
  Type.Union(
    [Type.Number(), Type.String({ maxLength: 20, pattern: '^\\s*(-?[0-9]{1,13}(\\.[0-9]{1,2})?)?\\s*$' })],
    {
      description: `${description} A number or a decimal string with at most two decimals; empty or absent: not sent.`,
    },
  );
const Text = (maxLength: number, description: string) =>
  Type.String({
    maxLength,
    pattern: '^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F]*$',
    description,
  });
const Reference = Type.String({
  minLength: 1,
  maxLength: 50,
  pattern: '^[\\x21-\\x7E](?:[\\x20-\\x7E]*[\\x21-\\x7E])?$',
  description:
    'The party’s own reference of the order (printable ASCII, 1 to 50, no spaces around): one order per party and reference. Posting it again answers that order (CREATED false) and acts once; with another content it is 409 WEBORDER_CONFLICT.',
});
const Barcode = Type.String({ pattern: '^[0-9]{13}$', description: 'EAN-13 of the size ordered.' });
const Currency = Type.String({
  pattern: '^[A-Z]{3}$',
  description: 'ISO 4217; default the party’s currency.',
});
const Day = Type.String({
  pattern: '^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])$',
  description: 'A calendar date, YYYY-MM-DD.',
});
const PartyNo = (what: string) =>
  Type.Union(
    [
      Type.Integer({ minimum: 0, maximum: MAX_INT32 }),
      Type.String({ pattern: '^\\s*[0-9]{1,10}\\s*$', [DIGITS_MAX]: MAX_INT32 }),
    ],
    {
      description: `${what} number (a JSON number or digits); a confined token may leave it out or give 0 for its own.`,
    },
  );
const AddressNo = (description: string) => Type.Integer({ minimum: 0, maximum: 999, description });

const TenderLine = Type.Object(
  {
    TYPE: Type.Union([Type.Literal('VOUCHER'), Type.Literal('CLIENTCHEQUE'), Type.Literal('BONUSCARD')], {
      description:
        'VOUCHER: a gift or credit-note voucher (B2C_ValidateVoucher); CLIENTCHEQUE: a cheque of the client; BONUSCARD: bonus value of a card.',
    }),
    CODE: Type.String({
      minLength: 1,
      maxLength: 40,
      pattern: '^[0-9A-Za-z -]+$',
      description:
        'The voucher or cheque code as printed (case, spaces and dashes do not matter), or the card number: a BONUSCARD number is digits only.',
    }),
    AMOUNT: Type.Union(
      [
        Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000 }),
        Type.String({ maxLength: 20, pattern: '^\\s*[0-9]{1,7}(\\.[0-9]{1,2})?\\s*$' }),
      ],
      { description: 'What the tender pays, in the order’s currency: greater than 0, two decimals at most.' },
    ),
  },
  { title: 'OrderTender', additionalProperties: false },
);

export const OrderLineBody = Type.Object(
  {
    BARCODE: Barcode,
    QUANTITY: Quantity,
    ASSORTMENT: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 0,
        description: 'Assortments are not sold by this server: 0 or absent.',
      }),
    ),
    QUANTITYORDEREDASSORT: Type.Optional(Decimal('Assortments only; ignored.')),
    PRICE: Type.Optional(Decimal('The list price per piece the client shows (before discount).')),
    NETPRICE: Type.Optional(Decimal('The net price per piece the client shows.')),
    DISCOUNT: Type.Optional(Decimal('The discount percentage the client shows.')),
    CODEDISCOUNT: Type.Optional(Text(20, 'Informational; the server records the rule it applied.')),
    PRICEAGREEMENT: Type.Optional(Text(20, 'Informational; the server records the agreement it applied.')),
    ORDERCUSTOMERSEQUENCE: Type.Optional(Text(50, 'The customer’s own line reference, kept and answered.')),
  },
  { title: 'OrderRequestLine', additionalProperties: false },
);

export const PostOrdCusBody = Type.Object(
  {
    ORDERREQUEST: Type.Object(
      {
        ORDERHEADER: Type.Object(
          {
            CUSTOMER: PartyNo('Customer'),
            WEBORDER: Reference,
            CURRENCY: Type.Optional(Currency),
            DATEORDERED: Type.Optional(Day),
            DELEXTRAADDRESSNO: Type.Optional(
              AddressNo(
                'Delivery address: 0 the invoice address, 1.. a delivery address of the customer; default its first delivery address, else 0.',
              ),
            ),
            FACEXTRAADDRESSNO: Type.Optional(AddressNo('Invoice address of the customer; default 0.')),
            HEADERTEXT: Type.Optional(Text(2000, 'Printed above the lines.')),
            BOTTOMTEXT: Type.Optional(Text(2000, 'Printed below the lines.')),
            COSTFREIGHT: Type.Optional(
              Decimal('Freight the client shows; the server charges none yet, so only 0 is accepted.'),
            ),
            CUSTOMERDISCOUNTPERC: Type.Optional(
              Decimal('The customer discount the client shows; compared with the customer’s.'),
            ),
          },
          { additionalProperties: false },
        ),
        ORDERLINES: Type.Array(OrderLineBody, { minItems: 1, maxItems: MAX_ORDER_LINES }),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        ORDERREQUEST: {
          ORDERHEADER: {
            CUSTOMER: '10001',
            WEBORDER: 'PO-2026-0001',
            DELEXTRAADDRESSNO: 1,
            DATEORDERED: '2026-11-26',
          },
          ORDERLINES: [
            { BARCODE: '8712300000025', QUANTITY: '4' },
            { BARCODE: '8712300000032', QUANTITY: '2', NETPRICE: '10.48', ORDERCUSTOMERSEQUENCE: '2' },
          ],
        },
      },
    ],
  },
);
export type PostOrdCusBody = Static<typeof PostOrdCusBody>;

const WebAddress = Type.Object(
  {
    NAME: Type.Optional(Text(120, 'Addressee; default the client’s name.')),
    ADDRESS: Text(120, 'Street.'),
    HOUSENUMBER: Type.Optional(Text(20, 'House number with addition.')),
    POSTALCODE: Text(12, 'Postal code.'),
    CITY: Text(80, 'City.'),
    COUNTRY: Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2.' }),
  },
  { title: 'WebOrderAddress', additionalProperties: false },
);

export const PostWebOrderBody = Type.Object(
  {
    WEBORDERDATA: Type.Object(
      {
        CLIENT: Type.Optional(PartyNo('Client')),
        WEBORDER: Reference,
        CURRENCY: Type.Optional(Currency),
        EMAIL: Type.Optional(
          Type.String({
            maxLength: 254,
            format: 'email',
            description: 'Order confirmation address; default the client’s.',
          }),
        ),
        PAYMENTREFERENCE: Type.Optional(
          Text(100, 'The payment provider’s reference of the payment, kept with the order.'),
        ),
        DELIVERY: Type.Optional(
          Type.Union([Type.Literal('ADDRESS'), Type.Literal('PICKUP')], {
            description:
              'ADDRESS (default): to DELIVERYADDRESS or the client’s address; PICKUP: at PICKUPLOCATION.',
          }),
        ),
        PICKUPLOCATION: Type.Optional(
          Text(20, 'A LOCATION of B2C_GetPickUpLocations; required with DELIVERY PICKUP.'),
        ),
        DELIVERYADDRESS: Type.Optional(WebAddress),
        TENDERS: Type.Optional(
          Type.Array(TenderLine, {
            maxItems: MAX_ORDER_TENDERS,
            description:
              'Tenders that pay part or all of the order (docs/orders.md, "Paying with tenders"), debited in the ' +
              'order’s transaction: a refused one places nothing. Together at most the order’s GROSS; the rest ' +
              '(TOPAY) is paid outside tv2 (PAYMENTREFERENCE). A tender named twice is 400.',
          }),
        ),
        BONUSCARD: Type.Optional(
          Type.Union(
            [
              Type.Integer({ minimum: 1, maximum: MAX_INT32 }),
              Type.String({ pattern: '^\\s*[0-9]{1,10}\\s*$', [DIGITS_MAX]: MAX_INT32 }),
            ],
            {
              description:
                'The bonus card the order earns on when delivered (TV2_BONUS_EARN_PERCENT of what was paid outside ' +
                'tenders); the client’s or no one’s; created on the first earning if it does not exist. Default: ' +
                'the card of a BONUSCARD tender line, if any.',
            },
          ),
        ),
        ORDERLINES: Type.Array(
          Type.Object(
            {
              BARCODE: Barcode,
              QUANTITY: Quantity,
              PRICE: Type.Optional(
                Decimal('The price per piece the shop showed; compared with the server’s.'),
              ),
            },
            { additionalProperties: false },
          ),
          { minItems: 1, maxItems: MAX_ORDER_LINES },
        ),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        WEBORDERDATA: {
          CLIENT: 100001,
          WEBORDER: 'WEB-7731',
          DELIVERY: 'PICKUP',
          PICKUPLOCATION: 'AMS',
          PAYMENTREFERENCE: 'pay_8Kq2',
          TENDERS: [{ TYPE: 'VOUCHER', CODE: '8K2M-9QX4-P8R3-TZ5H-4', AMOUNT: '10.00' }],
          BONUSCARD: 40000001,
          ORDERLINES: [{ BARCODE: '8712300000018', QUANTITY: 1, PRICE: '24.95' }],
        },
      },
      {
        WEBORDERDATA: {
          CLIENT: 100001,
          WEBORDER: 'WEB-7732',
          DELIVERYADDRESS: {
            ADDRESS: 'Prinsengracht',
            HOUSENUMBER: '263',
            POSTALCODE: '1016 GV',
            CITY: 'Amsterdam',
            COUNTRY: 'NL',
          },
          ORDERLINES: [{ BARCODE: '8712300000025', QUANTITY: 2 }],
        },
      },
    ],
  },
);
export type PostWebOrderBody = Static<typeof PostWebOrderBody>;

const Money = (description: string) => Type.Number({ description });

export const PaidTenderSchema = Type.Object(
  {
    LINE: Type.Integer({ minimum: 1, description: 'The position in TENDERS, from 1.' }),
    TYPE: Type.String({ description: 'VOUCHER, CLIENTCHEQUE or BONUSCARD, as posted.' }),
    KIND: Type.String({
      description: 'The tender’s kind: GIFT_VOUCHER, CREDIT_NOTE_VOUCHER, CLIENT_CHEQUE or BONUS_CARD.',
    }),
    CODE: Type.String({
      description: 'The code (as stored: upper case, no spaces or dashes) or card number.',
    }),
    AMOUNT: Money('What the tender paid.'),
    REFUNDED: Money('What was given back to the tender since (cancellations; returns give a credit note).'),
  },
  { title: 'PaidTender' },
);

export const PlacedLineSchema = Type.Object(
  {
    LINE: Type.Integer({ minimum: 1, description: 'Line number within the order.' }),
    BARCODE: Type.String(),
    ARTICLE: Type.String(),
    SIZEX: Type.String(),
    ARTICLEDESCRIPTION: LanguageSchema,
    QUANTITY: Type.Integer({ minimum: 1, description: 'Pieces ordered.' }),
    RESERVED: Type.Integer({ minimum: 0, description: 'Pieces reserved from stock for the line.' }),
    BACKORDER: Type.Integer({
      minimum: 0,
      description: 'Pieces ordered and not reserved (wholesale back-order).',
    }),
    PRICE: Money('List price per piece the rule started from.'),
    NETPRICE: Money('What one piece costs, by the server’s price resolution.'),
    DISCOUNT: Type.Number({
      description: 'The rule’s discount percentage (0 for a net price or the list price).',
    }),
    PRICERULE: Type.String({
      description:
        'The rule that gave the price: AGREEMENT, LINE_DISCOUNT, CUSTOMER_DISCOUNT, LIST_PRICE (wholesale), ACTION_PRICE or LIST_PRICE (retail).',
    }),
    AMOUNT: Money('QUANTITY × NETPRICE.'),
    PERCVAT: Type.Number({ description: 'VAT rate, percent.' }),
    ORDERCUSTOMERSEQUENCE: Type.String(),
  },
  { title: 'PlacedLine' },
);

export const VatRowSchema = Type.Object(
  {
    PERCVAT: Type.Number(),
    NET: Money('Taxable base at this rate.'),
    VAT: Money('VAT at this rate, computed once on the base.'),
    GROSS: Money('NET + VAT.'),
  },
  { title: 'VatRow' },
);

export const PlacedOrderSchema = Type.Object(
  {
    ORDERNO: Type.Integer({ minimum: 1, description: 'Our order number (strorderno of the order reads).' }),
    WEBORDER: Type.String(),
    CREATED: Type.Boolean({
      description: 'False when the WEBORDER was placed before: this is that order, nothing was done again.',
    }),
    STATE: Type.String({ description: 'The order state (docs/orders.md).' }),
    CURRENCY: Type.String(),
    PRICESINCLUDEVAT: Type.Boolean({ description: 'True for web orders (shelf prices include VAT).' }),
    NET: Money('Sum of the VAT rows’ bases.'),
    VAT: Money('Sum of the VAT rows’ VAT.'),
    GROSS: Money('What the order costs with VAT.'),
    VATBREAKDOWN: Type.Array(VatRowSchema),
    TENDERS: Type.Array(PaidTenderSchema, {
      description:
        'The means of payment taken from tenders (web orders; empty: none). They pay GROSS, they do not lower it.',
    }),
    TOPAY: Money('GROSS less what TENDERS paid: what is paid outside tv2.'),
    BONUSCARD: Type.Union([Type.String(), Type.Null()], {
      description: 'The bonus card the order earns on.',
    }),
    LINES: Type.Array(PlacedLineSchema),
    SCN: Type.Integer({ minimum: 0, description: 'The SCN of the order’s last change.' }),
  },
  { title: 'PlacedOrder' },
);
