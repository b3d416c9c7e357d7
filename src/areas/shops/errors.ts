import { defineErrors } from '../../kernel/errors.ts';

/** The shops area's error codes (docs/api-conventions.md lists them all). */
export const SHOPS_ERRORS = defineErrors('shops', {
  SHOP_NOT_FOUND: { status: 404, meaning: 'No live shop with that code (a warehouse is not a shop).' },
  ASSISTANT_NOT_FOUND: { status: 404, meaning: 'The shop has no live assistant with that number.' },
  PICKUP_POINT_NOT_FOUND: { status: 404, meaning: 'No live pickup point with that code.' },
  BLOCK_NOT_FOUND: { status: 404, meaning: 'The home page has no live block with that number.' },
  PATTERN_NOT_FOUND: { status: 404, meaning: 'No validation pattern of that name (and country).' },
  IMAGE_IN_USE: { status: 409, meaning: 'The shop image is the photo of a live assistant.' },
  PATTERN_FIXED: {
    status: 409,
    meaning: 'The server validates that field with its own pattern, which cannot be changed.',
  },
});
