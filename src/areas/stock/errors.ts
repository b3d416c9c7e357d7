import { defineErrors } from '../../kernel/errors.ts';

/** The stock area's error codes (docs/api-conventions.md lists them all). */
export const STOCK_ERRORS = defineErrors('stock', {
  UNKNOWN_SIZE: { status: 400, meaning: 'The article has no such size; `errors` names the sizes it has.' },
  LOCATION_NOT_FOUND: {
    status: 404,
    meaning: 'No live stock location (or shop retail sees) with that code.',
  },
  LOCATION_EXISTS: { status: 409, meaning: 'A live location with that code exists already.' },
  LOCATION_HAS_STOCK: {
    status: 409,
    meaning: 'The location still holds stock; transfer or correct it to zero before deleting it.',
  },
  LOCATION_INACTIVE: {
    status: 409,
    meaning: 'The location is not active, so nothing can be reserved there.',
  },
  INSUFFICIENT_STOCK: {
    status: 409,
    meaning: 'Not enough stock is available (on hand less reserved) for the movement or count.',
  },
  INSUFFICIENT_RESERVATION: {
    status: 409,
    meaning: 'Not that much is reserved, so it cannot be released or shipped.',
  },
});
