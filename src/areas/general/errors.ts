import { defineErrors } from '../../kernel/errors.ts';

/** The general area's error codes: logins, API users, Idempotency-Key (docs/api-conventions.md lists them all). */
export const GENERAL_ERRORS = defineErrors('general', {
  CREDENTIALS_MISSING: { status: 401, meaning: 'GetToken was called without HTTP Basic credentials.' },
  INVALID_CREDENTIALS: { status: 401, meaning: 'The user name or secret is wrong, or the user is revoked.' },
  CONFINEMENT_CONFLICT: {
    status: 403,
    meaning:
      'The API user is confined to a party that permits none of its roles; an administrator must replace it.',
  },
  USER_NOT_FOUND: { status: 404, meaning: 'No API user of that name.' },
  USER_EXISTS: { status: 409, meaning: 'An API user of that name exists already.' },
  IDEMPOTENCY_KEY_REUSED: {
    status: 409,
    meaning: 'The Idempotency-Key was used before for a different request.',
  },
  IDEMPOTENCY_KEY_IN_USE: {
    status: 409,
    meaning: 'A request with this Idempotency-Key is still running; retry after Retry-After seconds.',
  },
  TOO_MANY_FAILED_LOGINS: {
    status: 429,
    meaning: 'Too many failed logins from this address or for this user; retry after Retry-After seconds.',
  },
  LOGIN_BUSY: {
    status: 503,
    meaning: 'Too many logins are being checked at the moment; retry after Retry-After seconds.',
  },
});
