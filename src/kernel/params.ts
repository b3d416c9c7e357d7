import { type TProperties, Type } from 'typebox';
import { ValidationError } from './errors.ts';
import { DIGITS_MAX, MAX_INT32, MAX_SAFE_INT } from './int-limits.ts';
import type { Page } from './paging.ts';

/**
 * Every TV2 query value is a string; numbers are digits only, so `12x` is refused, never half-read,
 * and at most `max` (the range of the column it is compared with: 32-bit unless said otherwise), so
 * a larger one is a 400 naming the parameter, not a database error. Number(value) is then exact.
 */
export function digits(description: string, defaultValue?: string, max: number = MAX_INT32) {
  return digitString(DIGITS, description, defaultValue, max);
}

/** Digits of a whole number of 1 or more (a page position, a quantity, an id): `0` is refused. */
export function positiveDigits(description: string, defaultValue?: string, max: number = MAX_INT32) {
  return digitString(POSITIVE_DIGITS, description, defaultValue, max);
}

const DIGITS = '^[0-9]+$';
/** Leading zeros allowed, as for any digit string, but not zero itself. */
export const POSITIVE_DIGITS = '^0*[1-9][0-9]*$';

function digitString(pattern: string, description: string, defaultValue: string | undefined, max: number) {
  return Type.String({
    pattern,
    maxLength: 16,
    [DIGITS_MAX]: max,
    description,
    ...(defaultValue !== undefined ? { default: defaultValue } : {}),
  });
}

export function text(description: string, maxLength = 64) {
  return Type.String({ minLength: 1, maxLength, description });
}

export interface PageLimits {
  defaultLimit: number;
  maxLimit: number;
}

export function pageParams(limits: PageLimits) {
  return {
    strscn: Type.Optional(
      digits('Only what changed after this SCN; 0 (default) for everything.', '0', MAX_SAFE_INT),
    ),
    stroffset: Type.Optional(
      positiveDigits(
        'Where the page starts: 1 (default) for the first page, then the NEXTOFFSET of the page before (a position, not a count).',
        '1',
      ),
    ),
    // 1 to maxLimit in the schema as well as in toPage, so a client sees the bound it is held to.
    strlimit: Type.Optional(
      positiveDigits(
        `Records per page (default ${limits.defaultLimit}, at most ${limits.maxLimit}).`,
        String(limits.defaultLimit),
        limits.maxLimit,
      ),
    ),
  };
}

export function queryObject<P extends TProperties>(properties: P) {
  return Type.Object(properties, { additionalProperties: false });
}

export function toPage(
  query: { strscn?: string; stroffset?: string; strlimit?: string },
  limits: PageLimits,
): Page {
  const sinceScn = Number(query.strscn ?? '0');
  const offset = Number(query.stroffset ?? '1');
  const limit = Number(query.strlimit ?? String(limits.defaultLimit));
  const errors = [];
  if (offset < 1) errors.push({ name: 'stroffset', message: 'must be 1 or more' });
  if (limit < 1 || limit > limits.maxLimit) {
    errors.push({ name: 'strlimit', message: `must be from 1 to ${limits.maxLimit}` });
  }
  if (!Number.isSafeInteger(sinceScn)) errors.push({ name: 'strscn', message: 'is too large' });
  if (errors.length > 0) throw new ValidationError(errors);
  return { sinceScn, offset, limit };
}

export function toPositiveInt(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new ValidationError([{ name, message: 'must be 1 or more' }]);
  return n;
}
