/**
 * Geo positions are kept as whole micro-degrees (52.370216° is 52370216): parsed from decimal text
 * exactly and shown again as the same decimal, never through floating-point arithmetic. Only the
 * distance between two points is computed in floating point: it is not money, and metres are
 * rounded anyway (docs/shops.md).
 */

const DEGREES = /^(-)?([0-9]{1,3})(?:\.([0-9]{1,6}))?$/;

export const MAX_LATITUDE_MICRO = 90_000_000;
export const MAX_LONGITUDE_MICRO = 180_000_000;

/**
 * Decimal degrees ("52.370216", or a JSON number such as 4.895168) to micro-degrees; null when the
 * text is no number of degrees with at most six decimals or lies outside ±`maxMicro`.
 */
export function toMicroDegrees(value: string | number, maxMicro: number): number | null {
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  // A JSON number is read by its shortest round-trip text: 4.895168 stays "4.895168".
  const text = typeof value === 'number' ? String(value) : value.trim();
  const match = DEGREES.exec(text);
  if (!match) return null;
  const [, sign, whole = '0', fraction = ''] = match;
  const micro = Number(whole) * 1_000_000 + Number(fraction.padEnd(6, '0'));
  if (micro > maxMicro) return null;
  return sign && micro !== 0 ? -micro : micro;
}

/** Micro-degrees to the JSON number of the wire: 52370216 -> 52.370216 (the decimal, exactly as text). */
export function fromMicroDegrees(micro: number): number {
  const sign = micro < 0 ? '-' : '';
  const abs = Math.abs(micro);
  return Number(`${sign}${Math.trunc(abs / 1_000_000)}.${String(abs % 1_000_000).padStart(6, '0')}`);
}

export interface MicroPosition {
  latitude: number;
  longitude: number;
}

const EARTH_RADIUS_METRES = 6_371_008.8;

/** Great-circle distance in whole metres (haversine on the mean earth radius). */
export function distanceMetres(a: MicroPosition, b: MicroPosition): number {
  const rad = (micro: number) => (micro / 1_000_000) * (Math.PI / 180);
  const dLat = rad(b.latitude - a.latitude);
  const dLon = rad(b.longitude - a.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return Math.round(2 * EARTH_RADIUS_METRES * Math.asin(Math.min(1, Math.sqrt(h))));
}
