import type { Generated } from 'kysely';

/**
 * Tables of the pricing area (migration 0003_pricing; the `customer` table that migration also
 * created is the customers area's, customers/tables.ts). Money is integer minor units (cents),
 * percentages basis points (1250 = 12.5 %), dates `YYYY-MM-DD` text. Every row has `scn`; deleted
 * rows keep their place, flagged, as the tombstone the change feeds report (docs/pricing.md).
 * Every paged table has `pos`, its stable paging position (migration 0011_pricing_positions;
 * docs/architecture.md, "Paging"): set by the database on insert, never changed.
 */

/** 'RECOMMENDED' (retail, advised) or 'SELLING' (wholesale). */
export type PriceType = 'RECOMMENDED' | 'SELLING';
/** What an agreement or line discount applies to. */
export type PriceScope = 'ARTICLE' | 'MODEL' | 'ARTICLEGROUP';

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
  pos: Generated<number>;
}

/**
 * One row per article that has (or had) list prices: the unit B2B_GetAllPrices pages by. Its SCN is
 * that of the article's last price change; `deleted` = 1 when no live price is left (the tombstone).
 */
export interface PriceArticleTable {
  article_no: string;
  deleted: number;
  scn: number;
  /** The article's own paging position (the catalogue's `article.pos`), copied when the row is made. */
  pos: number;
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
  pos: Generated<number>;
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
  pos: Generated<number>;
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
  pos: Generated<number>;
}

export interface PricingTables {
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
