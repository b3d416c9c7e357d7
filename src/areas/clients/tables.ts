import type { ColumnType, Generated } from 'kysely';

/** 0 or 1 (see schema.ts). */
type Flag = number;
/** ISO 8601 UTC instant as text. */
type Instant = string;
/** A calendar day, YYYY-MM-DD. */
type Day = string;

/**
 * A retail client. Personal data columns are nullable: anonymisation (docs/clients.md) clears them
 * and keeps the row, its number and the accounting records that point at it.
 */
export interface ClientTable {
  client_no: number;
  /** As given (trimmed); null once anonymised. */
  email: string | null;
  /** Lower-cased e-mail; unique (an e-mail address identifies one client). */
  email_norm: string | null;
  first_name: string | null;
  middle_name: string | null;
  last_name: string | null;
  /** E.164: +31612345678. */
  phone: string | null;
  address: string | null;
  house_number: string | null;
  postal_code: string | null;
  city: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string | null;
  birth_date: Day | null;
  /** Language slot (LANGUAGE_1, ...). */
  language: string;
  /** Instant each consent was given; null: not given (or withdrawn). */
  consent_newsletter_at: Instant | null;
  consent_sms_at: Instant | null;
  consent_profiling_at: Instant | null;
  card_no: string | null;
  card_level: string | null;
  card_valid_from: Day | null;
  card_valid_to: Day | null;
  /** Shop (location) code; checked by the shops area. */
  home_shop: string | null;
  marked_for_deletion: Flag;
  marked_at: Instant | null;
  anonymised: Flag;
  anonymised_at: Instant | null;
  scn: number;
  created_at: Instant;
  updated_at: Instant;
}

export type PhotoKind = 'PROFILE' | 'CARD';

export interface ClientPhotoTable {
  client_no: number;
  kind: PhotoKind;
  content_type: string;
  byte_size: number;
  width: number;
  height: number;
  sha256: string;
  data: ColumnType<Buffer, Buffer, Buffer>;
  scn: number;
}

export type PurchaseSource = 'SHOP' | 'WEB';

export interface ClientPurchaseTable {
  purchase_no: Generated<number>;
  client_no: number;
  source: PurchaseSource;
  /** Shop code for SHOP purchases; the fulfilling location (if any) for WEB. */
  shop_code: string | null;
  /** Receipt or order number; unique per source, so recording twice records once. */
  reference: string;
  purchased_at: Instant;
  currency: string;
  total_minor: number;
  scn: number;
}

export interface ClientPurchaseLineTable {
  purchase_no: number;
  line_no: number;
  article_no: string;
  sizex: string;
  quantity: number;
  unit_price_minor: number;
  amount_minor: number;
}

export interface ClientOnAccountTable {
  entry_no: Generated<number>;
  client_no: number;
  /** Unique across clients. */
  document_no: string;
  document_type: string;
  document_date: Day;
  due_date: Day | null;
  description: string;
  currency: string;
  amount_minor: number;
  /** What is still open; 0 when settled. Same sign as the amount, never larger. */
  open_minor: number;
  scn: number;
  created_at: Instant;
  updated_at: Instant;
}

export interface ClientMessageTable {
  message_no: Generated<number>;
  client_no: number;
  subject: string;
  body: string;
  sent_at: Instant;
  read_at: Instant | null;
  scn: number;
}

export interface ClientActionTable {
  action_code: string;
  description: string;
  /** Offered to this client only; null: to every client (subject to member_level). */
  client_no: number | null;
  /** Offered only to member-card holders of this level; null: any. */
  member_level: string | null;
  valid_from: Day;
  valid_to: Day;
  active: Flag;
  scn: number;
  created_at: Instant;
  updated_at: Instant;
}

export interface ClientActionClaimTable {
  action_code: string;
  client_no: number;
  claimed_at: Instant;
  scn: number;
}

/** Tables of the retail clients area (migration 0004_clients). */
export interface ClientTables {
  client: ClientTable;
  client_photo: ClientPhotoTable;
  client_purchase: ClientPurchaseTable;
  client_purchase_line: ClientPurchaseLineTable;
  client_on_account: ClientOnAccountTable;
  client_message: ClientMessageTable;
  client_action: ClientActionTable;
  client_action_claim: ClientActionClaimTable;
}

declare module '../../kernel/db/schema.ts' {
  interface DB extends ClientTables {}
}
