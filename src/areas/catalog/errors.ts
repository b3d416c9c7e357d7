import { defineErrors } from '../../kernel/errors.ts';

/** The catalog area's error codes (docs/api-conventions.md lists them all). */
export const CATALOG_ERRORS = defineErrors('catalog', {
  ARTICLE_NOT_FOUND: {
    status: 404,
    meaning: 'No live article with that number or barcode (for retail: none published for retail).',
  },
  SIZE_TABLE_NOT_FOUND: { status: 404, meaning: 'No size table with that code.' },
  ARTICLE_HAS_STOCK: {
    status: 409,
    meaning: 'The article still has stock on hand or reserved somewhere; book it out before deleting it.',
  },
  BARCODE_TAKEN: { status: 409, meaning: 'The barcode belongs to another article.' },
  SIZE_TABLE_IN_USE: { status: 409, meaning: 'Live articles use the size table, so it cannot be deleted.' },
});
