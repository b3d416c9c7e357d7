import { fromLanguageJson, type LanguageObject } from '../../kernel/language.ts';
import { fromMicroDegrees } from './geo.ts';
import { type ExceptionWire, exceptionsFromJson, type WeekdayWire, weeklyFromJson } from './opening-hours.ts';
import type { PickupRow } from './pickup-repository.ts';
import type {
  AssistantFeedRow,
  BlockRow,
  LocationFlags,
  RegexRow,
  ShopImageFeedRow,
  ShopRow,
} from './shop-repository.ts';

/** Shops and app content as the TV2 interface shows them (docs/shops.md). */
export interface ShopWire {
  LOCATION: string;
  NAME: string;
  ADDRESS: string;
  HOUSENUMBER: string;
  POSTALCODE: string;
  CITY: string;
  COUNTRY: string;
  PHONE: string;
  EMAIL: string;
  LATITUDE: number | null;
  LONGITUDE: number | null;
  PICKUP: boolean;
  TIMEZONE: string;
  DESCRIPTION: LanguageObject;
  OPENINGHOURS: WeekdayWire[];
  EXCEPTIONS: ExceptionWire[];
  SCN: number;
}

export interface ShopImageWire {
  LOCATION: string;
  IMAGENO: number;
  CONTENTTYPE: string;
  BYTES: number;
  SHA256: string;
  SCN: number;
}

export interface AssistantWire {
  LOCATION: string;
  ASSISTANT: number;
  NAME: string;
  ROLE: LanguageObject;
  PHOTOIMAGENO: number | null;
  SCN: number;
}

export type PickupType = 'SHOP' | 'POINT';

export interface PickupWire {
  TYPE: PickupType;
  LOCATION: string;
  NAME: string;
  ADDRESS: string;
  HOUSENUMBER: string;
  POSTALCODE: string;
  CITY: string;
  COUNTRY: string;
  LATITUDE: number | null;
  LONGITUDE: number | null;
  /** Metres from the position asked about; null without one (or without a position of the location). */
  DISTANCE: number | null;
  DESCRIPTION: LanguageObject;
  SCN: number;
}

export interface BlockWire {
  PAGE: string;
  BLOCK: number;
  POSITION: number;
  TITLE: LanguageObject;
  TEXT: LanguageObject;
  IMAGE: string;
  LINK: string;
  VALIDFROM: string | null;
  VALIDTO: string | null;
  SCN: number;
}

export interface RegexWire {
  NAME: string;
  COUNTRY: string | null;
  PATTERN: string;
  DESCRIPTION: LanguageObject;
  /** The server validates this field with the very same pattern. */
  SERVER: boolean;
  SCN: number;
}

const EMPTY_TEXT = '{}';

/** Time zones of the countries the trade has shops in; others need TIMEZONE given. */
const COUNTRY_ZONES: Record<string, string> = {
  NL: 'Europe/Amsterdam',
  BE: 'Europe/Brussels',
  LU: 'Europe/Luxembourg',
  DE: 'Europe/Berlin',
  FR: 'Europe/Paris',
  AT: 'Europe/Vienna',
  GB: 'Europe/London',
};

export function defaultTimeZone(country: string | null): string {
  return (country && COUNTRY_ZONES[country]) || 'UTC';
}

/** Retail sees a location as a shop while it is a SHOP, active, serving retail and not deleted. */
export function shopVisible(l: LocationFlags): boolean {
  return l.kind === 'SHOP' && l.active === 1 && l.serves_retail === 1 && l.deleted === 0;
}

const geo = (micro: number | null) => (micro === null ? null : fromMicroDegrees(micro));

export function shopToWire(r: ShopRow): ShopWire {
  return {
    LOCATION: r.code,
    NAME: r.name,
    ADDRESS: r.address ?? '',
    HOUSENUMBER: r.house_number ?? '',
    POSTALCODE: r.postal_code ?? '',
    CITY: r.city ?? '',
    COUNTRY: r.country ?? '',
    PHONE: r.phone ?? '',
    EMAIL: r.email ?? '',
    LATITUDE: geo(r.latitude_micro),
    LONGITUDE: geo(r.longitude_micro),
    PICKUP: r.pickup === 1,
    TIMEZONE: r.time_zone ?? defaultTimeZone(r.country),
    DESCRIPTION: fromLanguageJson(r.description ?? EMPTY_TEXT),
    OPENINGHOURS: weeklyFromJson(r.opening_hours ?? '[]'),
    EXCEPTIONS: exceptionsFromJson(r.hours_exceptions ?? '[]'),
    SCN: Math.max(r.location_scn, r.detail_scn ?? 0),
  };
}

export function shopImageVisible(r: ShopImageFeedRow): boolean {
  return r.deleted === 0 && shopVisible({ ...r, deleted: r.location_deleted });
}

export function shopImageToWire(r: ShopImageFeedRow): ShopImageWire {
  return {
    LOCATION: r.location_code,
    IMAGENO: r.image_no,
    CONTENTTYPE: r.content_type,
    BYTES: r.byte_size,
    SHA256: r.sha256,
    SCN: Math.max(r.scn, r.location_scn),
  };
}

export function assistantVisible(r: AssistantFeedRow): boolean {
  return (
    r.deleted === 0 &&
    r.active === 1 &&
    shopVisible({
      kind: r.kind,
      active: r.location_active,
      serves_retail: r.serves_retail,
      deleted: r.location_deleted,
    })
  );
}

export function assistantToWire(r: AssistantFeedRow): AssistantWire {
  return {
    LOCATION: r.location_code,
    ASSISTANT: r.assistant_no,
    NAME: r.name,
    ROLE: fromLanguageJson(r.role),
    PHOTOIMAGENO: r.photo_image_no,
    SCN: Math.max(r.scn, r.location_scn),
  };
}

export const pickupType = (r: PickupRow): PickupType => (Number(r.sort) === 1 ? 'SHOP' : 'POINT');

export function pickupToWire(r: PickupRow, distance: number | null): PickupWire {
  return {
    TYPE: pickupType(r),
    LOCATION: r.code,
    NAME: r.name,
    ADDRESS: r.address ?? '',
    HOUSENUMBER: r.house_number ?? '',
    POSTALCODE: r.postal_code ?? '',
    CITY: r.city ?? '',
    COUNTRY: r.country ?? '',
    LATITUDE: geo(r.latitude_micro),
    LONGITUDE: geo(r.longitude_micro),
    DISTANCE: distance,
    DESCRIPTION: fromLanguageJson(r.description),
    SCN: Math.max(Number(r.scn), Number(r.other_scn)),
  };
}

export function blockToWire(r: BlockRow): BlockWire {
  return {
    PAGE: r.page,
    BLOCK: r.block_no,
    POSITION: r.position,
    TITLE: fromLanguageJson(r.title),
    TEXT: fromLanguageJson(r.body),
    IMAGE: r.image ?? '',
    LINK: r.link ?? '',
    VALIDFROM: r.valid_from,
    VALIDTO: r.valid_to,
    SCN: r.scn,
  };
}

export function regexToWire(r: RegexRow): RegexWire {
  return {
    NAME: r.name,
    COUNTRY: r.country === '' ? null : r.country,
    PATTERN: r.pattern,
    DESCRIPTION: fromLanguageJson(r.description),
    SERVER: false,
    SCN: r.scn,
  };
}
