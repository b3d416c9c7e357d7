import { ValidationError } from './errors.ts';

/**
 * Money is kept as integer minor units (cents) and never goes through binary floating point in
 * arithmetic. Supported currencies have two decimals (the ISO 4217 exponent of EUR, USD, GBP, CHF,
 * SEK, NOK, DKK, PLN, CZK); see docs/decisions.md.
 */
export const CURRENCY = /^[A-Z]{3}$/;

const DECIMAL = /^(-)?(\d{1,13})(?:\.(\d{1,2}))?$/;

/**
 * Parses a decimal amount given as a string ("12.5", "12.50") or a JSON number (12.5) into minor
 * units. More than two decimals is refused, not rounded: the caller names the field.
 */
export function toMinor(value: string | number, field: string): number {
  const text = typeof value === 'number' ? numberToText(value, field) : value.trim();
  const match = DECIMAL.exec(text);
  if (!match)
    throw new ValidationError([{ name: field, message: 'must be an amount with at most two decimals' }]);
  const [, sign, whole, fraction = ''] = match;
  const minor = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return sign ? -minor : minor;
}

function numberToText(value: number, field: string): string {
  if (!Number.isFinite(value))
    throw new ValidationError([{ name: field, message: 'must be a finite amount' }]);
  // The shortest text that round-trips the double: 12.1 stays "12.1", 0.1 + 0.2 becomes "0.30000000000000004" and is refused.
  return String(value);
}

/**
 * Minor units to the JSON number of the wire (1999 -> 19.99). The division is exact in the sense the
 * wire needs: IEEE 754 rounds it to the double nearest to the amount, the very double the amount's
 * decimal text parses to, so the number prints as that text (an amount has at most 13 + 2 digits,
 * and every decimal of 15 significant digits survives a double). It was `Number(x.toFixed(2))`,
 * the same double at twenty times the cost (0.1 µs a call), on every price of every answer.
 */
export function fromMinor(minor: number): number {
  return minor / 100 + 0; // + 0: a zero is never -0 (a credit's `-1 * 0`), as toFixed gave none
}

/**
 * Applies a percentage given in basis points (1250 = 12.5 %) to an amount, rounding half away from
 * zero to the cent, in integer arithmetic.
 */
export function percentOf(minor: number, basisPoints: number): number {
  const numerator = minor * basisPoints;
  const sign = numerator < 0 ? -1 : 1;
  return sign * Math.floor((Math.abs(numerator) + 5000) / 10000);
}

/**
 * Basis points to the percentage number of the wire: 2100 -> 21, 550 -> 5.5, 1250 -> 12.5 (exact:
 * at most two decimals). VAT rates, discounts.
 */
export function percentFromBasisPoints(bp: number): number {
  return bp / 100 + 0; // as fromMinor
}
