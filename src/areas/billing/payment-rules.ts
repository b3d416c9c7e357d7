import { parseStructuredReference } from './rules/structured-reference.ts';

/**
 * What a payment's reference says (docs/billing-issuing.md, "Payments and open items"): a Belgian
 * structured communication (matched on the document's unique payment reference), a document
 * number (matched on the number), or anything else (kept, unallocated). A reference written only
 * with what a structured communication is made of (digits, slashes, spaces, + and *) is read as
 * one, and refused when it is not a valid one: a mistyped communication must not pass as free text.
 */
export type PaymentReference =
  | { kind: 'structured'; value: string }
  | { kind: 'number'; value: string }
  | { kind: 'other'; value: string };

const STRUCTURED_CHARACTERS = /^[\d\s/+*]+$/;
const DOCUMENT_NUMBER = /^(INV|CN)-\d{4}-\d{6,7}$/i;

/** The reference read, or the reason it is refused (the caller names the field or row). */
export function readPaymentReference(input: string): PaymentReference | { refused: string } {
  const trimmed = input.trim();
  if (trimmed === '') return { refused: 'is empty' };
  if (STRUCTURED_CHARACTERS.test(trimmed)) {
    const parsed = parseStructuredReference(trimmed);
    if (!parsed.ok) return { refused: `is not a valid structured communication: it ${parsed.reason}` };
    return { kind: 'structured', value: parsed.value };
  }
  if (DOCUMENT_NUMBER.test(trimmed)) return { kind: 'number', value: trimmed.toUpperCase() };
  return { kind: 'other', value: trimmed };
}

/** Why (part of) a payment is not allocated. */
export type UnallocatedReason =
  | 'NO_MATCH'
  | 'CURRENCY_MISMATCH'
  | 'WRONG_DIRECTION'
  | 'ALREADY_SETTLED'
  | 'OVERPAYMENT';

/** The document a payment matched, as the allocation needs it. */
export interface MatchedDocument {
  type: 'INVOICE' | 'CREDIT_NOTE';
  currency: string;
}

/**
 * Whether a payment may be allocated to the document it matched: the same currency, and the
 * direction that settles it (money received settles an invoice, money paid out a credit note).
 */
export function refusalOf(
  payment: { amount: number; currency: string },
  document: MatchedDocument | undefined,
): UnallocatedReason | null {
  if (!document) return 'NO_MATCH';
  if (document.currency !== payment.currency) return 'CURRENCY_MISMATCH';
  if (payment.amount > 0 !== (document.type === 'INVOICE')) return 'WRONG_DIRECTION';
  return null;
}

/** The age of an open item in whole days, from a date to today (both YYYY-MM-DD, UTC). */
export function daysBetween(from: string, today: string): number {
  return Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
