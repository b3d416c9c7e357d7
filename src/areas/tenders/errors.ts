import { defineErrors } from '../../kernel/errors.ts';

/** The tenders area's error codes (docs/api-conventions.md lists them all; docs/tenders.md explains them). */
export const TENDERS_ERRORS = defineErrors('tenders', {
  VOUCHER_NOT_USABLE: {
    status: 409,
    meaning:
      'The code cannot be used: the same answer whether it is unknown, expired, blocked, spent, in another currency or not the caller’s (it tells nothing about a code).',
  },
  VOUCHER_BALANCE_INSUFFICIENT: {
    status: 409,
    meaning: 'The voucher is usable but its balance does not cover the amount (nothing was cashed).',
  },
  VOUCHER_PAYS_OWN_ISSUE: {
    status: 409,
    meaning: 'A voucher cannot pay for the sale or top-up that issued it (REFERENCE equals its WEBID).',
  },
  TENDER_KEY_REUSED: {
    status: 409,
    meaning:
      'The WEBID, or the (voucher, REFERENCE) of a cashing, was used before with another amount, currency or client; the first posting stands.',
  },
  VOUCHER_CHECKS_THROTTLED: {
    status: 429,
    meaning: 'Too many refused voucher codes from this API user in a short time; retry after Retry-After.',
  },
  TENDER_ISSUE_NOT_PERMITTED: {
    status: 403,
    meaning:
      'A token confined to one client cannot issue vouchers (value is issued by the shop or back office).',
  },
  BONUS_CARD_NOT_FOUND: {
    status: 404,
    meaning: 'No bonus card with that CARDNO (a card exists from its first update on).',
  },
  BONUS_VALUE_REFUSED: {
    status: 409,
    meaning: 'The bonus card is blocked, or the update would take its value below 0; nothing was changed.',
  },
  TENDER_NOT_FOUND: { status: 404, meaning: 'Back office: no tender with that code.' },
});
