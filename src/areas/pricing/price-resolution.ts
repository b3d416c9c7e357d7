import { percentOf } from '../../kernel/money.ts';
import { PRICING_ERRORS } from './errors.ts';

/**
 * The one place that decides what a wholesale customer pays (docs/pricing.md, "Resolution").
 * Pure: it works on data already loaded, so orders can call it with the rows they hold and tests
 * can call it with tables of cases. Money is integer minor units, percentages basis points.
 *
 * Order of precedence, the first that applies wins (nothing stacks):
 *   1. AGREEMENT          a valid price agreement of the customer or its customer group
 *   2. LINE_DISCOUNT      a valid line discount of the customer for the article's model or group
 *   3. CUSTOMER_DISCOUNT  the customer's own discount, when above 0
 *   4. LIST_PRICE         the SELLING price of the customer's price group
 */
export type PriceRule = 'AGREEMENT' | 'LINE_DISCOUNT' | 'CUSTOMER_DISCOUNT' | 'LIST_PRICE';

export interface PricingCustomer {
  customerNo: number;
  priceGroup: number;
  customerGroup: string | null;
  /** Basis points, 0 for none. */
  discountBp: number;
}

export interface PricingArticle {
  articleNo: string;
  modelNo: string;
  articleGroup: string;
}

export interface AgreementCandidate {
  id: number;
  customerNo: number | null;
  customerGroup: string | null;
  scope: 'ARTICLE' | 'MODEL' | 'ARTICLEGROUP';
  scopeValue: string;
  minQuantity: number;
  /** Inclusive, YYYY-MM-DD. */
  validFrom: string;
  /** Inclusive, YYYY-MM-DD; null: open-ended. */
  validTo: string | null;
  /** DISCOUNT agreements: basis points off the list price; NETPRICE agreements: null. */
  discountBp: number | null;
  /** NETPRICE agreements: net price per currency (minor units); DISCOUNT agreements: empty. */
  netPrices: Readonly<Record<string, number>>;
}

export interface LineDiscountCandidate {
  id: number;
  customerNo: number;
  scope: 'MODEL' | 'ARTICLEGROUP';
  scopeValue: string;
  discountBp: number;
  validFrom: string;
  validTo: string | null;
}

export interface PriceRequest {
  customer: PricingCustomer;
  article: PricingArticle;
  sizex: string;
  /** Whole number, at least 1. */
  quantity: number;
  /** YYYY-MM-DD. */
  date: string;
  currency: string;
}

export interface PriceData {
  /** The SELLING list price of the customer's price group for this article, size and currency. */
  listPrice: number | undefined;
  /** Candidates; the resolver itself checks customer, scope, dates, quantity and currency. */
  agreements: readonly AgreementCandidate[];
  lineDiscounts: readonly LineDiscountCandidate[];
}

export interface ResolvedPrice {
  rule: PriceRule;
  currency: string;
  priceGroup: number;
  /** Minor units. */
  listPrice: number;
  /** Minor units: what one piece costs the customer. */
  netPrice: number;
  /** The percentage applied (basis points); null for a net-price agreement and for LIST_PRICE. */
  discountBp: number | null;
  agreementId: number | null;
  lineDiscountId: number | null;
}

const SCOPE_RANK = { ARTICLE: 0, MODEL: 1, ARTICLEGROUP: 2 } as const;

function validOn(date: string, from: string, to: string | null): boolean {
  return from <= date && (to === null || date <= to);
}

function discounted(listPrice: number, discountBp: number): number {
  return listPrice - percentOf(listPrice, discountBp);
}

function scopeMatches(scope: AgreementCandidate['scope'], value: string, article: PricingArticle): boolean {
  switch (scope) {
    case 'ARTICLE':
      return value === article.articleNo;
    case 'MODEL':
      return value === article.modelNo;
    case 'ARTICLEGROUP':
      return value === article.articleGroup;
  }
}

/** The net price an agreement gives, or undefined when it has no price in the currency. */
function agreementPrice(a: AgreementCandidate, listPrice: number, currency: string): number | undefined {
  if (a.discountBp !== null) return discounted(listPrice, a.discountBp);
  return a.netPrices[currency];
}

