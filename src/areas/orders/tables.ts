import type { ColumnType, Generated } from 'kysely';
import type { Instant } from '../../kernel/db/schema.ts';

/** An order (migration 0018_orders): its party, its reference, its stored state and its money as placed. */
export interface SalesOrderTable {
  order_no: Generated<number>;
  channel: 'B2B' | 'B2C';
  customer_no: number | null;
  client_no: number | null;
  /** The party's own reference: one order per party and reference. */
  weborder: string;
  /** sha256 of the placement request as understood: a repeat with another body is a conflict. */
  request_hash: string;
  /** The stored state (states.ts, STORED_STATES); the reported one is derived from the lines. */
  state: string;
  currency: string;
  prices_include_vat: number;
  customer_discount_bp: number;
  net: number;
  vat_total: number;
  gross: number;
  freight: number;
  date_ordered: string;
  header_text: string;
  bottom_text: string;
  delivery_address_no: number | null;
  invoice_address_no: number | null;
  delivery_address: string | null;
  invoice_address: string | null;
  pickup_point: string | null;
  email: string | null;
  payment_reference: string | null;
  location_code: string;
  payment_days: number;
  /** What the order's tenders paid in all (0037); the rest is paid outside tv2 (PAYMENTREFERENCE). */
  tenders_paid: ColumnType<number, number | undefined, number>;
  /** The bonus card a web order earns on (0037), null: none. */
  bonus_card: ColumnType<string | null, string | null | undefined, string | null>;
  /** What the order has put on its bonus card so far (0037). */
  bonus_earned: ColumnType<number, number | undefined, number>;
  scn: number;
  created_at: Instant;
  updated_at: Instant;
}

/** One size of one article on an order, with its counters (the truth) and its money as computed. */
export interface SalesOrderLineTable {
  order_no: number;
  line_no: number;
  article_no: string;
  sizex: string;
  barcode: string;
  ordered: number;
  cancelled: number;
  reserved: number;
  delivered: number;
  returned: number;
  /** The list price the rule started from, minor units per piece. */
  list_price: number;
  /** What one piece costs, by the server's price resolution. */
  unit_price: number;
  /** The rule that produced unit_price (pricing's PriceRule, or ACTION_PRICE for retail). */
  price_rule: string;
  /** The rule's percentage (basis points), null for a net price or the list price. */
  rule_discount_bp: number | null;
  /** A further line discount, basis points (0: none). */
  discount_bp: number;
  vat_bp: number;
  list_amount: number;
  discount: number;
  amount: number;
  customer_sequence: string;
  assortment: number;
}

export interface SalesOrderVatTable {
  order_no: number;
  vat_bp: number;
  net: number;
  vat: number;
  gross: number;
}

export interface OrderHistoryTable {
  id: Generated<number>;
  order_no: number;
  from_state: string | null;
  to_state: string;
  action: string;
  actor: string;
  reference: string | null;
  scn: number;
  at: Instant;
}

export interface DeliveryTable {
  delivery_no: Generated<number>;
  order_no: number;
  location_code: string;
  reference: string | null;
  cancelled: number;
  scn: number;
  created_at: Instant;
  updated_at: Instant;
}

export interface DeliveryLineTable {
  delivery_no: number;
  line_no: number;
  quantity: number;
}

export interface OrderReturnTable {
  return_no: Generated<number>;
  order_no: number;
  location_code: string;
  state: 'AUTHORISED' | 'RECEIVED' | 'CANCELLED';
  reason: string;
  reference: string | null;
  scn: number;
  created_at: Instant;
  updated_at: Instant;
}

export interface OrderReturnLineTable {
  return_no: number;
  line_no: number;
  quantity: number;
  received: number;
}

/** One tender a web order's TENDERS named (0037): what it paid, and what was given back to it since. */
export interface OrderTenderTable {
  order_no: number;
  /** 1-based, in the order of TENDERS. */
  line_no: number;
  /** The tenders area's kind (GIFT_VOUCHER, CREDIT_NOTE_VOUCHER, CLIENT_CHEQUE, BONUS_CARD). */
  kind: string;
  code: string;
  tender_id: number;
  amount: number;
  refunded: ColumnType<number, number | undefined, number>;
}

/** Tables of the orders area (migrations 0018_orders, 0020_delivery_party, 0037_order_tenders). */
export interface OrderTables {
  sales_order: SalesOrderTable;
  sales_order_line: SalesOrderLineTable;
  sales_order_vat: SalesOrderVatTable;
  order_history: OrderHistoryTable;
  delivery: DeliveryTable;
  delivery_line: DeliveryLineTable;
  order_return: OrderReturnTable;
  order_return_line: OrderReturnLineTable;
  order_tender: OrderTenderTable;
}

declare module '../../kernel/db/schema.ts' {
  interface DB extends OrderTables {}
}
