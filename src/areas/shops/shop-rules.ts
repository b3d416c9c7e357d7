import { checkCountry, checkEmail, checkPhone, checkPostalCode } from '../../kernel/contact.ts';
import { type FieldError, ValidationError } from '../../kernel/errors.ts';
import { type LanguageText, toLanguageJson } from '../../kernel/language.ts';
import { MAX_LATITUDE_MICRO, MAX_LONGITUDE_MICRO, toMicroDegrees } from './geo.ts';
import {
  checkExceptions,
  checkWeeklyHours,
  exceptionsToJson,
  type HoursException,
  type Interval,
  weeklyToJson,
} from './opening-hours.ts';
import type { BlockRow, PickupPointRow, ShopDetailRow } from './shop-repository.ts';
import { blankToNull, type GeoValue, LATITUDE_MESSAGE, LONGITUDE_MESSAGE } from './shop-shared.ts';
import { defaultTimeZone } from './shop-wire.ts';

/**
 * The shops area's rules that need no database (docs/shops.md): the checks of shop details, pickup
 * points and home page blocks the request schemas (shop-input.ts) cannot state, and the stored
 * rows built from them. Every problem of an input is reported in one ValidationError, naming the
 * field by its JSON pointer in the written record (`/LATITUDE`).
 */

export interface ShopDetailInput {
  locationCode: string;
  phone?: string | null;
  email?: string | null;
  /** Decimal degrees with at most six decimals (a string, or a JSON number). */
  latitude?: GeoValue | null;
  longitude?: GeoValue | null;
  pickup?: boolean;
  /** IANA zone of the opening hours; default by the location's country (NL: Europe/Amsterdam). */
  timeZone?: string | null;
  description?: LanguageText;
  /** Weekdays 1 (Monday) to 7; a weekday not given, or without intervals, is closed. */
  openingHours?: Array<{ weekday: number; hours: Interval[] }>;
  exceptions?: HoursException[];
}

export interface PickupPointInput {
  code: string;
  name: string;
  address?: string | null;
  houseNumber?: string | null;
  postalCode?: string | null;
  city?: string | null;
  country?: string | null;
  latitude: GeoValue;
  longitude: GeoValue;
  description?: LanguageText;
  active?: boolean;
}

export interface HomePageBlockInput {
  page: string;
  blockNo: number;
  position: number;
  title?: LanguageText;
  text?: LanguageText;
  image?: string | null;
  link?: string | null;
  validFrom?: string | null;
  validTo?: string | null;
  active?: boolean;
}

export const MAX_BLOCK_NO = 9999;

export const PAGE_CODE = /^[A-Z0-9][A-Z0-9_-]{0,19}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const HTTPS_URL = /^https:\/\/[^\s]{1,490}$/;
const IMAGE_REF =
  /^(?:ARTICLE:[A-Za-z0-9][A-Za-z0-9._/-]{0,39}|SHOP:[A-Za-z0-9][A-Za-z0-9._-]{0,19})\/[0-9]{1,2}$/;
const LINK = /^[a-z][a-z0-9+.-]{0,20}:[^\s]{1,490}$/;

/** The code of a pickup point. */
export const POINT_CODE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,19}$/;

