import { fromLanguageJson, type LanguageObject } from '../../kernel/language.ts';
import { fromMinor } from '../../kernel/money.ts';
import type {
  ClientRow,
  MessageRow,
  OfferedActionRow,
  OnAccountRow,
  PurchaseLineRow,
  PurchaseRow,
} from './client-repository.ts';

export interface ConsentWire {
  GIVEN: boolean;
  /** When it was given; null when not given. */
  GIVENAT: string | null;
}

export interface MemberCardWire {
  CARDNO: string;
  LEVEL: string;
  VALIDFROM: string;
  VALIDTO: string;
}

export interface ClientWire {
  CLIENT: number;
  FIRSTNAME: string;
  MIDDLENAME: string;
  LASTNAME: string;
  EMAIL: string;
  PHONE: string;
  ADDRESS: string;
  HOUSENUMBER: string;
  POSTALCODE: string;
  CITY: string;
  COUNTRY: string;
  BIRTHDATE: string | null;
  LANGUAGE: string;
  CONSENTS: { NEWSLETTER: ConsentWire; SMS: ConsentWire; PROFILING: ConsentWire };
  MEMBERCARD: MemberCardWire | null;
  HOMESHOP: string;
  HASPROFILEPHOTO: boolean;
  MARKEDFORDELETION: boolean;
  MARKEDFORDELETIONAT: string | null;
  /** When the client's personal data will be anonymised, if marked. */
  DELETIONDUE: string | null;
  CREATED: string;
  UPDATED: string;
  SCN: number;
}

export interface MemberCardInfoWire extends MemberCardWire {
  CLIENT: number;
  /** The name printed on the card. */
  NAME: string;
  /** Valid today (UTC). */
  VALID: boolean;
  HASPHOTO: boolean;
}

export interface PurchaseWire {
  PURCHASENO: number;
  SOURCE: string;
  SHOP: string;
  REFERENCE: string;
  DATE: string;
  CURRENCY: string;
  TOTAL: number;
  LINES: Array<{
    LINENO: number;
    ARTICLE: string;
    SIZEX: string;
    QUANTITY: number;
    PRICE: number;
    AMOUNT: number;
  }>;
  SCN: number;
}

export interface OnAccountWire {
  DOCUMENTNO: string;
  DOCUMENTTYPE: string;
  DATE: string;
  DUEDATE: string | null;
  DESCRIPTION: string;
  CURRENCY: string;
  AMOUNT: number;
  OPEN: number;
  SETTLED: boolean;
  SCN: number;
}

export interface MessageWire {
  MESSAGENO: number;
  SUBJECT: string;
  BODY: string;
  SENT: string;
  READ: boolean;
  READAT: string | null;
}

export interface ActionWire {
  ACTION: string;
  DESCRIPTION: LanguageObject;
  VALIDFROM: string;
  VALIDTO: string;
  CLAIMED: boolean;
  CLAIMEDAT: string | null;
}

/** ISO instant without fractions, as on the wire (2026-11-22T18:28:14Z). */
export function wireInstant(iso: string): string;
export function wireInstant(iso: string | null): string | null;
export function wireInstant(iso: string | null): string | null {
  return iso === null ? null : `${iso.slice(0, 19)}Z`;
}

const consent = (at: string | null): ConsentWire => ({ GIVEN: at !== null, GIVENAT: wireInstant(at) });

export function memberCardOf(row: ClientRow): MemberCardWire | null {
  if (row.card_no === null) return null;
  return {
    CARDNO: row.card_no,
    LEVEL: row.card_level ?? '',
    VALIDFROM: row.card_valid_from ?? '',
    VALIDTO: row.card_valid_to ?? '',
  };
}

export function fullName(row: ClientRow): string {
  return [row.first_name, row.middle_name, row.last_name].filter((p) => p).join(' ');
}

export function clientToWire(row: ClientRow, hasPhoto: boolean, deletionDue: string | null): ClientWire {
  return {
    CLIENT: row.client_no,
    FIRSTNAME: row.first_name ?? '',
    MIDDLENAME: row.middle_name ?? '',
    LASTNAME: row.last_name ?? '',
    EMAIL: row.email ?? '',
    PHONE: row.phone ?? '',
    ADDRESS: row.address ?? '',
    HOUSENUMBER: row.house_number ?? '',
    POSTALCODE: row.postal_code ?? '',
    CITY: row.city ?? '',
    COUNTRY: row.country ?? '',
    BIRTHDATE: row.birth_date,
    LANGUAGE: row.language,
    CONSENTS: {
      NEWSLETTER: consent(row.consent_newsletter_at),
      SMS: consent(row.consent_sms_at),
      PROFILING: consent(row.consent_profiling_at),
    },
    MEMBERCARD: memberCardOf(row),
    HOMESHOP: row.home_shop ?? '',
    HASPROFILEPHOTO: hasPhoto,
    MARKEDFORDELETION: row.marked_for_deletion === 1,
    MARKEDFORDELETIONAT: wireInstant(row.marked_at),
    DELETIONDUE: wireInstant(deletionDue),
    CREATED: wireInstant(row.created_at),
    UPDATED: wireInstant(row.updated_at),
    SCN: row.scn,
  };
}

export function purchasesToWire(rows: PurchaseRow[], lines: PurchaseLineRow[]): PurchaseWire[] {
  const byPurchase = new Map<number, PurchaseLineRow[]>();
  for (const l of lines) {
    const key = Number(l.purchase_no);
    byPurchase.set(key, [...(byPurchase.get(key) ?? []), l]);
  }
  return rows.map((p) => ({
    PURCHASENO: Number(p.purchase_no),
    SOURCE: p.source,
    SHOP: p.shop_code ?? '',
    REFERENCE: p.reference,
    DATE: wireInstant(p.purchased_at),
    CURRENCY: p.currency,
    TOTAL: fromMinor(Number(p.total_minor)),
    LINES: (byPurchase.get(Number(p.purchase_no)) ?? []).map((l) => ({
      LINENO: l.line_no,
      ARTICLE: l.article_no,
      SIZEX: l.sizex,
      QUANTITY: l.quantity,
      PRICE: fromMinor(Number(l.unit_price_minor)),
      AMOUNT: fromMinor(Number(l.amount_minor)),
    })),
    SCN: Number(p.scn),
  }));
}

export function onAccountToWire(row: OnAccountRow): OnAccountWire {
  return {
    DOCUMENTNO: row.document_no,
    DOCUMENTTYPE: row.document_type,
    DATE: row.document_date,
    DUEDATE: row.due_date,
    DESCRIPTION: row.description,
    CURRENCY: row.currency,
    AMOUNT: fromMinor(Number(row.amount_minor)),
    OPEN: fromMinor(Number(row.open_minor)),
    SETTLED: Number(row.open_minor) === 0,
    SCN: Number(row.scn),
  };
}

export function messageToWire(row: MessageRow): MessageWire {
  return {
    MESSAGENO: Number(row.message_no),
    SUBJECT: row.subject,
    BODY: row.body,
    SENT: wireInstant(row.sent_at),
    READ: row.read_at !== null,
    READAT: wireInstant(row.read_at),
  };
}

export function actionToWire(row: OfferedActionRow): ActionWire {
  return {
    ACTION: row.action_code,
    DESCRIPTION: fromLanguageJson(row.description),
    VALIDFROM: row.valid_from,
    VALIDTO: row.valid_to,
    CLAIMED: row.claimed_at !== null,
    CLAIMEDAT: wireInstant(row.claimed_at),
  };
}
