import { defineErrors } from '../../kernel/errors.ts';

/**
 * The orders area's own codes (docs/api-conventions.md lists them all); the lifecycle's refusals
 * are ORDER_RULE_ERRORS (rules/refusals.ts), listed beside these.
 */
export const ORDERS_ERRORS = defineErrors('orders', {
  ORDER_NOT_FOUND: { status: 404, meaning: 'No order with that number (for this party).' },
  WEBORDER_CONFLICT: {
    status: 409,
    meaning:
      'The party has an order with this WEBORDER already, placed with other content: a repeat must send the same body (it then answers that order).',
  },
  ORDER_PRICE_DIFFERS: {
    status: 409,
    meaning:
      'A price, discount or freight the client sent differs from the server’s (prices are the server’s): read the prices again, or leave them out.',
  },
  DELIVERY_NOT_FOUND: { status: 404, meaning: 'No delivery with that number (for this order).' },
  RETURN_NOT_FOUND: { status: 404, meaning: 'No return authorisation with that number (for this order).' },
});
