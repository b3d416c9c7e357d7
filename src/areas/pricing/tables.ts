import type { Generated } from 'kysely';

/**
 * Tables of the pricing area (migration 0003_pricing). Money is integer minor units (cents),
 * percentages basis points (1250 = 12.5 %), dates `YYYY-MM-DD` text. Every row has `scn`; deleted
 * rows keep their place, flagged, as the tombstone the change feeds report (docs/pricing.md).
 */

/** 'RECOMMENDED' (retail, advised) or 'SELLING' (wholesale). */
export type PriceType = 'RECOMMENDED' | 'SELLING';
/** What an agreement or line discount applies to. */
export type PriceScope = 'ARTICLE' | 'MODEL' | 'ARTICLEGROUP';

/**
 * The minimal wholesale customer pricing needs; the customer area extends this table by migration.
 */
export interface CustomerTable {
  customer_no: number;
  name: string;
  price_group: number;
  customer_group: string | null;
  currency: string;
  /** Customer discount in basis points, 0 for none. */
  discount_bp: number;
  active: number;
  deleted: number;
  scn: number;
  created_at: string;
  updated_at: string;
  // Added by the customers area (migration 0007_customers). Optional here, with column defaults,
  // so pricing's rows need not name them; the customers area reads them with its own row type.
  /** A client's own unique key for the customer (B2B_PostCustomer EXTERNALKEY), null for none. */
  external_key?: string | null;
  /** Name 2 / trade name; default ''. */
  name2?: string;
  /** Normalised VAT number (NL123456782B01), '' for none. */
  vat_no?: string;
  /** Language slot the customer reads, default LANGUAGE_1. */
  language?: string;
  /** Payment terms in days, default 30. */
  payment_days?: number;
  /** Credit limit in minor units of the customer's currency, default 0. */
  credit_limit_minor?: number;
  /** Sales representative code, null for none. */
  representative_code?: string | null;
}

/** One list price: article, type, price group, currency and size. */
export interface ListPriceTable {
  article_no: string;
  price_type: PriceType;
  price_group: number;
  currency: string;
  sizex: string;
  price_minor: number;
  deleted: number;
  scn: number;
}

/**
 * One row per article that has (or had) list prices: the unit B2B_GetAllPrices pages by. Its SCN is
 * that of the article's last price change; `deleted` = 1 when no live price is left (the tombstone).
 */
export interface PriceArticleTable {
  article_no: string;
  deleted: number;
  scn: number;
}

export interface PriceAgreementTable {
  id: Generated<number>;
  /** Exactly one of customer_no and customer_group is set. */
  customer_no: number | null;
  customer_group: string | null;
  scope: PriceScope;
  scope_value: string;
  min_quantity: number;
  valid_from: string;
  valid_to: string | null;
  kind: 'NETPRICE' | 'DISCOUNT';
  /** Set for kind DISCOUNT. */
  discount_bp: number | null;
  deleted: number;
  scn: number;
  created_at: string;
  updated_at: string;
}

/** The net prices of a NETPRICE agreement, one per currency. */
export interface PriceAgreementPriceTable {
  agreement_id: number;
  currency: string;
  price_minor: number;
}

export interface CustomerLineDiscountTable {
  id: Generated<number>;
  customer_no: number;
  /** MODEL or ARTICLEGROUP. */
  scope: PriceScope;
  scope_value: string;
  discount_bp: number;
  valid_from: string;
  valid_to: string | null;
  deleted: number;
  scn: number;
  created_at: string;
  updated_at: string;
}

export interface ActionPriceTable {
  id: Generated<number>;
  article_no: string;
  /** Null: every size of the article. */
  sizex: string | null;
  currency: string;
  price_minor: number;
  start_date: string;
  end_date: string;
  deleted: number;
  scn: number;
  created_at: string;
  updated_at: string;
}

export interface PricingTables {
  customer: CustomerTable;
  list_price: ListPriceTable;
  price_article: PriceArticleTable;
  price_agreement: PriceAgreementTable;
  price_agreement_price: PriceAgreementPriceTable;
  customer_line_discount: CustomerLineDiscountTable;
  action_price: ActionPriceTable;
}

declare module '../../kernel/db/schema.ts' {
  interface DB extends PricingTables {}
}
