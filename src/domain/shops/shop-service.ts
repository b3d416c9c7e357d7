import type { Database } from '../../db/database.ts';
import { currentScn, inWriteTransaction } from '../../db/unit-of-work.ts';
import type { SaveResult } from '../catalog/catalog-service.ts';
import { checkEmail, checkPhone } from '../clients/client-validation.ts';
import { ConflictError, type FieldError, NotFoundError, ValidationError } from '../errors.ts';
import { cleanImage, IMAGE_MEDIA_TYPES } from '../shared/image-bytes.ts';
import { type LanguageText, toLanguageJson } from '../shared/language.ts';
import type { Page, PageOf } from '../shared/paging.ts';
import { MAX_LATITUDE_MICRO, MAX_LONGITUDE_MICRO, toMicroDegrees } from './geo.ts';
import {
  checkExceptions,
  checkWeeklyHours,
  exceptionsToJson,
  type HoursException,
  type Interval,
  weeklyToJson,
} from './opening-hours.ts';
import { type AssistantRow, type ShopDetailRow, ShopRepository } from './shop-repository.ts';
import {
  blankToNull,
  type GeoValue,
  LATITUDE_MESSAGE,
  LONGITUDE_MESSAGE,
  MAX_NAME,
  numberError,
  pageOf,
  sameRow,
  tombstone,
  upsertRow,
} from './shop-shared.ts';
import {
  type AssistantWire,
  assistantToWire,
  assistantVisible,
  defaultTimeZone,
  type ShopImageWire,
  type ShopWire,
  shopImageToWire,
  shopImageVisible,
  shopToWire,
  shopVisible,
} from './shop-wire.ts';

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

export interface AssistantInput {
  locationCode: string;
  assistantNo: number;
  name: string;
  role?: LanguageText;
  /** A shop image of the same shop, or null. */
  photoImageNo?: number | null;
  active?: boolean;
}

/** Images the interface accepts; the type is sniffed from the bytes, never taken from the client. */
export const SHOP_IMAGE_TYPES: string[] = [...IMAGE_MEDIA_TYPES];
export const MAX_SHOP_IMAGE_BYTES = 5 * 1024 * 1024;
export const MAX_IMAGE_NO = 99;
export const MAX_ASSISTANT_NO = 9999;

const shopNotFound = (code: string) => new NotFoundError('SHOP_NOT_FOUND', `No shop "${code}".`);
const imageNotFound = (code: string, imageNo: number) =>
  new NotFoundError('IMAGE_NOT_FOUND', `Shop "${code}" has no image ${imageNo}.`);

