/**
 * The ranges of the integer columns, for the schemas of every written number: a value the column
 * cannot hold is a 400 naming the field, never a database error.
 */

/** A 32-bit integer column (PostgreSQL `integer`): party numbers, quantities, codes, positions. */
export const MAX_INT32 = 2_147_483_647;
export const MIN_INT32 = -2_147_483_648;
/** Ids and SCNs are 64-bit columns; a JSON number is exact up to this. */
export const MAX_SAFE_INT = Number.MAX_SAFE_INTEGER;

/**
 * A schema keyword for digit strings (query values, path keys, numbers a body may send as text):
 * the largest value the digits may spell. Checked by the HTTP layer's Ajv (src/http/digits-keyword.ts).
 */
export const DIGITS_MAX = 'x-digits-max';