function timeZoneValid(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function instantValid(value: string): boolean {
  return INSTANT.test(value) && new Date(value).toISOString().replace('.000Z', 'Z') === value;
}

/** The stored form of shop details, checked; every problem is reported in one 400. */
export function detailRow(input: ShopDetailInput, country: string | null): ShopDetailRow {
  const errors: FieldError[] = [];
  let phone: string | null = null;
  if (input.phone != null && input.phone.trim() !== '') {
    const checked = checkPhone(input.phone, country);
    if (checked.ok) phone = checked.value;
    else errors.push({ name: '/PHONE', message: checked.message });
  }
  let email: string | null = null;
  if (input.email != null && input.email.trim() !== '') {
    const checked = checkEmail(input.email);
    if (checked.ok) email = checked.value;
    else errors.push({ name: '/EMAIL', message: checked.message });
  }
  const hasLat = input.latitude != null && input.latitude !== '';
  const hasLon = input.longitude != null && input.longitude !== '';
  let latitude: number | null = null;
  let longitude: number | null = null;
  if (hasLat) {
    latitude = toMicroDegrees(input.latitude as GeoValue, MAX_LATITUDE_MICRO);
    if (latitude === null) errors.push({ name: '/LATITUDE', message: LATITUDE_MESSAGE });
  }
  if (hasLon) {
    longitude = toMicroDegrees(input.longitude as GeoValue, MAX_LONGITUDE_MICRO);
    if (longitude === null) errors.push({ name: '/LONGITUDE', message: LONGITUDE_MESSAGE });
  }
  if (hasLat !== hasLon) {
    errors.push({
      name: hasLat ? '/LONGITUDE' : '/LATITUDE',
      message: 'give latitude and longitude together',
    });
  }
  const timeZone = blankToNull(input.timeZone) ?? defaultTimeZone(country);
  if (!timeZoneValid(timeZone))
    errors.push({ name: '/TIMEZONE', message: 'must be an IANA time zone such as Europe/Amsterdam' });
  const weekly = checkWeeklyHours(input.openingHours ?? [], errors);
  const exceptions = checkExceptions(input.exceptions ?? [], errors);
  if (errors.length > 0) throw new ValidationError(errors);
  return {
    location_code: input.locationCode,
    phone,
    email,
    latitude_micro: latitude,
    longitude_micro: longitude,
    pickup: input.pickup ? 1 : 0,
    time_zone: timeZone,
    description: toLanguageJson(input.description ?? {}),
    opening_hours: weeklyToJson(weekly),
    hours_exceptions: exceptionsToJson(exceptions),
    scn: 0,
    updated_at: '',
  };
}

/** The stored form of a pickup point, checked. */
export function pickupPointRow(input: PickupPointInput): PickupPointRow {
  const errors: FieldError[] = [];
  const name = input.name.trim();
  let country: string | null = null;
  if (input.country != null && input.country !== '') {
    const checked = checkCountry(input.country);
    if (checked.ok) country = checked.value;
    else errors.push({ name: '/COUNTRY', message: checked.message });
  }
  let postalCode: string | null = null;
  if (input.postalCode != null && input.postalCode !== '') {
    const checked = checkPostalCode(input.postalCode, country);
    if (checked.ok) postalCode = checked.value;
    else errors.push({ name: '/POSTALCODE', message: checked.message });
  }
  const latitude = toMicroDegrees(input.latitude, MAX_LATITUDE_MICRO);
  const longitude = toMicroDegrees(input.longitude, MAX_LONGITUDE_MICRO);
  if (latitude === null) errors.push({ name: '/LATITUDE', message: LATITUDE_MESSAGE });
  if (longitude === null) errors.push({ name: '/LONGITUDE', message: LONGITUDE_MESSAGE });
  if (errors.length > 0 || latitude === null || longitude === null) throw new ValidationError(errors);
  const wanted: PickupPointRow = {
    code: input.code,
    name,
    address: blankToNull(input.address),
    house_number: blankToNull(input.houseNumber),
    postal_code: postalCode,
    city: blankToNull(input.city),
    country,
    latitude_micro: latitude,
    longitude_micro: longitude,
    description: toLanguageJson(input.description ?? {}),
    active: input.active === false ? 0 : 1,
    deleted: 0,
    scn: 0,
    updated_at: '',
  };
  return wanted;
}

/** The stored form of a home page block, checked. */
export function blockRow(input: HomePageBlockInput): BlockRow {
  const errors: FieldError[] = [];
  // POSITION, IMAGE and LINK are checked here (not in the schema) to be reported with VALIDTO.
  if (!Number.isInteger(input.position) || input.position < 0 || input.position > 9999)
    errors.push({ name: '/POSITION', message: 'must be a whole number from 0 to 9999' });
  const image = blankToNull(input.image);
  if (image !== null && !HTTPS_URL.test(image) && !IMAGE_REF.test(image)) {
    errors.push({
      name: '/IMAGE',
      message: 'must be an https URL, ARTICLE:<article>/<imageno> or SHOP:<location>/<imageno>',
    });
  }
  const link = blankToNull(input.link);
  if (link !== null && !LINK.test(link))
    errors.push({ name: '/LINK', message: 'must be a URL or an app link (scheme:...), without spaces' });
  const validFrom = blankToNull(input.validFrom);
  const validTo = blankToNull(input.validTo);
  for (const [field, value] of [
    ['/VALIDFROM', validFrom],
    ['/VALIDTO', validTo],
  ] as const) {
    if (value !== null && !instantValid(value))
      errors.push({ name: field, message: 'must be an instant YYYY-MM-DDTHH:mm:ssZ' });
  }
  if (validFrom && validTo && instantValid(validFrom) && instantValid(validTo) && validTo <= validFrom)
    errors.push({ name: '/VALIDTO', message: 'must be after VALIDFROM' });
  if (errors.length > 0) throw new ValidationError(errors);
  const wanted: BlockRow = {
    page: input.page,
    block_no: input.blockNo,
    position: input.position,
    title: toLanguageJson(input.title ?? {}),
    body: toLanguageJson(input.text ?? {}),
    image,
    link,
    valid_from: validFrom,
    valid_to: validTo,
    active: input.active === false ? 0 : 1,
    deleted: 0,
    scn: 0,
    updated_at: '',
  };
  return wanted;
}
