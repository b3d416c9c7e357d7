import type { Static } from 'typebox';
import { fromMinor, percentFromBasisPoints } from '../../kernel/money.ts';
import type { BarcodeSize } from '../catalog/index.ts';
import type { OrderLineRow, OrderRow, OrderVatRow } from './order-repository.ts';
import type { OrderTenderRow } from './order-tender-repository.ts';
import type { PlacedOrderSchema } from './placement-schemas.ts';
import { derivedState } from './rules/line-counters.ts';
import type { StoredState } from './rules/states.ts';

export type PlacedOrder = Static<typeof PlacedOrderSchema>;

const EMPTY_TEXT = { LANGUAGE_1: '', LANGUAGE_11: '', LANGUAGE_2: '', LANGUAGE_3: '', LANGUAGE_4: '' };

/** What the answer needs of the order row (a row read back, or the one a placement just wrote). */
type AnsweredOrder = Pick<
  OrderRow,
  | 'order_no'
  | 'weborder'
  | 'state'
  | 'currency'
  | 'prices_include_vat'
  | 'net'
  | 'vat_total'
  | 'gross'
  | 'tenders_paid'
  | 'bonus_card'
  | 'scn'
>;

/** How a web order named a tender of each kind (TENDERS[].TYPE). */
const TYPE_OF: Record<string, string> = {
  GIFT_VOUCHER: 'VOUCHER',
  CREDIT_NOTE_VOUCHER: 'VOUCHER',
  CLIENT_CHEQUE: 'CLIENTCHEQUE',
  BONUS_CARD: 'BONUSCARD',
};

/** The tenders that paid an order, as its answers show them (means of payment, not discounts). */
export function tendersToWire(tenders: readonly OrderTenderRow[]) {
  return tenders.map((t) => ({
    LINE: Number(t.line_no),
    TYPE: TYPE_OF[t.kind] ?? t.kind,
    KIND: t.kind,
    CODE: t.code,
    AMOUNT: fromMinor(Number(t.amount)),
    REFUNDED: fromMinor(Number(t.refunded)),
  }));
}

/**
 * The answer of a placement: the order as stored, its state derived from its lines' counters. A
 * new order is answered from the rows its placement wrote, a repeat from the rows read back.
 */
export function placedOrderOf(
  order: AnsweredOrder,
  lines: readonly OrderLineRow[],
  vat: readonly OrderVatRow[],
  created: boolean,
  sizes: Map<string, BarcodeSize>,
  tenders: readonly OrderTenderRow[] = [],
): PlacedOrder {
  const counters = lines.map((l) => ({
    ordered: Number(l.ordered),
    cancelled: Number(l.cancelled),
    reserved: Number(l.reserved),
    delivered: Number(l.delivered),
    returned: Number(l.returned),
  }));
  return {
    ORDERNO: Number(order.order_no),
    WEBORDER: order.weborder,
    CREATED: created,
    STATE: derivedState(counters, order.state as StoredState),
    CURRENCY: order.currency,
    PRICESINCLUDEVAT: Number(order.prices_include_vat) === 1,
    NET: fromMinor(Number(order.net)),
    VAT: fromMinor(Number(order.vat_total)),
    GROSS: fromMinor(Number(order.gross)),
    VATBREAKDOWN: vat.map((v) => ({
      PERCVAT: percentFromBasisPoints(Number(v.vat_bp)),
      NET: fromMinor(Number(v.net)),
      VAT: fromMinor(Number(v.vat)),
      GROSS: fromMinor(Number(v.gross)),
    })),
    TENDERS: tendersToWire(tenders),
    TOPAY: fromMinor(Number(order.gross) - Number(order.tenders_paid ?? 0)),
    BONUSCARD: order.bonus_card ?? null,
    LINES: lines.map((l, i) => {
      const c = counters[i]!;
      return {
        LINE: Number(l.line_no),
        BARCODE: l.barcode,
        ARTICLE: l.article_no,
        SIZEX: l.sizex,
        ARTICLEDESCRIPTION: descriptionOf(sizes.get(l.barcode)),
        QUANTITY: c.ordered,
        RESERVED: c.reserved,
        BACKORDER: Math.max(0, c.ordered - c.cancelled - c.delivered - c.reserved),
        PRICE: fromMinor(Number(l.list_price)),
        NETPRICE: fromMinor(Number(l.unit_price)),
        DISCOUNT: percentFromBasisPoints(Number(l.rule_discount_bp ?? 0)),
        PRICERULE: l.price_rule,
        AMOUNT: fromMinor(Number(l.amount)),
        PERCVAT: percentFromBasisPoints(Number(l.vat_bp)),
        ORDERCUSTOMERSEQUENCE: l.customer_sequence,
      };
    }),
    SCN: Number(order.scn),
  };
}

function descriptionOf(size: BarcodeSize | undefined) {
  if (!size) return EMPTY_TEXT;
  try {
    return { ...EMPTY_TEXT, ...(JSON.parse(size.description) as Record<string, string>) };
  } catch {
    return EMPTY_TEXT;
  }
}
