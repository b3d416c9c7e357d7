import { Type } from 'typebox';
import { customerScope } from '../../kernel/access.ts';
import { ValidationError } from '../../kernel/errors.ts';
import { FeedSchema, feedAnswer } from '../../kernel/feed-page.ts';
import { MAX_SAFE_INT } from '../../kernel/int-limits.ts';
import { operation } from '../../kernel/operation.ts';
import {
  digits,
  type PageLimits,
  pageParams,
  positiveDigits,
  queryObject,
  text,
  toPage,
  toPositiveInt,
} from '../../kernel/params.ts';
import { rooted } from '../../kernel/schemas.ts';
import { isValidDate, MAX_QUANTITY } from './pricing-rules.ts';
import {
  ActionPriceSchema,
  AgreementSchema,
  ArticlePriceSchema,
  LineDiscountSchema,
  ListPriceKeySchema,
  ListPriceSchema,
  PriceArticleSchema,
} from './schemas.ts';

const PRICE_PAGE: PageLimits = { defaultLimit: 100, maxLimit: 1000 };
const PRICE_CHANGE_PAGE: PageLimits = { defaultLimit: 1000, maxLimit: 5000 };
const AGREEMENT_PAGE: PageLimits = { defaultLimit: 100, maxLimit: 1000 };
const LINE_DISCOUNT_PAGE: PageLimits = { defaultLimit: 100, maxLimit: 1000 };
const ACTION_PRICE_PAGE: PageLimits = { defaultLimit: 500, maxLimit: 5000 };

const SYNC_NOTE =
  'Pages by stroffset/strlimit in position order: stroffset is a position and NEXTOFFSET the position ' +
  'of the next page (not stroffset + strlimit); a full list (strscn 0) holds strlimit records whenever ' +
  'that many remain. With strscn > 0 only what changed after ' +
  'that SCN comes back, and DELETED lists what was deleted since. Keep the SCN of the first page of a ' +
  'pass and pass it as strscn next time.';

const dateParam = (what: string) =>
  Type.String({
    pattern: '^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])$',
    description: `${what} YYYY-MM-DD (default today, UTC).`,
  });
const currencyParam = (what: string) => Type.String({ pattern: '^[A-Z]{3}$', description: what });
const flagParam = (what: string) => Type.Union([Type.Literal('0'), Type.Literal('1')], { description: what });

/** A `strdate` that matches the pattern but is no calendar day (2026-02-30) is a 400 naming it. */
function dateOf(value: string | undefined): string | undefined {
  if (value !== undefined && !isValidDate(value)) {
    throw new ValidationError([{ name: 'strdate', message: 'must be a date YYYY-MM-DD' }]);
  }
  return value;
}

export const B2B_GetAllPrices = operation({
  name: 'B2B_GetAllPrices',
  method: 'GET',
  audience: 'B2B',
  area: 'Prices',
  summary: 'All prices',
  description:
    'List prices per article: RECOMMENDED (retail) and SELLING (wholesale) per price group, currency and ' +
    'size, in the documented B2BGETPRICE shape. Pages by article in the catalogue’s article order (the ' +
    'article’s position, as B2B_GetAllArticles). With strscn > 0 ' +
    'an article whose prices changed comes back with its complete current price set (replace your copy); ' +
    'an article left without any price is listed under DELETED. ' +
    SYNC_NOTE,
  query: queryObject(pageParams(PRICE_PAGE)),
  response: rooted(
    'B2BGETPRICE',
    FeedSchema('ARTICLES', PriceArticleSchema, Type.String(), {
      deleted: { description: 'Articles left without prices since strscn.' },
    }),
  ),
  async handler({ query, services }) {
    const page = await services.pricing.listPrices.listPrices(toPage(query, PRICE_PAGE));
    return feedAnswer('B2BGETPRICE', 'ARTICLES', page);
  },
});

export const B2B_GetPriceChanges = operation({
  name: 'B2B_GetPriceChanges',
  method: 'GET',
  audience: 'B2B',
  area: 'Prices',
  summary: 'Price changes',
  description:
    'List price rows (article, price type, price group, currency, size) new or changed after strscn, and ' +
    'under DELETED the keys of those deleted since; strscn 0 gives every live row. In position order (the ' +
    'order rows were first written). ' +
    'Agreements, line discounts and action prices sync through their own lists with strscn. ' +
    SYNC_NOTE,
  query: queryObject(pageParams(PRICE_CHANGE_PAGE)),
  response: rooted('B2BGETPRICECHANGES', FeedSchema('PRICES', ListPriceSchema, ListPriceKeySchema)),
  async handler({ query, services }) {
    const page = await services.pricing.listPrices.listPriceChanges(toPage(query, PRICE_CHANGE_PAGE));
    return feedAnswer('B2BGETPRICECHANGES', 'PRICES', page);
  },
});

