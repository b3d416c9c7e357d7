import { type TProperties, Type } from 'typebox';
import { LanguageSchema, NextOffsetSchema, ScnSchema } from '../../kernel/schemas.ts';
import { PaidTenderSchema } from './placement-schemas.ts';
import { ORDER_STATES } from './rules/states.ts';

/**
 * The answers of the order reads (docs/orders.md, "Reading orders and the state feeds").
 * B2B_GetOrder keeps the documented keys of B2BGETORDER exactly (spaces and spelling included) and
 * continues in their style; the other reads use plain upper-case keys.
 */

const Obj = (props: TProperties, description?: string, title?: string) =>
  Type.Object(props, {
    additionalProperties: false,
    ...(description ? { description } : {}),
    // names it in the OpenAPI document (src/http/openapi-components.ts)
    ...(title ? { title } : {}),
  });

const StateSchema = Type.Union(
  ORDER_STATES.map((s) => Type.Literal(s)),
  { description: 'The reported state: derived from the line counters (docs/orders.md, "States").' },
);
const Money = (description: string) => Type.Number({ description: `${description} Two decimals.` });
const Instant = (description: string) => Type.String({ description: `${description} ISO 8601 UTC.` });

const quantities = {
  QUANTITY: Type.Integer({ description: 'Pieces ordered.' }),
  CANCELLED: Type.Integer({ description: 'Pieces cancelled.' }),
  RESERVED: Type.Integer({ description: 'Pieces of the open quantity reserved in stock.' }),
  DELIVERED: Type.Integer({ description: 'Pieces delivered.' }),
  RETURNED: Type.Integer({ description: 'Pieces of the delivered ones returned.' }),
  OPEN: Type.Integer({ description: 'Still to deliver: QUANTITY − CANCELLED − DELIVERED.' }),
  BACKORDER: Type.Integer({ description: 'Open and not reserved (waiting for stock).' }),
};

const prices = {
  PERCVAT: Type.Number({ description: 'VAT rate, percent.' }),
  PRICE: Money('List price per piece the rule started from.'),
  NETPRICE: Money('Price per piece by the server’s price resolution.'),
  DISCOUNT: Type.Number({
    description: 'The rule’s discount, percent (0 for a net price or the list price).',
  }),
  PRICERULE: Type.String({ description: 'The rule that produced NETPRICE.' }),
  AMOUNT: Money('The line’s amount.'),
};

const orderTotals = {
  PRICESINCLUDEVAT: Type.Boolean({ description: 'true for retail orders (prices include VAT).' }),
  NET: Money('Total without VAT.'),
  VAT: Money('VAT total.'),
  GROSS: Money('Total with VAT.'),
};
const orderMoney = { CURRENCY: Type.String({ description: 'ISO 4217.' }), ...orderTotals };

const common = {
  DATECHANGED: Instant('Last change of the order.'),
  SCN: Type.Integer({ description: 'SCN of the order’s last change.' }),
};

const addressFields = {
  ADDRESS: Type.String({ description: 'Street.' }),
  CITY: Type.String(),
  COUNTRYPOST: Type.String({ description: 'ISO 3166-1 alpha-2 country code.' }),
  EXTRAADDRESSNO: Type.String({ description: 'The customer’s address number ("0" the invoice address).' }),
  HOUSENUMBER: Type.String(),
  MAPAREA: Type.String(),
  POSTALCODE: Type.String(),
  POSTBOX: Type.String(),
};

const ParameterCode = Type.Object({ ...LanguageSchema.properties, PARAMETERCODE: Type.Integer() });
const ParameterNumber = Type.Object({
  ...LanguageSchema.properties,
  PARAMETERCODE: Type.Integer(),
  PARAMETERNO: Type.Integer(),
});