function timeZoneValid(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The shops (docs/shops.md): details of the stock locations of kind SHOP (contact, position,
 * opening hours, pickup), their images and their assistants.
 */
export class ShopService {
  readonly #read: ShopRepository;

  constructor(
    readonly database: Database,
    readonly now: () => Date = () => new Date(),
  ) {
    this.#read = new ShopRepository(database.db);
  }

  /** Shops retail sees (active SHOP locations serving retail), in code order, with their details. */
  async listShops(page: Page): Promise<PageOf<ShopWire, string>> {
    const scn = await currentScn(this.database.db);
    const rows = await this.#read.shopsPage(page.sinceScn, page.offset - 1, page.limit + 1);
    return pageOf(page, scn, rows, shopVisible, shopToWire, (r) => r.code);
  }

  async listShopImages(page: Page): Promise<PageOf<ShopImageWire, { LOCATION: string; IMAGENO: number }>> {
    const scn = await currentScn(this.database.db);
    const rows = await this.#read.shopImagesPage(page.sinceScn, page.offset - 1, page.limit + 1);
    return pageOf(page, scn, rows, shopImageVisible, shopImageToWire, (r) => ({
      LOCATION: r.location_code,
      IMAGENO: r.image_no,
    }));
  }

  async shopImage(code: string, imageNo: number) {
    const location = await this.#read.findLocation(code);
    const image = location && shopVisible(location) ? await this.#read.findImage(code, imageNo) : undefined;
    if (!image) throw imageNotFound(code, imageNo);
    return { contentType: image.content_type, data: image.data, sha256: image.sha256 };
  }

  /**
   * Active assistants of the shops retail sees. With `locationCode`: that shop's only; in a feed a
   * shop that stopped being visible still answers (its assistants come under DELETED), in a full
   * list it is a 404.
   */
  async listAssistants(
    page: Page,
    locationCode?: string,
  ): Promise<PageOf<AssistantWire, { LOCATION: string; ASSISTANT: number }>> {
    if (locationCode !== undefined) {
      const location = await this.#read.findLocation(locationCode);
      const answers = location
        ? location.kind === 'SHOP' && (page.sinceScn > 0 || shopVisible(location))
        : false;
      if (!answers) {
        throw new NotFoundError('LOCATION_NOT_FOUND', `No shop "${locationCode}".`);
      }
    }
    const scn = await currentScn(this.database.db);
    const rows = await this.#read.assistantsPage(
      page.sinceScn,
      page.offset - 1,
      page.limit + 1,
      locationCode,
    );
    return pageOf(page, scn, rows, assistantVisible, assistantToWire, (r) => ({
      LOCATION: r.location_code,
      ASSISTANT: r.assistant_no,
    }));
  }

  // --- writes: each call is one transaction ------------------------------------------------------

  saveShopDetail(input: ShopDetailInput): Promise<SaveResult> {
    return this.saveShopDetails([input]);
  }

  /** Sets the details of shops (all or none); a shop whose stored details equal the input is left alone. */
  async saveShopDetails(inputs: ShopDetailInput[]): Promise<SaveResult> {
    const seen = new Set<string>();
    for (const input of inputs) {
      if (seen.has(input.locationCode)) {
        throw new ValidationError([
          { name: '/LOCATION', message: `shop ${input.locationCode} appears twice` },
        ]);
      }
      seen.add(input.locationCode);
    }
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new ShopRepository(uow.db);
      let written = 0;
      for (const input of inputs) {
        const location = await this.#shopFor(repo, input.locationCode);
        const wanted = detailRow(input, location.country);
        const stored = await repo.findDetail(input.locationCode);
        if (stored && sameRow(stored, wanted, ['scn', 'updated_at'])) continue;
        await repo.upsertDetail({ ...wanted, scn: await uow.scn(), updated_at: this.now().toISOString() });
        written++;
      }
      return { written, unchanged: inputs.length - written };
    });
  }

  /**
   * Stores a shop image: its type sniffed from the bytes (only JPEG, PNG and WebP are taken), then
   * decoded and encoded again (cleanImage), so only the picture is kept, never what was appended
   * to it or its metadata. The same upload again writes nothing (the encoding is deterministic).
   */
  async putShopImage(
    locationCode: string,
    imageNo: number,
    upload: Buffer,
    declaredType?: string,
  ): Promise<{ contentType: string; written: boolean }> {
    checkNumber('imageno', imageNo, MAX_IMAGE_NO);
    const { contentType, sha256, data } = await cleanImage(upload, {
      maxBytes: MAX_SHOP_IMAGE_BYTES,
      field: 'body',
      declaredType,
    });
    const written = await inWriteTransaction(this.database, async (uow) => {
      const repo = new ShopRepository(uow.db);
      await this.#shopFor(repo, locationCode);
      const stored = await repo.findImage(locationCode, imageNo);
      if (stored && stored.sha256 === sha256 && stored.content_type === contentType) return false;
      await repo.putImage({
        location_code: locationCode,
        image_no: imageNo,
        content_type: contentType,
        byte_size: data.length,
        sha256,
        data,
        deleted: 0,
        scn: await uow.scn(),
      });
      return true;
    });
    return { contentType: contentType, written };
  }

  /** Deletes a shop image no live assistant shows as photo (409 IMAGE_IN_USE otherwise). */
  async deleteShopImage(locationCode: string, imageNo: number): Promise<void> {
    await inWriteTransaction(this.database, async (uow) => {
      const repo = new ShopRepository(uow.db);
      const scn = await uow.scn();
      const users = await repo.assistantsShowingImage(locationCode, imageNo);
      if (users.length > 0) {
        throw new ConflictError(
          'IMAGE_IN_USE',
          `Image ${imageNo} of shop "${locationCode}" is the photo of assistant(s) ${users.join(', ')}.`,
        );
      }
      if (!(await repo.softDeleteImage(locationCode, imageNo, scn)))
        throw imageNotFound(locationCode, imageNo);
    });
  }

  async saveAssistant(input: AssistantInput): Promise<SaveResult> {
    const errors: FieldError[] = [];
    numberError(errors, 'assistant', input.assistantNo, MAX_ASSISTANT_NO);
    const name = input.name.trim();
    if (name.length === 0 || name.length > MAX_NAME)
      errors.push({ name: '/NAME', message: `must have 1 to ${MAX_NAME} characters` });
    if (input.photoImageNo != null) numberError(errors, '/PHOTOIMAGENO', input.photoImageNo, MAX_IMAGE_NO);
    if (errors.length > 0) throw new ValidationError(errors);
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new ShopRepository(uow.db);
      await this.#shopFor(repo, input.locationCode);
      const photo = input.photoImageNo ?? null;
      if (photo !== null && !(await repo.findImage(input.locationCode, photo))) {
        throw new ValidationError([
          { name: '/PHOTOIMAGENO', message: `shop ${input.locationCode} has no image ${photo}` },
        ]);
      }
      const wanted: AssistantRow = {
        location_code: input.locationCode,
        assistant_no: input.assistantNo,
        name,
        role: toLanguageJson(input.role ?? {}),
        photo_image_no: photo,
        active: input.active === false ? 0 : 1,
        deleted: 0,
        scn: 0,
        updated_at: '',
      };
      return upsertRow(
        uow,
        this.now,
        await repo.findAssistant(input.locationCode, input.assistantNo),
        wanted,
        (row) => repo.upsertAssistant(row),
      );
    });
  }

  async deleteAssistant(locationCode: string, assistantNo: number): Promise<void> {
    await inWriteTransaction(this.database, async (uow) => {
      const repo = new ShopRepository(uow.db);
      const stored = await repo.findAssistant(locationCode, assistantNo);
      if (!stored || stored.deleted === 1) {
        throw new NotFoundError(
          'ASSISTANT_NOT_FOUND',
          `Shop "${locationCode}" has no assistant ${assistantNo}.`,
        );
      }
      await repo.upsertAssistant(await tombstone(uow, this.now, stored));
    });
  }

  /** The location to write shop data for: a SHOP that is not deleted (inactive is fine). */
  async #shopFor(repo: ShopRepository, code: string) {
    const location = await repo.findLocation(code);
    if (!location || location.deleted === 1 || location.kind !== 'SHOP') throw shopNotFound(code);
    return location;
  }
}

function checkNumber(name: string, value: number, max: number): void {
  const errors: FieldError[] = [];
  numberError(errors, name, value, max);
  if (errors.length > 0) throw new ValidationError(errors);
}

/** The stored form of shop details, checked; every problem is reported in one 400. */
function detailRow(input: ShopDetailInput, country: string | null): ShopDetailRow {
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
