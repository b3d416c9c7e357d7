import type { Static } from 'typebox';
import { fromLanguageJson, type LanguageObject } from '../../kernel/language.ts';
import { fromMinor, percentFromBasisPoints } from '../../kernel/money.ts';
import type { HistoryRow, ReadLineRow, ReadOrderRow, ReadVatRow } from './order-read-repository.ts';
import type { OrderTenderRow } from './order-tender-repository.ts';
import { tendersToWire } from './placed-order.ts';
import type {
  ClientOrderSchema,
  GetOrderItemSchema,
  OrderHistoryItemSchema,
  OrderStateItemSchema,
  StateChangeSchema,
} from './read-schemas.ts';
import { derivedState, type LineCounters, openQuantity } from './rules/line-counters.ts';
import type { OrderState, StoredState } from './rules/states.ts';

/**
 * The orders as the read operations answer them (docs/orders.md, "Reading orders and the state
 * feeds"): pure functions of the stored rows. The state is always the one derived from the lines.
 */

type GetOrderItem = Static<typeof GetOrderItemSchema>;
type OrderStateItem = Static<typeof OrderStateItemSchema>;
type OrderHistoryItem = Static<typeof OrderHistoryItemSchema>;
type ClientOrder = Static<typeof ClientOrderSchema>;
type StateChange = Static<typeof StateChangeSchema>;

/** The article texts B2B_GetOrder shows per article, read from the catalog's article document. */
export interface ArticleTexts {
  ARTICLEDESCRIPTION: LanguageObject;
  ARTICLEPARAMETERCODES: Array<LanguageObject & { PARAMETERCODE: number }>;
  ARTICLEPARAMETERNUMBERS: Array<LanguageObject & { PARAMETERCODE: number; PARAMETERNO: number }>;
  ARTICLESEARCHNAME1: LanguageObject;
  ARTICLESEARCHNAME2: LanguageObject;
  ARTICLESEARCHNAME3: LanguageObject;
  MODELARTICLEDESCRIPTION: LanguageObject;
}

const EMPTY_TEXT = fromLanguageJson('{}');

/** Instants on the wire: ISO 8601 UTC to the second (wire conventions). */
const instant = (iso: string) => `${iso.slice(0, 19)}Z`;

/** The texts of an article document (the catalog's wire JSON), empty where it has none (an article deleted since). */
export function articleTextsOf(json: string | undefined): ArticleTexts {
  const a = (json === undefined ? {} : JSON.parse(json)) as Partial<ArticleTexts>;
  const text = (v: LanguageObject | undefined) => ({ ...EMPTY_TEXT, ...v });
  return {
    ARTICLEDESCRIPTION: text(a.ARTICLEDESCRIPTION),
    ARTICLEPARAMETERCODES: a.ARTICLEPARAMETERCODES ?? [],
    ARTICLEPARAMETERNUMBERS: a.ARTICLEPARAMETERNUMBERS ?? [],
    ARTICLESEARCHNAME1: text(a.ARTICLESEARCHNAME1),
    ARTICLESEARCHNAME2: text(a.ARTICLESEARCHNAME2),
    ARTICLESEARCHNAME3: text(a.ARTICLESEARCHNAME3),
    MODELARTICLEDESCRIPTION: text(a.MODELARTICLEDESCRIPTION),
  };
}

export function countersOf(l: ReadLineRow): LineCounters {
  return {
    ordered: Number(l.ordered),
    cancelled: Number(l.cancelled),
    reserved: Number(l.reserved),
    delivered: Number(l.delivered),
    returned: Number(l.returned),
  };
}

/** The state an order is reported in: derived from its lines' counters (docs/orders.md, "States"). */
export function reportedState(order: ReadOrderRow, lines: readonly ReadLineRow[]): OrderState {
  return derivedState(lines.map(countersOf), order.state as StoredState);
}

/** The counters of a line on the wire (also summed over an order). */
function quantities(c: LineCounters) {
  return {
    QUANTITY: c.ordered,
    CANCELLED: c.cancelled,
    RESERVED: c.reserved,
    DELIVERED: c.delivered,
    RETURNED: c.returned,
    OPEN: openQuantity(c),
    BACKORDER: Math.max(0, openQuantity(c) - c.reserved),
  };
}