export const B2B_GetArticlePrice = operation({
  name: 'B2B_GetArticlePrice',
  method: 'GET',
  audience: 'B2B',
  area: 'Prices',
  summary: 'Price of one article',
  description:
    'What a customer pays for one piece of an article in a size, for a quantity, on a date, in a currency. ' +
    'The first rule that applies wins: AGREEMENT, LINE_DISCOUNT, CUSTOMER_DISCOUNT, LIST_PRICE ' +
    '(docs/pricing.md). 404 PRICE_NOT_FOUND when the customer’s price group has no selling price for the ' +
    'size in the currency.',
  query: queryObject({
    strcustomer: positiveDigits('Customer number.'),
    strarticle: text('Article number.'),
    strsize: text('Size (SIZEX).'),
    strquantity: Type.Optional(
      positiveDigits('Quantity (default 1); selects quantity breaks.', '1', MAX_QUANTITY),
    ),
    strdate: Type.Optional(dateParam('The date the price holds on,')),
    strcurrency: Type.Optional(currencyParam("ISO 4217 currency (default the customer's).")),
  }),
  response: rooted('B2BGETARTICLEPRICE', ArticlePriceSchema),
  async handler({ query, principal, services }) {
    const customerNo = customerScope(principal, toPositiveInt('strcustomer', query.strcustomer));
    if (customerNo === undefined)
      throw new ValidationError([{ name: 'strcustomer', message: 'must be 1 or more' }]);
    const price = await services.pricing.articlePrices.articlePrice({
      customerNo,
      articleNo: query.strarticle,
      sizex: query.strsize,
      quantity: toPositiveInt('strquantity', query.strquantity ?? '1'),
      date: dateOf(query.strdate),
      currency: query.strcurrency,
    });
    return { B2BGETARTICLEPRICE: price };
  },
});

export const B2B_GetAllPriceAgreements = operation({
  name: 'B2B_GetAllPriceAgreements',
  method: 'GET',
  audience: 'B2B',
  area: 'Prices',
  summary: 'All price agreements',
  description:
    'Price agreements in position order (creation order): net prices or discounts for a customer or a ' +
    'customer group, for an article, a model or an article group, with validity dates and quantity ' +
    "breaks. strcustomer > 0 gives only that customer's agreements and those of its customer group. " +
    'Expired and future ' +
    'agreements are listed too (judge VALIDFROM/VALIDTO). ' +
    SYNC_NOTE,
  query: queryObject({
    strcustomer: Type.Optional(digits('0 (default): all customers; > 0: that customer only.', '0')),
    ...pageParams(AGREEMENT_PAGE),
  }),
  response: rooted(
    'B2BGETALLPRICEAGREEMENTS',
    FeedSchema('AGREEMENTS', AgreementSchema, Type.Integer(), {
      deleted: { description: 'Agreement ids deleted since strscn.' },
    }),
  ),
  async handler({ query, principal, services }) {
    const customerNo = customerScope(principal, Number(query.strcustomer ?? '0'));
    const page = await services.pricing.agreements.listAgreements(toPage(query, AGREEMENT_PAGE), customerNo);
    return feedAnswer('B2BGETALLPRICEAGREEMENTS', 'AGREEMENTS', page);
  },
});

export const B2B_GetPriceAgreement = operation({
  name: 'B2B_GetPriceAgreement',
  method: 'GET',
  audience: 'B2B',
  area: 'Prices',
  summary: 'One price agreement',
  description: 'One agreement by its id (AGREEMENT), as a one-element AGREEMENTS list.',
  query: queryObject({ stragreement: positiveDigits('Agreement id.', undefined, MAX_SAFE_INT) }),
  response: rooted(
    'B2BGETPRICEAGREEMENT',
    Type.Object({ AGREEMENTS: Type.Array(AgreementSchema, { minItems: 1, maxItems: 1 }) }),
  ),
  async handler({ query, principal, services }) {
    const id = toPositiveInt('stragreement', query.stragreement);
    const agreement = await services.pricing.agreements.agreement(id, customerScope(principal, 0));
    return { B2BGETPRICEAGREEMENT: { AGREEMENTS: [agreement] } };
  },
});

