import type { ColumnType, Generated } from 'kysely';

/** ISO 8601 UTC instant as text. */
type Instant = string;
/** A calendar day, YYYY-MM-DD. */
type Day = string;

export type TenderKind = 'GIFT_VOUCHER' | 'CREDIT_NOTE_VOUCHER' | 'CLIENT_CHEQUE' | 'BONUS_CARD';
export type EntryKind = 'ISSUE' | 'REDEEM' | 'EXPIRE' | 'REFUND_CREDIT' | 'ADJUST';

/**
 * A tender: a stored value that pays. `balance` is the sum of its entries (kept in step by the
 * statements that write both, and never below 0 by a CHECK); `issued_amount` what it was issued with.
 */
export interface TenderTable {
  id: Generated<number>;
  kind: TenderKind;
  /** Vouchers: a long random code with a check character; bonus cards: the card number. Unique. */
  code: string;
  /** Null for a gift voucher (a bearer voucher); the owner of any other tender. */
  client_no: number | null;
  currency: string;
  /** The last day it may be used; always stated. */
  valid_until: Day;
  blocked: number;
  balance: number;
  issued_amount: number;
  /** The WEBID of the request that issued it; unique per kind. */
  web_id: string | null;
  email: string | null;
  scn: number;
  created_at: Instant;
  updated_at: Instant;
  pos: Generated<number>;
}

/** One posting on a tender: a signed amount in minor units; unique per (tender, kind, reference). */
export interface TenderEntryTable {
  id: Generated<number>;
  tender_id: number;
  kind: EntryKind;
  amount: number;
  reference: string;
  /** The tender's balance right after this entry (what a replay answers). */
  balance_after: number;
  at: Instant;
  /** The business day the poster stated (bonus card updates' DATE); null when none (0035). */
  day: ColumnType<Day | null, Day | null | undefined, Day | null>;
  scn: number;
}

/** Failed voucher checks of one caller since `window_start`. */
export interface TenderCheckFailureTable {
  caller: string;
  window_start: Instant;
  failures: number;
}

/** Tables of the tenders area (migration 0030_tenders). */
export interface TenderTables {
  tender: TenderTable;
  tender_entry: TenderEntryTable;
  tender_check_failure: TenderCheckFailureTable;
}

declare module '../../kernel/db/schema.ts' {
  interface DB extends TenderTables {}
}
