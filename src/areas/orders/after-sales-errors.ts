import { defineErrors } from '../../kernel/errors.ts';

/** The codes of deliveries, closing and returns (docs/orders.md, "Deliveries", "Returns"). */
export const AFTER_SALES_ERRORS = defineErrors('orders', {
  DELIVERY_ALREADY_CANCELLED: {
    status: 409,
    meaning:
      'The delivery was cancelled already: its stock and its lines were given back once, and are not again.',
  },
  RETURN_NOT_AUTHORISED: {
    status: 409,
    meaning:
      'The return is not (or no longer) authorised: it was received already, and its stock and lines counted once.',
  },
  RETURN_OVER_DELIVERED: {
    status: 409,
    meaning:
      'A return of a line asks for more than was delivered and is neither returned nor authorised for return already.',
  },
});