export const B2B_GetCustomerLineDiscounts = operation({
  name: 'B2B_GetCustomerLineDiscounts',
  method: 'GET',
  audience: 'B2B',
  area: 'Prices',
  summary: 'Line discounts of a customer',
  description:
    'Discount percentages of a customer per model or article group, with validity dates, in position ' +
    'order (creation order). ' +
    'strcustomer 0: of all customers. ' +
    SYNC_NOTE,
  query: queryObject({
    strcustomer: digits('0: all customers; > 0: that customer only.'),
    ...pageParams(LINE_DISCOUNT_PAGE),
  }),
  response: rooted(
    'B2BGETCUSTOMERLINEDISCOUNTS',
    FeedSchema('LINEDISCOUNTS', LineDiscountSchema, Type.Integer(), {
      deleted: { description: 'Line discount ids deleted since strscn.' },
    }),
  ),
  async handler({ query, principal, services }) {
    const customerNo = customerScope(principal, Number(query.strcustomer));
    const page = await services.pricing.agreements.listLineDiscounts(
      toPage(query, LINE_DISCOUNT_PAGE),
      customerNo,
    );
    return feedAnswer('B2BGETCUSTOMERLINEDISCOUNTS', 'LINEDISCOUNTS', page);
  },
});

export const B2C_GetAllActionPrice = operation({
  name: 'B2C_GetAllActionPrice',
  method: 'GET',
  audience: 'B2C',
  area: 'Prices',
  summary: 'All action prices',
  description:
    'Retail promotion prices of articles published for retail, in position order (creation order): by ' +
    'default those running ' +
    'today (STARTDATE <= date <= ENDDATE); strdate picks another day, strall=1 lists every one whatever ' +
    'its dates. In a feed (strscn > 0), action prices that changed and are not shown (deleted, not ' +
    'running on the date, article no longer published) come under DELETED. A client keeping a copy ' +
    'should sync with strall=1 and judge the dates itself: time passing changes no SCN. ' +
    SYNC_NOTE,
  query: queryObject({
    ...pageParams(ACTION_PRICE_PAGE),
    strdate: Type.Optional(dateParam('Only action prices running on this day,')),
    strall: Type.Optional(flagParam('1: every action price, whatever its dates (default 0).')),
  }),
  response: rooted(
    'B2CGETALLACTIONPRICE',
    FeedSchema('ACTIONPRICES', ActionPriceSchema, Type.Integer(), {
      deleted: { description: 'Action price ids no longer shown since strscn.' },
    }),
  ),
  async handler({ query, services }) {
    const page = await services.pricing.actionPrices.listActionPrices(toPage(query, ACTION_PRICE_PAGE), {
      date: dateOf(query.strdate),
      all: query.strall === '1',
    });
    return feedAnswer('B2CGETALLACTIONPRICE', 'ACTIONPRICES', page);
  },
});

export const B2C_GetArticleACTIONPrice = operation({
  name: 'B2C_GetArticleACTIONPrice',
  method: 'GET',
  audience: 'B2C',
  area: 'Prices',
  summary: 'Action price of one article',
  description:
    'The action prices of one article published for retail, running today unless strdate or strall=1 ' +
    'say otherwise; an empty list when it has none. With strsize, those for that size: a size-specific ' +
    'action price hides an every-size one (SIZEX null) of the same currency.',
  query: queryObject({
    strarticle: text('Article number.'),
    strsize: Type.Optional(text('Size (SIZEX).')),
    strcurrency: Type.Optional(currencyParam('ISO 4217 currency (default: all).')),
    strdate: Type.Optional(dateParam('Only action prices running on this day,')),
    strall: Type.Optional(flagParam('1: every action price, whatever its dates (default 0).')),
  }),
  response: rooted('B2CGETARTICLEACTIONPRICE', Type.Object({ ACTIONPRICES: Type.Array(ActionPriceSchema) })),
  async handler({ query, services }) {
    const rows = await services.pricing.actionPrices.articleActionPrices(query.strarticle, {
      sizex: query.strsize,
      currency: query.strcurrency,
      date: dateOf(query.strdate),
      all: query.strall === '1',
    });
    return { B2CGETARTICLEACTIONPRICE: { ACTIONPRICES: rows } };
  },
});
