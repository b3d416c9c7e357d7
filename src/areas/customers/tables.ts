import type { Generated } from 'kysely';

/**
 * Tables of the wholesale customers area. Money is integer minor units; every row has `scn`; deleted
 * rows keep their place, flagged, as the tombstones the feeds report (docs/customers.md).
 */

/**
 * A wholesale customer. This area owns the table and all its SQL (customer-repository.ts); the
 * pricing area reads and writes the pricing terms through customer-terms.ts. Created with the terms
 * columns by migration 0003_pricing (migrations are history: they stay where they ran first),
 * extended with the rest, all with defaults, by 0007_customers.
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
  /** A client's own unique key for the customer (B2B_PostCustomer EXTERNALKEY), null for none. */
  external_key: string | null;
  /** Name 2 / trade name; default ''. */
  name2: string;
  /** Normalised VAT number (NL123456782B01), '' for none. */
  vat_no: string;
  /** Language slot the customer reads, default LANGUAGE_1. */
  language: string;
  /** Payment terms in days, default 30. */
  payment_days: number;
  /** Credit limit in minor units of the customer's currency, default 0. */
  credit_limit_minor: number;
  /** Sales representative code, null for none. */
  representative_code: string | null;
  /** Stable paging position: set by the database on insert, never changed (docs/architecture.md, "Paging"). */
  pos: Generated<number>;
}

/** A numbered address of a customer: 0 is the invoice address, 1, 2, ... delivery addresses. */
export interface CustomerAddressTable {
  customer_no: number;
  address_no: number;
  address: string;
  house_number: string;
  postal_code: string;
  city: string;
  /** ISO 3166-1 alpha-2 (COUNTRYPOST on the wire). */
  country: string;
  map_area: string;
  post_box: string;
  deleted: number;
  scn: number;
  created_at: string;
  updated_at: string;
}

/** A sales representative. */
export interface RepresentativeTable {
  code: string;
  name: string;
  email: string;
  phone: string;
  active: number;
  deleted: number;
  scn: number;
  created_at: string;
  updated_at: string;
  /** Stable paging position: set by the database on insert, never changed (docs/architecture.md, "Paging"). */
  pos: Generated<number>;
}

/**
 * Which customers a representative has or had: a customer moving to another representative flags
 * its old row (deleted = 1) with the SCN of the move, so the old representative's list reports it.
 */
export interface RepresentativeCustomerTable {
  representative_code: string;
  customer_no: number;
  deleted: number;
  scn: number;
  /** Stable paging position: set by the database on insert, never changed (docs/architecture.md, "Paging"). */
  pos: Generated<number>;
}

/** A customer's own article number and description for one of our articles. */
export interface CustomerArticleLinkTable {
  customer_no: number;
  article_no: string;
  customer_article_no: string;
  customer_description: string;
  customer_barcode: string | null;
  deleted: number;
  scn: number;
  created_at: string;
  updated_at: string;
  /** Stable paging position: set by the database on insert, never changed (docs/architecture.md, "Paging"). */
  pos: Generated<number>;
}

export interface CustomerTables {
  customer: CustomerTable;
  customer_address: CustomerAddressTable;
  representative: RepresentativeTable;
  representative_customer: RepresentativeCustomerTable;
  customer_article_link: CustomerArticleLinkTable;
}

declare module '../../kernel/db/schema.ts' {
  interface DB extends CustomerTables {}
}
