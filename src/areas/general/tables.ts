import type { Generated } from 'kysely';
import type { Flag, Instant } from '../../kernel/db/schema.ts';

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

/** Failed-login counters: `a:<address>` or `u:<user name>` (src/areas/general/login-throttle.ts). */
export interface LoginAttemptTable {
  key: string;
  /** Milliseconds since the epoch when the key's current window began. */
  window_start_ms: number;
  attempts: number;
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

/** The tables of the general area (API users, tokens, login attempts, idempotency keys). */
export interface GeneralTables {
  api_user: ApiUserTable;
  api_token: ApiTokenTable;
  login_attempt: LoginAttemptTable;
  idempotency_key: IdempotencyKeyTable;
}

declare module '../../kernel/db/schema.ts' {
  interface DB extends GeneralTables {}
}
