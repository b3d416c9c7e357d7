import { Type } from 'typebox';

const Money = (description: string) =>
  Type.Number({ description: `${description} At most two decimals (exact: kept in cents).` });
const Nullable = <
  T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer> | ReturnType<typeof Type.Number>,
>(
  schema: T,
) => Type.Union([schema, Type.Null()]);
const DateText = (description: string) =>
  Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: `${description} YYYY-MM-DD.` });

/** One price group of B2BGETPRICE (documented shape, keys with spaces included). */
const PriceGroupSchema = Type.Object(
  {
    PRICEGROUP: Type.Integer(),
    'PRICE PER CURRENCY': Type.Array(
      Type.Object({
        CURRENCY: Type.String({ description: 'ISO 4217.' }),
        'PRICE PER SIZE': Type.Array(Type.Object({ PRICE: Money('Price.'), SIZEX: Type.String() })),
      }),
    ),
  },
  { title: 'PriceGroupPrices' },
);

export const PriceArticleSchema = Type.Object(
  {
    ARTICLE: Type.String(),
    RECOMMENDED: Type.Array(PriceGroupSchema, {
      description: 'Recommended (retail) prices per price group.',
    }),
    SELLING: Type.Array(PriceGroupSchema, { description: 'Selling (wholesale) prices per price group.' }),
  },
  { title: 'ArticlePrices' },
);

const ListPriceKeyProperties = {
  ARTICLE: Type.String(),
  PRICETYPE: Type.Union([Type.Literal('RECOMMENDED'), Type.Literal('SELLING')]),
  PRICEGROUP: Type.Integer(),
  CURRENCY: Type.String(),
  SIZEX: Type.String(),
};
export const ListPriceKeySchema = Type.Object(ListPriceKeyProperties, { title: 'PriceKey' });
export const ListPriceSchema = Type.Object(
  {
    ...ListPriceKeyProperties,
    PRICE: Money('List price.'),
    SCN: Type.Integer(),
  },
  { title: 'Price' },
);

export const AgreementSchema = Type.Object(
  {
    AGREEMENT: Type.Integer({ description: 'Agreement id.' }),
    CUSTOMER: Nullable(Type.Integer({ description: 'Set for a customer-specific agreement.' })),
    CUSTOMERGROUP: Nullable(Type.String({ description: 'Set for a customer-group agreement.' })),
    ARTICLE: Nullable(Type.String()),
    MODEL: Nullable(Type.String()),
    ARTICLEGROUP: Nullable(
      Type.String({ description: 'Exactly one of ARTICLE, MODEL, ARTICLEGROUP is set.' }),
    ),
    MINQUANTITY: Type.Integer({ description: 'Quantity break: applies from this quantity on.' }),
    VALIDFROM: DateText('First day (inclusive).'),
    VALIDTO: Nullable(DateText('Last day (inclusive); null: open-ended.')),
    TYPE: Type.Union([Type.Literal('NETPRICE'), Type.Literal('DISCOUNT')]),
    DISCOUNTPERC: Nullable(Type.Number({ description: 'Percentage off the list price (TYPE DISCOUNT).' })),
    NETPRICES: Type.Array(Type.Object({ CURRENCY: Type.String(), PRICE: Money('Net price.') }), {
      description: 'Net price per currency (TYPE NETPRICE).',
    }),
    SCN: Type.Integer(),
  },
  { title: 'PriceAgreement' },
);

export const LineDiscountSchema = Type.Object(
  {
    LINEDISCOUNT: Type.Integer({ description: 'Line discount id.' }),
    CUSTOMER: Type.Integer(),
    MODEL: Nullable(Type.String()),
    ARTICLEGROUP: Nullable(Type.String({ description: 'Exactly one of MODEL and ARTICLEGROUP is set.' })),
    DISCOUNTPERC: Type.Number(),
    VALIDFROM: DateText('First day (inclusive).'),
    VALIDTO: Nullable(DateText('Last day (inclusive); null: open-ended.')),
    SCN: Type.Integer(),
  },
  { title: 'LineDiscount' },
);

export const ActionPriceSchema = Type.Object(
  {
    ACTIONPRICE: Type.Integer({ description: 'Action price id.' }),
    ARTICLE: Type.String(),
    SIZEX: Nullable(Type.String({ description: 'Null: every size of the article.' })),
    CURRENCY: Type.String(),
    PRICE: Money('Action price.'),
    STARTDATE: DateText('First day (inclusive).'),
    ENDDATE: DateText('Last day (inclusive).'),
    SCN: Type.Integer(),
  },
  { title: 'ActionPrice' },
);

export const ArticlePriceSchema = Type.Object(
  {
    CUSTOMER: Type.Integer(),
    ARTICLE: Type.String(),
    SIZEX: Type.String(),
    QUANTITY: Type.Integer(),
    DATE: DateText('The date the price holds on.'),
    CURRENCY: Type.String(),
    PRICEGROUP: Type.Integer({ description: "The customer's price group." }),
    RULE: Type.Union(
      [
        Type.Literal('AGREEMENT'),
        Type.Literal('LINE_DISCOUNT'),
        Type.Literal('CUSTOMER_DISCOUNT'),
        Type.Literal('LIST_PRICE'),
      ],
      { description: 'The rule that produced NETPRICE (docs/pricing.md, in this order of precedence).' },
    ),
    LISTPRICE: Money('Selling list price of the price group.'),
    RECOMMENDEDPRICE: Nullable(Money('Recommended (retail) price of the price group, for information.')),
    DISCOUNTPERC: Nullable(
      Type.Number({ description: 'The percentage applied; null for a net price or the list price.' }),
    ),
    NETPRICE: Money('Price of one piece.'),
    LINEAMOUNT: Money('NETPRICE times QUANTITY.'),
    AGREEMENT: Nullable(Type.Integer({ description: 'The agreement applied (RULE AGREEMENT).' })),
    LINEDISCOUNT: Nullable(Type.Integer({ description: 'The line discount applied (RULE LINE_DISCOUNT).' })),
  },
  { title: 'ArticlePrice' },
);