function totals(lines: readonly ReadLineRow[]) {
  const sum = { ordered: 0, cancelled: 0, reserved: 0, delivered: 0, returned: 0 };
  for (const l of lines) {
    const c = countersOf(l);
    for (const k of Object.keys(sum) as Array<keyof typeof sum>) sum[k] += c[k];
  }
  return quantities(sum);
}

function money(order: ReadOrderRow) {
  return { CURRENCY: order.currency, ...orderTotals(order) };
}

function orderTotals(order: ReadOrderRow) {
  return {
    PRICESINCLUDEVAT: Number(order.prices_include_vat) === 1,
    NET: fromMinor(Number(order.net)),
    VAT: fromMinor(Number(order.vat_total)),
    GROSS: fromMinor(Number(order.gross)),
  };
}

const ADDRESS_FIELDS = [
  'ADDRESS',
  'CITY',
  'COUNTRYPOST',
  'EXTRAADDRESSNO',
  'HOUSENUMBER',
  'MAPAREA',
  'POSTALCODE',
  'POSTBOX',
] as const;

/** A customer's address as kept on the order at placement (the customers' wire form), every field a string. */
function customerAddress(json: string | null, withVatNo: boolean) {
  if (json === null) return [];
  const stored = JSON.parse(json) as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const f of withVatNo ? [...ADDRESS_FIELDS, 'VATNO'] : ADDRESS_FIELDS) out[f] = String(stored[f] ?? '');
  return [out as Record<(typeof ADDRESS_FIELDS)[number], string> & { VATNO: string }];
}

/** A retail delivery address as kept on the order, or null for a pickup. */
function clientAddress(json: string | null) {
  if (json === null) return null;
  const a = JSON.parse(json) as Record<string, unknown>;
  const s = (k: string) => String(a[k] ?? '');
  return {
    NAME: s('NAME'),
    ADDRESS: s('ADDRESS'),
    HOUSENUMBER: s('HOUSENUMBER'),
    POSTALCODE: s('POSTALCODE'),
    CITY: s('CITY'),
    COUNTRY: s('COUNTRY'),
  };
}

/** What every size answers of its price: list price, net price, the rule and its percentage. */
function priced(l: ReadLineRow) {
  return {
    PERCVAT: percentFromBasisPoints(Number(l.vat_bp)),
    PRICE: fromMinor(Number(l.list_price)),
    NETPRICE: fromMinor(Number(l.unit_price)),
    DISCOUNT: percentFromBasisPoints(Number(l.rule_discount_bp ?? 0)),
    PRICERULE: l.price_rule,
    AMOUNT: fromMinor(Number(l.amount)),
  };
}

/** One B2B_GetOrder order: the documented keys first, then the order's own in the same style. */
export function getOrderItem(
  order: ReadOrderRow,
  lines: readonly ReadLineRow[],
  vat: readonly ReadVatRow[],
  texts: ReadonlyMap<string, ArticleTexts>,
): GetOrderItem {
  const byArticle = new Map<string, ReadLineRow[]>();
  for (const l of lines) byArticle.set(l.article_no, [...(byArticle.get(l.article_no) ?? []), l]);
  return {
    AFTERTERM: String(Number(order.payment_days)),
    CURRENCY: order.currency,
    CUSTOMER: Number(order.customer_no),
    'DELIVERY ADDRESSES': customerAddress(order.delivery_address, false).map(({ VATNO: _, ...a }) => a),
    DISCOUNTPERCENTAGE: percentFromBasisPoints(Number(order.customer_discount_bp)),
    DISCOUNT_DATE1: '',
    DISCOUNT_DATE2: '',
    FREIGHTCOSTS: fromMinor(Number(order.freight)),
    'INVOICE ADDRESSES': customerAddress(order.invoice_address, true),
    MYSQLODERNO: Number(order.order_no),
    ORDERDATE: order.date_ordered,
    ORDERDETAILS: [...byArticle].map(([articleNo, sizes]) => {
      const shared = <T>(f: (l: ReadLineRow) => T, none: T) => {
        const first = f(sizes[0]!);
        return sizes.every((l) => f(l) === first) ? first : none;
      };
      return {
        ARTICLE: articleNo,
        ...(texts.get(articleNo) ?? articleTextsOf(undefined)),
        CODEDISCOUNT: shared((l) => l.price_rule, ''),
        DISCOUNT: shared((l) => percentFromBasisPoints(Number(l.rule_discount_bp ?? 0)), 0),
        ORDERSIZES: sizes.map((l) => ({
          'IS ASSORTEMENT': String(Number(l.assortment)),
          ...priced(l),
          SIZEX: l.sizex,
          BARCODE: l.barcode,
          LINE: Number(l.line_no),
          ...quantities(countersOf(l)),
          ORDERCUSTOMERSEQUENCE: l.customer_sequence,
        })),
      };
    }),
    WEBORDER: order.weborder,
    STATE: reportedState(order, lines),
    HEADERTEXT: order.header_text,
    BOTTOMTEXT: order.bottom_text,
    ...orderTotals(order),
    VATBREAKDOWN: vat.map((v) => ({
      PERCVAT: percentFromBasisPoints(Number(v.vat_bp)),
      NET: fromMinor(Number(v.net)),
      VAT: fromMinor(Number(v.vat)),
      GROSS: fromMinor(Number(v.gross)),
    })),
    DATECHANGED: instant(order.updated_at),
    SCN: Number(order.scn),
  };
}

