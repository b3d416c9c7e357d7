import type { Generated } from 'kysely';

/** SHOP or WAREHOUSE. */
export type LocationKind = 'SHOP' | 'WAREHOUSE';

/**
 * Why stock moved. RESERVE and RELEASE move only `reserved`; SHIPMENT takes reserved stock out of
 * the location (both columns); the others move only `on_hand` (docs/stock.md).
 */
export type MovementReason =
  | 'RECEIPT'
  | 'CORRECTION'
  | 'TRANSFER_OUT'
  | 'TRANSFER_IN'
  | 'RESERVE'
  | 'RELEASE'
  | 'SHIPMENT';

export interface StockLocationTable {
  code: string;
  name: string;
  kind: LocationKind;
  /** 0/1: wholesale (B2B) operations see this location's stock. */
  serves_wholesale: number;
  /** 0/1: retail (B2C) operations see this location's stock. */
  serves_retail: number;
  active: number;
  address: string | null;
  house_number: string | null;
  postal_code: string | null;
  city: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string | null;
  /** A deleted location keeps its row as the tombstone (docs/architecture.md). */
  deleted: number;
  /**
   * 0/1, never cleared: wholesale (retail) once saw this location, live and serving it. The stock
   * feeds report its levels under DELETED only to an audience that saw it (the repository sets them).
   */
  seen_wholesale: Generated<number>;
  seen_retail: Generated<number>;
  /** 0/1, never cleared: retail once saw it as a shop (live, a SHOP, serving retail): the shop feeds'. */
  seen_shop: Generated<number>;
  scn: number;
  /** Stable paging position: set by the database on insert, never changed (docs/architecture.md, "Paging"). */
  pos: Generated<number>;
  created_at: string;
  updated_at: string;
}

/**
 * The stock of one size of one article at one location. Always the sum of its movements; the
 * table's CHECK keeps `0 <= reserved <= on_hand`, so available stock never goes below zero.
 */
export interface StockLevelTable {
  article_no: string;
  sizex: string;
  location_code: string;
  on_hand: number;
  reserved: number;
  scn: number;
  /** Stable paging position: set by the database on insert, never changed (docs/architecture.md, "Paging"). */
  pos: Generated<number>;
}

/** The ledger: one row per change of a stock level, never changed or deleted. */
export interface StockMovementTable {
  id: Generated<number>;
  scn: number;
  article_no: string;
  sizex: string;
  location_code: string;
  reason: MovementReason;
  on_hand_delta: number;
  reserved_delta: number;
  /** What caused it: an order number, the other location of a transfer, an import batch. */
  reference: string | null;
  created_at: string;
}

/** Tables of the stock area (migration 0002_stock). */
export interface StockTables {
  stock_location: StockLocationTable;
  stock_level: StockLevelTable;
  stock_movement: StockMovementTable;
}

declare module '../../kernel/db/schema.ts' {
  interface DB extends StockTables {}
}
