import { defineErrors } from '../../kernel/errors.ts';

/** The customers area's error codes (docs/api-conventions.md lists them all). */
export const CUSTOMERS_ERRORS = defineErrors('customers', {
  CUSTOMER_NOT_FOUND: { status: 404, meaning: 'No live customer with that number (or external key).' },
  ADDRESS_NOT_FOUND: { status: 404, meaning: 'The customer has no live delivery address with that number.' },
  REPRESENTATIVE_NOT_FOUND: { status: 404, meaning: 'No live representative with that code.' },
  EXTERNAL_KEY_TAKEN: { status: 409, meaning: 'The external key belongs to another customer.' },
  TOO_MANY_ADDRESSES: {
    status: 409,
    meaning: 'The customer has used all its delivery address numbers.',
  },
  REPRESENTATIVE_IN_USE: {
    status: 409,
    meaning: 'Live customers still have the representative; give them another one first.',
  },
  CUSTOMER_ARTICLE_TAKEN: {
    status: 409,
    meaning: 'The customer would use one of its own article numbers for two articles.',
  },
});
