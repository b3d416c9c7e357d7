import type { ConflictError } from '../../kernel/errors.ts';
import { type ClientRepository, type ClientRow, uniqueRuleOf } from './client-repository.ts';
import { CLIENTS_ERRORS } from './errors.ts';

/** What the clients area's services (profile, purchases, messages) share. */

/** A shop (location) code: 1 to 20 letters, digits or . _ - (the request schemas state it). */
export const SHOP_CODE_PATTERN = '^[A-Za-z0-9._-]{1,20}$';
export const SHOP_CODE = new RegExp(SHOP_CODE_PATTERN);
/** A member level: 1 to 20 capitals, digits or _ (a member card's and a client action's). */
export const LEVEL_PATTERN = '^[A-Z0-9_]{1,20}$';
/** Names and address lines hold no control characters (U+0000 to U+001F, U+007F to U+009F). */
export const NO_CONTROL_PATTERN = '^[^\\u0000-\\u001F\\u007F-\\u009F]*$';
/** A shop code, or '' (which clears a client's home shop); with maxLength 20. */
export const SHOP_CODE_OR_EMPTY_PATTERN = '^[A-Za-z0-9._-]*$';
/** A day YYYY-MM-DD, or '' (which clears a birth date); the rules check that the day exists. */
export const DAY_OR_EMPTY_PATTERN = '^(?:[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01]))?$';

/** A client that is not anonymised; otherwise 404 CLIENT_NOT_FOUND. */
export async function liveClient(repo: ClientRepository, clientNo: number): Promise<ClientRow> {
  const row = await repo.findClient(clientNo);
  if (!row || row.anonymised === 1) throw CLIENTS_ERRORS.CLIENT_NOT_FOUND(`No client ${clientNo}.`);
  return row;
}

/** Today (UTC) by the service's clock, YYYY-MM-DD. */
export function today(now: () => Date): string {
  return now().toISOString().slice(0, 10);
}

export function emailTaken(): ConflictError {
  return CLIENTS_ERRORS.EMAIL_TAKEN('This e-mail address belongs to another client.');
}

/** The 409 for a unique index a concurrent writer got to first. */
export function uniqueConflict(error: unknown): ConflictError | undefined {
  switch (uniqueRuleOf(error)) {
    case 'email':
      return emailTaken();
    case 'card':
      return CLIENTS_ERRORS.CARD_TAKEN('This member card number belongs to another client.');
    case 'client_no':
      return CLIENTS_ERRORS.CLIENT_EXISTS('A client with this number was created at the same time.');
    case 'document_no':
      return CLIENTS_ERRORS.DOCUMENT_TAKEN('This document number was recorded at the same time.');
    default:
      return undefined;
  }
}