/** One order of B2B_GetOrderState: its state and its quantities summed over its lines. */
export function orderStateItem(order: ReadOrderRow, lines: readonly ReadLineRow[]): OrderStateItem {
  return {
    ORDERNO: Number(order.order_no),
    WEBORDER: order.weborder,
    CUSTOMER: Number(order.customer_no),
    ORDERDATE: order.date_ordered,
    STATE: reportedState(order, lines),
    LINES: lines.length,
    ...totals(lines),
    DATECHANGED: instant(order.updated_at),
    SCN: Number(order.scn),
  };
}

/** One order of B2B_GetOrderHistory: state, quantities and money. */
export function orderHistoryItem(order: ReadOrderRow, lines: readonly ReadLineRow[]): OrderHistoryItem {
  return {
    ...orderStateItem(order, lines),
    ...money(order),
    FREIGHTCOSTS: fromMinor(Number(order.freight)),
  };
}

/** One order of B2C_GetOrderState, with its lines (a client follows its order line by line). */
export function clientOrder(
  order: ReadOrderRow,
  lines: readonly ReadLineRow[],
  tenders: readonly OrderTenderRow[] = [],
): ClientOrder {
  return {
    ORDERNO: Number(order.order_no),
    WEBORDER: order.weborder,
    CLIENT: Number(order.client_no),
    ORDERDATE: order.date_ordered,
    STATE: reportedState(order, lines),
    ...money(order),
    DELIVERY: order.pickup_point === null ? 'ADDRESS' : 'PICKUP',
    DELIVERYADDRESS: clientAddress(order.delivery_address),
    PICKUPLOCATION: order.pickup_point,
    PAYMENTREFERENCE: order.payment_reference,
    TENDERS: tendersToWire(tenders),
    TOPAY: fromMinor(Number(order.gross) - Number(order.tenders_paid)),
    BONUSCARD: order.bonus_card,
    BONUSEARNED: fromMinor(Number(order.bonus_earned)),
    LINES: lines.map((l) => ({
      LINE: Number(l.line_no),
      BARCODE: l.barcode,
      ARTICLE: l.article_no,
      SIZEX: l.sizex,
      ...quantities(countersOf(l)),
      ...priced(l),
    })),
    DATECHANGED: instant(order.updated_at),
    SCN: Number(order.scn),
  };
}

/** One state move of a feed. */
export function stateChange(h: HistoryRow, channel: 'B2B' | 'B2C'): StateChange {
  return {
    CHANGE: Number(h.id),
    ORDERNO: Number(h.order_no),
    WEBORDER: h.weborder,
    ...(channel === 'B2B' ? { CUSTOMER: Number(h.customer_no) } : { CLIENT: Number(h.client_no) }),
    FROMSTATE: h.from_state,
    STATE: h.to_state,
    ACTION: h.action,
    ACTOR: h.actor,
    REFERENCE: h.reference,
    AT: instant(h.at),
    SCN: Number(h.scn),
  };
}

/** Lines grouped by order number, in the rows' order. */
export function byOrder<R extends { order_no: number }>(rows: readonly R[]): Map<number, R[]> {
  const map = new Map<number, R[]>();
  for (const r of rows) {
    const k = Number(r.order_no);
    const list = map.get(k);
    if (list) list.push(r);
    else map.set(k, [r]);
  }
  return map;
}
