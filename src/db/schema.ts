import type { ColumnType, Generated } from 'kysely';
import type { ClientTables } from './schema-clients.ts';
import type { CustomerTables } from './schema-customers.ts';
import type { PricingTables } from './schema-pricing.ts';
import type { ShopTables } from './schema-shops.ts';
import type { StockTables } from './schema-stock.ts';

/** 0 or 1: both engines store flags as integers so one query text serves both. */
export type Flag = number;
/** ISO 8601 UTC instant, stored as text on both engines. */
export type Instant = string;
/** JSON text of a `{ LANGUAGE_1: ..., LANGUAGE_2: ... }` object. */
export type LanguageJson = string;

export interface ScnCounterTable {
  id: number;
  value: number;
}

export interface ApiUserTable {
  id: Generated<number>;
  name: string;
  secret_hash: string;
  /** Comma-separated roles: B2B, B2C, ADMIN. */
  roles: string;
  customer_no: number | null;
  client_no: number | null;
  active: Flag;
  created_at: Instant;
  revoked_at: Instant | null;
}

export interface ApiTokenTable {
  token_hash: string;
  user_id: number;
  created_at: Instant;
  expires_at: Instant;
  revoked_at: Instant | null;
}

/** Failed-login counters: `a:<address>` or `u:<user name>` (src/http/login-throttle.ts). */
export interface LoginAttemptTable {
  key: string;
  /** Milliseconds since the epoch when the key's current window began. */
  window_start_ms: number;
  attempts: number;
}

export interface SizeTableTable {
  code: string;
  description: LanguageJson;
  deleted: Flag;
  scn: number;
}

export interface SizeTableSizeTable {
  size_table_code: string;
  position: number;
  sizex: string;
}

export interface ArticleTable {
  article_no: string;
  model_no: string;
  colour_code: string;
  colour_description: LanguageJson;
  description: LanguageJson;
  model_description: LanguageJson;
  search_name1: LanguageJson;
  search_name2: LanguageJson;
  search_name3: LanguageJson;
  brand: string;
  season: string;
  article_group: string;
  /** VAT rate in basis points: 2100 is 21 %. */
  vat_rate_bp: number;
  size_table_code: string;
  active: Flag;
  /** Published for retail: B2C operations see only these. */
  retail: Flag;
  /** A deleted article stays as its own tombstone so paging positions never shift (docs/architecture.md). */
  deleted: Flag;
  scn: number;
  created_at: Instant;
  updated_at: Instant;
}

export interface ArticleSizeTable {
  article_no: string;
  sizex: string;
  position: number;
  barcode: string;
}

export interface ArticleParameterCodeTable {
  article_no: string;
  parameter_code: number;
  text: LanguageJson;
}

export interface ArticleParameterNumberTable {
  article_no: string;
  parameter_code: number;
  parameter_no: number;
  text: LanguageJson;
}

export interface IdempotencyKeyTable {
  user_id: number;
  idempotency_key: string;
  /** SHA-256 of the operation and body: a key may only be reused for the very same request. */
  request_hash: string;
  state: 'pending' | 'done';
  response_status: number | null;
  response_type: string | null;
  response_body: string | null;
  created_at: Instant;
  /** While pending: the claim is held until then; a retry after it may take the key over. */
  lease_until: Instant | null;
  /** While pending: random id of this claim, so only its own request finishes or releases it. */
  claim_id: string | null;
  /** While pending: `<machine>:<pid>:<start>` of the claiming process (see process-identity.ts). */
  claimed_by: string | null;
}

export interface ArticleImageTable {
  article_no: string;
  image_no: number;
  content_type: string;
  byte_size: number;
  sha256: string;
  data: ColumnType<Buffer, Buffer, Buffer>;
  /** Deleted images keep their row (data emptied) as the tombstone the change feed reports. */
  deleted: Flag;
  scn: number;
}

/** Every table; each area's tables are declared in its own schema-<area>.ts. */
export interface DB extends StockTables, PricingTables, ClientTables, ShopTables, CustomerTables {
  scn_counter: ScnCounterTable;
  api_user: ApiUserTable;
  api_token: ApiTokenTable;
  login_attempt: LoginAttemptTable;
  size_table: SizeTableTable;
  size_table_size: SizeTableSizeTable;
  article: ArticleTable;
  article_size: ArticleSizeTable;
  article_parameter_code: ArticleParameterCodeTable;
  article_parameter_number: ArticleParameterNumberTable;
  article_image: ArticleImageTable;
  idempotency_key: IdempotencyKeyTable;
}