/**
 * Resolves the price of one piece. Throws NotFoundError PRICE_NOT_FOUND when the customer's price
 * group has no SELLING price for the article, size and currency: an article is sold in a currency
 * only when it has a list price there, whatever agreements exist.
 *
 * Agreements that apply: not deleted (the caller loads only live ones), for this customer or its
 * customer group, for this article, its model or its article group, valid on the date (from and to
 * inclusive), minimum quantity not above the quantity, and (net-price agreements) a price in the
 * currency. Among those the winner is, in this order: the most specific scope (article, then model,
 * then article group); customer-specific before customer-group; the highest quantity break; the
 * lowest resulting net price; the lowest id.
 *
 * Line discounts that apply: this customer, the article's model or article group, valid on the date.
 * Model before article group; then the highest discount; then the lowest id.
 */
export function resolvePrice(request: PriceRequest, data: PriceData): ResolvedPrice {
  const { customer, article, quantity, date, currency } = request;
  const listPrice = data.listPrice;
  if (listPrice === undefined) {
    throw PRICING_ERRORS.PRICE_NOT_FOUND(
      `Article ${article.articleNo} size ${request.sizex} has no selling price in ${currency} for price group ${customer.priceGroup}.`,
    );
  }
  const base = { currency, priceGroup: customer.priceGroup, listPrice };

  let best: { a: AgreementCandidate; price: number } | undefined;
  for (const a of data.agreements) {
    const forCustomer =
      a.customerNo === customer.customerNo ||
      (a.customerNo === null && a.customerGroup !== null && a.customerGroup === customer.customerGroup);
    if (!forCustomer || !scopeMatches(a.scope, a.scopeValue, article)) continue;
    if (!validOn(date, a.validFrom, a.validTo) || a.minQuantity > quantity) continue;
    const price = agreementPrice(a, listPrice, currency);
    if (price === undefined) continue;
    if (best === undefined || agreementBeats(a, price, best.a, best.price)) best = { a, price };
  }
  if (best) {
    return {
      ...base,
      rule: 'AGREEMENT',
      netPrice: best.price,
      discountBp: best.a.discountBp,
      agreementId: best.a.id,
      lineDiscountId: null,
    };
  }

  let line: LineDiscountCandidate | undefined;
  for (const d of data.lineDiscounts) {
    if (d.customerNo !== customer.customerNo || !scopeMatches(d.scope, d.scopeValue, article)) continue;
    if (!validOn(date, d.validFrom, d.validTo)) continue;
    if (line === undefined || lineBeats(d, line)) line = d;
  }
  if (line) {
    return {
      ...base,
      rule: 'LINE_DISCOUNT',
      netPrice: discounted(listPrice, line.discountBp),
      discountBp: line.discountBp,
      agreementId: null,
      lineDiscountId: line.id,
    };
  }

  if (customer.discountBp > 0) {
    return {
      ...base,
      rule: 'CUSTOMER_DISCOUNT',
      netPrice: discounted(listPrice, customer.discountBp),
      discountBp: customer.discountBp,
      agreementId: null,
      lineDiscountId: null,
    };
  }
  return {
    ...base,
    rule: 'LIST_PRICE',
    netPrice: listPrice,
    discountBp: null,
    agreementId: null,
    lineDiscountId: null,
  };
}

/** Whether agreement `a` (net price `pa`) wins over `b` (net price `pb`). */
function agreementBeats(a: AgreementCandidate, pa: number, b: AgreementCandidate, pb: number): boolean {
  const scope = SCOPE_RANK[a.scope] - SCOPE_RANK[b.scope];
  if (scope !== 0) return scope < 0;
  const aCustomer = a.customerNo !== null;
  const bCustomer = b.customerNo !== null;
  if (aCustomer !== bCustomer) return aCustomer;
  if (a.minQuantity !== b.minQuantity) return a.minQuantity > b.minQuantity;
  if (pa !== pb) return pa < pb;
  return a.id < b.id;
}

function lineBeats(a: LineDiscountCandidate, b: LineDiscountCandidate): boolean {
  const scope = SCOPE_RANK[a.scope] - SCOPE_RANK[b.scope];
  if (scope !== 0) return scope < 0;
  if (a.discountBp !== b.discountBp) return a.discountBp > b.discountBp;
  return a.id < b.id;
}
