import { defineErrors } from '../../kernel/errors.ts';

/** The pricing area's error codes (docs/api-conventions.md lists them all). */
export const PRICING_ERRORS = defineErrors('pricing', {
  PRICE_NOT_FOUND: {
    status: 404,
    meaning: 'The article size has no selling price in that currency for the price group.',
  },
  SIZE_NOT_FOUND: { status: 404, meaning: 'The article has no such size.' },
  AGREEMENT_NOT_FOUND: {
    status: 404,
    meaning: 'No live price agreement with that id (that this token sees).',
  },
  LINE_DISCOUNT_NOT_FOUND: { status: 404, meaning: 'No live line discount with that id.' },
  ACTION_PRICE_NOT_FOUND: { status: 404, meaning: 'No live action price with that id.' },
  CUSTOMER_INACTIVE: { status: 409, meaning: 'The customer is not active, so it gets no price.' },
  ACTION_PRICE_OVERLAP: {
    status: 409,
    meaning: 'Another action price runs in that period for the same article, size and currency.',
  },
});
