import type { ColumnType, Generated } from 'kysely';
import type { Flag, Instant, LanguageJson } from '../../kernel/db/schema.ts';

/**
 * The shop details of a stock location of kind SHOP (docs/shops.md). The location itself (name,
 * address, active, serves retail, deleted) stays in `stock_location`; a shop without a row here is
 * listed with empty details.
 */
export interface ShopDetailTable {
  location_code: string;
  /** E.164 (+31201234567), or null. */
  phone: string | null;
  email: string | null;
  /** Geo position in whole micro-degrees (52.370216 is 52370216): exact, no floating point. */
  latitude_micro: number | null;
  longitude_micro: number | null;
  /** 0/1: click-and-collect orders may be picked up here. */
  pickup: Flag;
  /** IANA time zone the opening hours are in (Europe/Amsterdam). */
  time_zone: string;
  description: LanguageJson;
  /** JSON text: `[{ weekday: 1..7, opens: "HH:MM", closes: "HH:MM" }]`, sorted (docs/shops.md). */
  opening_hours: string;
  /** JSON text: `[{ date: "YYYY-MM-DD", hours: [{ opens, closes }], description }]`, sorted by date. */
  hours_exceptions: string;
  scn: number;
  updated_at: Instant;
  /** Stable paging position: set by the database on insert, never changed (docs/architecture.md, "Paging"). */
  pos: Generated<number>;
  /** 1 once the details allowed pickup; never cleared: the pickup feed's DELETED (migration 0041). */
  seen_pickup: Generated<number>;
}

export interface ShopImageTable {
  location_code: string;
  image_no: number;
  content_type: string;
  byte_size: number;
  sha256: string;
  data: ColumnType<Buffer, Buffer, Buffer>;
  /** Deleted images keep their row (data emptied) as the tombstone the change feed reports. */
  deleted: Flag;
  scn: number;
  /** Stable paging position: set by the database on insert, never changed (docs/architecture.md, "Paging"). */
  pos: Generated<number>;
}

export interface ShopAssistantTable {
  location_code: string;
  assistant_no: number;
  name: string;
  role: LanguageJson;
  /** A shop image of the same shop (B2C_GetShopImage), or null. */
  photo_image_no: number | null;
  active: Flag;
  deleted: Flag;
  /** 1 once retail saw it (written live and active); never cleared: the feeds' DELETED (migration 0041). */
  seen: Generated<number>;
  scn: number;
  updated_at: Instant;
  /** Stable paging position: set by the database on insert, never changed (docs/architecture.md, "Paging"). */
  pos: Generated<number>;
}

/** An external pickup point (a parcel shop, a locker), next to the shops that allow pickup. */
export interface PickupPointTable {
  code: string;
  name: string;
  address: string | null;
  house_number: string | null;
  postal_code: string | null;
  city: string | null;
  country: string | null;
  latitude_micro: number;
  longitude_micro: number;
  description: LanguageJson;
  active: Flag;
  deleted: Flag;
  /** 1 once retail saw it (written live and active); never cleared: the feeds' DELETED (migration 0041). */
  seen: Generated<number>;
  scn: number;
  updated_at: Instant;
  /** Stable paging position: set by the database on insert, never changed (docs/architecture.md, "Paging"). */
  pos: Generated<number>;
}

/** One content block of a page of the consumer app. */
export interface HomePageBlockTable {
  page: string;
  block_no: number;
  position: number;
  title: LanguageJson;
  body: LanguageJson;
  /** An https URL, or ARTICLE:<article>/<imageno> or SHOP:<location>/<imageno>. */
  image: string | null;
  link: string | null;
  valid_from: Instant | null;
  valid_to: Instant | null;
  active: Flag;
  deleted: Flag;
  /** 1 once retail saw it (written live and active); never cleared: the feeds' DELETED (migration 0041). */
  seen: Generated<number>;
  scn: number;
  updated_at: Instant;
  /** Stable paging position: set by the database on insert, never changed (docs/architecture.md, "Paging"). */
  pos: Generated<number>;
}

/** A validation pattern for client apps; `country` is '' for a pattern of every country. */
export interface CompanyRegexTable {
  name: string;
  country: string;
  pattern: string;
  description: LanguageJson;
  deleted: Flag;
  scn: number;
  updated_at: Instant;
  /** Stable paging position: set by the database on insert, never changed (docs/architecture.md, "Paging"). */
  pos: Generated<number>;
}

/** Tables of the shops area (migration 0006_shops). */
export interface ShopTables {
  shop_detail: ShopDetailTable;
  shop_image: ShopImageTable;
  shop_assistant: ShopAssistantTable;
  pickup_point: PickupPointTable;
  home_page_block: HomePageBlockTable;
  company_regex: CompanyRegexTable;
}

declare module '../../kernel/db/schema.ts' {
  interface DB extends ShopTables {}
}