export const GetOrderItemSchema = Obj(
  {
    AFTERTERM: Type.String({ description: 'Payment term: days after the invoice date (digits).' }),
    CURRENCY: Type.String({ description: 'ISO 4217.' }),
    CUSTOMER: Type.Integer(),
    'DELIVERY ADDRESSES': Type.Array(Obj(addressFields), {
      description: 'The delivery address as it was when the order was placed (one).',
    }),
    DISCOUNTPERCENTAGE: Type.Number({ description: 'The customer’s discount at placement, percent.' }),
    DISCOUNT_DATE1: Type.String({ description: 'Early-payment discount date: "" (tv2 keeps none).' }),
    DISCOUNT_DATE2: Type.String({ description: 'Second early-payment discount date: "" (tv2 keeps none).' }),
    FREIGHTCOSTS: Money('Freight.'),
    'INVOICE ADDRESSES': Type.Array(
      Obj({ ...addressFields, VATNO: Type.String({ description: 'The customer’s VAT number.' }) }),
      { description: 'The invoice address as it was when the order was placed (one).' },
    ),
    MYSQLODERNO: Type.Integer({ description: 'Our order number (strorderno).' }),
    ORDERDATE: Type.String({ description: 'YYYY-MM-DD.' }),
    ORDERDETAILS: Type.Array(
      Obj({
        ARTICLE: Type.String(),
        ARTICLEDESCRIPTION: LanguageSchema,
        ARTICLEPARAMETERCODES: Type.Array(ParameterCode),
        ARTICLEPARAMETERNUMBERS: Type.Array(ParameterNumber),
        ARTICLESEARCHNAME1: LanguageSchema,
        ARTICLESEARCHNAME2: LanguageSchema,
        ARTICLESEARCHNAME3: LanguageSchema,
        CODEDISCOUNT: Type.String({
          description: 'The price rule of the article’s sizes when they share one, else "" (each size says).',
        }),
        DISCOUNT: Type.Number({
          description: 'The rule’s discount percent when the sizes share one, else 0 (each size says).',
        }),
        MODELARTICLEDESCRIPTION: LanguageSchema,
        ORDERSIZES: Type.Array(
          Obj({
            'IS ASSORTEMENT': Type.String({
              description: '"0": a size sold by the piece ("1": an assortment).',
            }),
            ...prices,
            SIZEX: Type.String(),
            BARCODE: Type.String(),
            LINE: Type.Integer({ description: 'The order line (one size of one article).' }),
            ...quantities,
            ORDERCUSTOMERSEQUENCE: Type.String({ description: 'The customer’s own line reference.' }),
          }),
        ),
      }),
      { description: 'One entry per article, its sizes in ORDERSIZES.' },
    ),
    WEBORDER: Type.String({ description: 'The customer’s reference of the order.' }),
    STATE: StateSchema,
    HEADERTEXT: Type.String(),
    BOTTOMTEXT: Type.String(),
    ...orderTotals,
    VATBREAKDOWN: Type.Array(
      Obj({ PERCVAT: Type.Number(), NET: Money('Net.'), VAT: Money('VAT.'), GROSS: Money('Gross.') }),
      { description: 'Per VAT rate, as computed at placement.' },
    ),
    ...common,
  },
  undefined,
  'Order',
);

const summary = {
  ORDERNO: Type.Integer({ description: 'Our order number (strorderno; MYSQLODERNO of B2B_GetOrder).' }),
  WEBORDER: Type.String({ description: 'The party’s reference of the order.' }),
};

export const OrderStateItemSchema = Obj(
  {
    ...summary,
    CUSTOMER: Type.Integer(),
    ORDERDATE: Type.String({ description: 'YYYY-MM-DD.' }),
    STATE: StateSchema,
    LINES: Type.Integer({ description: 'Order lines (sizes); the quantities are summed over them.' }),
    ...quantities,
    ...common,
  },
  undefined,
  'OrderState',
);

export const OrderHistoryItemSchema = Obj(
  {
    ...OrderStateItemSchema.properties,
    ...orderMoney,
    FREIGHTCOSTS: Money('Freight.'),
  },
  undefined,
  'OrderHistoryItem',
);

