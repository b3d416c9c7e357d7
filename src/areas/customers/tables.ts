/**
 * Tables of the wholesale customers area (migration 0007_customers). The `customer` table itself is
 * the pricing area's (`CustomerTable` in schema-pricing.ts), extended by that migration with the
 * optional columns declared there. Money is integer minor units; every row has `scn`; deleted rows
 * keep their place, flagged, as the tombstones the feeds report (docs/customers.md).
 */

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
}

export interface CustomerTables {
  customer_address: CustomerAddressTable;
  representative: RepresentativeTable;
  representative_customer: RepresentativeCustomerTable;
  customer_article_link: CustomerArticleLinkTable;
}

declare module '../../kernel/db/schema.ts' {
  interface DB extends CustomerTables {}
}
