import { defineErrors } from '../../kernel/errors.ts';

/** The clients area's error codes (docs/api-conventions.md lists them all). */
export const CLIENTS_ERRORS = defineErrors('clients', {
  CLIENT_NOT_FOUND: {
    status: 404,
    meaning: 'No client with that number or e-mail address (or it is anonymised).',
  },
  MEMBER_CARD_NOT_FOUND: { status: 404, meaning: 'The client has no member card.' },
  PHOTO_NOT_FOUND: { status: 404, meaning: 'The client has no profile or member card photo.' },
  DOCUMENT_NOT_FOUND: { status: 404, meaning: 'The client has no on-account document with that number.' },
  MESSAGE_NOT_FOUND: { status: 404, meaning: 'The client has no message with that number.' },
  ACTION_NOT_FOUND: { status: 404, meaning: 'No active action with that code is offered to the client.' },
  EMAIL_TAKEN: { status: 409, meaning: 'The e-mail address belongs to another client.' },
  CARD_TAKEN: { status: 409, meaning: 'The member card number belongs to another client.' },
  CLIENT_EXISTS: { status: 409, meaning: 'A client with that number was created at the same time.' },
  DOCUMENT_TAKEN: {
    status: 409,
    meaning: 'The document number belongs to another client, or was recorded at the same time.',
  },
  PURCHASE_REFERENCE_TAKEN: {
    status: 409,
    meaning: 'The purchase reference (per source) belongs to another client.',
  },
  ACTION_NOT_VALID: { status: 409, meaning: 'The action is offered to the client but does not run today.' },
  ACTION_ALREADY_CLAIMED: { status: 409, meaning: 'The client has already claimed the action.' },
});