export const ClientOrderSchema = Obj(
  {
    ...summary,
    CLIENT: Type.Integer(),
    ORDERDATE: Type.String({ description: 'YYYY-MM-DD.' }),
    STATE: StateSchema,
    ...orderMoney,
    DELIVERY: Type.Union([Type.Literal('ADDRESS'), Type.Literal('PICKUP')]),
    DELIVERYADDRESS: Type.Union(
      [
        Obj({
          NAME: Type.String(),
          ADDRESS: Type.String(),
          HOUSENUMBER: Type.String(),
          POSTALCODE: Type.String(),
          CITY: Type.String(),
          COUNTRY: Type.String(),
        }),
        Type.Null(),
      ],
      { description: 'Where the order is delivered, as placed; null for a pickup.' },
    ),
    PICKUPLOCATION: Type.Union([Type.String(), Type.Null()], {
      description: 'The pickup location, or null.',
    }),
    PAYMENTREFERENCE: Type.Union([Type.String(), Type.Null()]),
    TENDERS: Type.Array(PaidTenderSchema, {
      description: 'Tenders that paid the order (means of payment, not discounts), with what each got back.',
    }),
    TOPAY: Type.Number({ description: 'GROSS less what TENDERS paid: paid outside tv2.' }),
    BONUSCARD: Type.Union([Type.String(), Type.Null()], {
      description: 'The bonus card the order earns on.',
    }),
    BONUSEARNED: Type.Number({ description: 'What the order has put on its bonus card so far.' }),
    LINES: Type.Array(
      Obj({
        LINE: Type.Integer(),
        BARCODE: Type.String(),
        ARTICLE: Type.String(),
        SIZEX: Type.String(),
        ...quantities,
        ...prices,
      }),
    ),
    ...common,
  },
  undefined,
  'ClientOrder',
);

export const StateChangeSchema = Obj(
  {
    CHANGE: Type.Integer({ description: 'The move’s own number (history id).' }),
    ...summary,
    CUSTOMER: Type.Optional(Type.Integer({ description: 'B2B: the customer.' })),
    CLIENT: Type.Optional(Type.Integer({ description: 'B2C: the client.' })),
    FROMSTATE: Type.Union([Type.String(), Type.Null()], { description: 'null for the placement.' }),
    STATE: Type.String({ description: 'The state the move led to.' }),
    ACTION: Type.String({ description: 'The move (place, confirm, deliver, cancel, ...).' }),
    ACTOR: Type.String({ description: 'Who moved it (CUSTOMER, CLIENT, BACK_OFFICE, SYSTEM).' }),
    REFERENCE: Type.Union([Type.String(), Type.Null()], {
      description: 'A delivery or return number, or null.',
    }),
    AT: Instant('When.'),
    SCN: Type.Integer({ description: 'SCN of the move.' }),
  },
  undefined,
  'OrderStateChange',
);

export const GetOrderAnswer = Obj({
  SCN: ScnSchema,
  NEXTOFFSET: NextOffsetSchema,
  ORDERS: Type.Array(GetOrderItemSchema),
});

export const OrderStateAnswer = Obj({
  SCN: ScnSchema,
  NEXTOFFSET: NextOffsetSchema,
  ORDERS: Type.Array(OrderStateItemSchema),
});

export const OrderHistoryAnswer = Obj({
  CUSTOMER: Type.Integer(),
  NEXTOFFSET: NextOffsetSchema,
  ORDERS: Type.Array(OrderHistoryItemSchema),
});

export const ClientOrderStateAnswer = Obj({
  CLIENT: Type.Integer(),
  NEXTOFFSET: NextOffsetSchema,
  ORDERS: Type.Array(ClientOrderSchema),
});

export const StateChangesAnswer = Obj({
  SCN: Type.Integer({
    minimum: 0,
    description:
      'Pass as strscn next time, together with NEXTOFFSET as stroffset (1 when NEXTOFFSET is null).',
  }),
  NEXTOFFSET: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
    description:
      'The stroffset of the next page (the CHANGE number of its first move), passed with this page’s SCN; null: nothing more now.',
  }),
  CHANGES: Type.Array(StateChangeSchema),
});
