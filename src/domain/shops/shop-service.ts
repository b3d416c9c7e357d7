import type { Database } from '../../db/database.ts';
import { currentScn, inWriteTransaction, type UnitOfWork } from '../../db/unit-of-work.ts';
import type { SaveResult } from '../catalog/catalog-service.ts';
import { checkCountry, checkEmail, checkPhone, checkPostalCode } from '../clients/client-validation.ts';
import { ConflictError, type FieldError, NotFoundError, ValidationError } from '../errors.ts';
import { cleanImage, IMAGE_MEDIA_TYPES } from '../shared/image-bytes.ts';
import { fromLanguageJson, type LanguageText, toLanguageJson } from '../shared/language.ts';
import type { Page, PageOf } from '../shared/paging.ts';
import { type CompanyPattern, checkPattern, isServerPattern, SERVER_PATTERNS } from './company-regex.ts';
import {
  distanceMetres,
  MAX_LATITUDE_MICRO,
  MAX_LONGITUDE_MICRO,
  type MicroPosition,
  toMicroDegrees,
} from './geo.ts';
import {
  checkExceptions,
  checkWeeklyHours,
  exceptionsToJson,
  type HoursException,
  type Interval,
  weeklyToJson,
} from './opening-hours.ts';
import {
  type AssistantRow,
  type BlockRow,
  type PickupPointRow,
  type RegexRow,
  type ShopDetailRow,
  ShopRepository,
} from './shop-repository.ts';
import {
  type AssistantWire,
  assistantToWire,
  assistantVisible,
  type BlockWire,
  blockToWire,
  defaultTimeZone,
  type PickupType,
  type PickupWire,
  pickupToWire,
  pickupType,
  type RegexWire,
  regexToWire,
  type ShopImageWire,
  type ShopWire,
  shopImageToWire,
  shopImageVisible,
  shopToWire,
  shopVisible,
} from './shop-wire.ts';

/**
 * The shops area (docs/shops.md): details of the stock locations of kind SHOP (contact, position,
 * opening hours, pickup), their images and assistants, external pickup points, the content blocks
 * of the consumer app and the validation patterns for client apps. Every write is one transaction
 * and stamps what it changes with the transaction's SCN; saving what is already stored writes
 * nothing. Deletions keep the row, flagged, as the tombstone the change feeds report.
 */

export type GeoValue = string | number;

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

/** Images the interface accepts; the type is sniffed from the bytes, never taken from the client. */
export const SHOP_IMAGE_TYPES: string[] = [...IMAGE_MEDIA_TYPES];
export const MAX_SHOP_IMAGE_BYTES = 5 * 1024 * 1024;
export const MAX_IMAGE_NO = 99;
export const MAX_ASSISTANT_NO = 9999;
export const MAX_BLOCK_NO = 9999;

const CODE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,19}$/;
const PAGE_CODE = /^[A-Z0-9][A-Z0-9_-]{0,19}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const HTTPS_URL = /^https:\/\/[^\s]{1,490}$/;
const IMAGE_REF =
  /^(?:ARTICLE:[A-Za-z0-9][A-Za-z0-9._/-]{0,39}|SHOP:[A-Za-z0-9][A-Za-z0-9._-]{0,19})\/[0-9]{1,2}$/;
const LINK = /^[a-z][a-z0-9+.-]{0,20}:[^\s]{1,490}$/;
const MAX_NAME = 100;

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

function instantValid(value: string): boolean {
  return INSTANT.test(value) && new Date(value).toISOString().replace('.000Z', 'Z') === value;
}

/** One page of a feed: `rows` fetched with one extra row to tell whether more follow. */
function pageOf<R, T, D>(
  page: Page,
  scn: number,
  rows: R[],
  visible: (r: R) => boolean,
  toWire: (r: R) => T,
  key: (r: R) => D,
): PageOf<T, D> {
  const more = rows.length > page.limit;
  const slice = more ? rows.slice(0, page.limit) : rows;
  return {
    scn,
    nextOffset: more ? page.offset + page.limit : null,
    items: slice.filter(visible).map(toWire),
    deleted: page.sinceScn > 0 ? slice.filter((r) => !visible(r)).map(key) : [],
  };
}

export class ShopService {
  readonly #read: ShopRepository;

  constructor(
    readonly database: Database,
    readonly now: () => Date = () => new Date(),
  ) {
    this.#read = new ShopRepository(database.db);
  }

  // --- reads -----------------------------------------------------------------------------------

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

  /**
   * Shops that allow pickup, then external pickup points, each in code order. With a position the
   * answer is the current list ordered by distance (nearest first; locations without a position
   * last): a snapshot, not a change feed, so `strscn` must be 0 then.
   */
  async listPickupLocations(
    page: Page,
    position?: MicroPosition,
  ): Promise<PageOf<PickupWire, { TYPE: PickupType; LOCATION: string }>> {
    const scn = await currentScn(this.database.db);
    if (!position) {
      const rows = await this.#read.pickupPage(page.sinceScn, page.offset - 1, page.limit + 1);
      return pageOf(
        page,
        scn,
        rows,
        (r) => Number(r.visible) === 1,
        (r) => pickupToWire(r, null),
        (r) => ({ TYPE: pickupType(r), LOCATION: r.code }),
      );
    }
    if (page.sinceScn > 0) {
      throw new ValidationError([
        { name: 'strscn', message: 'a list sorted by distance is not a change feed: leave strscn out or 0' },
      ]);
    }
    const located = (await this.#read.visiblePickups()).map((r) => ({
      row: r,
      distance:
        r.latitude_micro === null || r.longitude_micro === null
          ? null
          : distanceMetres(position, { latitude: r.latitude_micro, longitude: r.longitude_micro }),
    }));
    located.sort(
      (a, b) =>
        (a.distance ?? Number.POSITIVE_INFINITY) - (b.distance ?? Number.POSITIVE_INFINITY) ||
        Number(a.row.sort) - Number(b.row.sort) ||
        (a.row.code < b.row.code ? -1 : a.row.code > b.row.code ? 1 : 0),
    );
    const slice = located.slice(page.offset - 1, page.offset - 1 + page.limit);
    return {
      scn,
      nextOffset: located.length > page.offset - 1 + page.limit ? page.offset + page.limit : null,
      items: slice.map((l) => pickupToWire(l.row, l.distance)),
      deleted: [],
    };
  }

  /** Active content blocks of the app's pages (or of one page), in page and block order. */
  async listHomePageBlocks(
    page: Page,
    pageCode?: string,
  ): Promise<PageOf<BlockWire, { PAGE: string; BLOCK: number }>> {
    const scn = await currentScn(this.database.db);
    const rows = await this.#read.blocksPage(page.sinceScn, page.offset - 1, page.limit + 1, pageCode);
    return pageOf(
      page,
      scn,
      rows,
      (r) => r.deleted === 0 && r.active === 1,
      blockToWire,
      (r) => ({ PAGE: r.page, BLOCK: r.block_no }),
    );
  }

  /**
   * The validation patterns: the server's own (built in, SCN 0) at positions 1 to n of every
   * answer, full list or feed, then the table's entries in name and country order.
   */
  async listRegexes(page: Page): Promise<PageOf<RegexWire, { NAME: string; COUNTRY: string | null }>> {
    const scn = await currentScn(this.database.db);
    const builtIn = SERVER_PATTERNS.length;
    const start = page.offset - 1;
    const fixed = SERVER_PATTERNS.slice(start, start + page.limit).map(
      (p): RegexWire => ({
        NAME: p.name,
        COUNTRY: p.country,
        PATTERN: p.pattern,
        DESCRIPTION: fromLanguageJson(toLanguageJson(p.description)),
        SERVER: true,
        SCN: 0,
      }),
    );
    const need = page.limit - fixed.length;
    const rows = await this.#read.regexPage(page.sinceScn, Math.max(0, start - builtIn), need + 1);
    const more = rows.length > need || start + page.limit < builtIn;
    const slice = rows.slice(0, need);
    // A table entry under a key the server now validates itself is shadowed by the built-in one.
    const shadowed = (r: RegexRow) => isServerPattern(r.name, r.country === '' ? null : r.country);
    return {
      scn,
      nextOffset: more ? page.offset + page.limit : null,
      items: [...fixed, ...slice.filter((r) => r.deleted === 0 && !shadowed(r)).map(regexToWire)],
      deleted:
        page.sinceScn > 0
          ? slice
              .filter((r) => r.deleted === 1 && !shadowed(r))
              .map((r) => ({ NAME: r.name, COUNTRY: r.country === '' ? null : r.country }))
          : [],
    };
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
      return this.#upsert(
        uow,
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
      await repo.upsertAssistant(await this.#tombstone(uow, stored));
    });
  }

  async savePickupPoint(input: PickupPointInput): Promise<SaveResult> {
    const errors: FieldError[] = [];
    if (!CODE.test(input.code))
      errors.push({ name: '/LOCATION', message: 'use 1 to 20 letters, digits or . _ -' });
    const name = input.name.trim();
    if (name.length === 0 || name.length > MAX_NAME)
      errors.push({ name: '/NAME', message: `must have 1 to ${MAX_NAME} characters` });
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
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new ShopRepository(uow.db);
      return this.#upsert(uow, await repo.findPickupPoint(input.code), wanted, (row) =>
        repo.upsertPickupPoint(row),
      );
    });
  }

  async deletePickupPoint(code: string): Promise<void> {
    await inWriteTransaction(this.database, async (uow) => {
      const repo = new ShopRepository(uow.db);
      const stored = await repo.findPickupPoint(code);
      if (!stored || stored.deleted === 1)
        throw new NotFoundError('PICKUP_POINT_NOT_FOUND', `No pickup point "${code}".`);
      await repo.upsertPickupPoint(await this.#tombstone(uow, stored));
    });
  }

  async saveHomePageBlock(input: HomePageBlockInput): Promise<SaveResult> {
    const errors: FieldError[] = [];
    if (!PAGE_CODE.test(input.page))
      errors.push({ name: '/PAGE', message: 'use 1 to 20 capitals, digits, _ or -' });
    numberError(errors, '/BLOCK', input.blockNo, MAX_BLOCK_NO);
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
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new ShopRepository(uow.db);
      return this.#upsert(uow, await repo.findBlock(input.page, input.blockNo), wanted, (row) =>
        repo.upsertBlock(row),
      );
    });
  }

  async deleteHomePageBlock(page: string, blockNo: number): Promise<void> {
    await inWriteTransaction(this.database, async (uow) => {
      const repo = new ShopRepository(uow.db);
      const stored = await repo.findBlock(page, blockNo);
      if (!stored || stored.deleted === 1)
        throw new NotFoundError('BLOCK_NOT_FOUND', `Page "${page}" has no block ${blockNo}.`);
      await repo.upsertBlock(await this.#tombstone(uow, stored));
    });
  }

  /** Stores a validation pattern; the server's own patterns are fixed (409 PATTERN_FIXED). */
  async saveRegex(input: CompanyPattern): Promise<SaveResult> {
    const errors = checkPattern(input);
    if (errors.length > 0) throw new ValidationError(errors);
    if (isServerPattern(input.name, input.country)) throw patternFixed(input.name, input.country);
    const wanted: RegexRow = {
      name: input.name,
      country: input.country ?? '',
      pattern: input.pattern,
      description: toLanguageJson(input.description),
      deleted: 0,
      scn: 0,
      updated_at: '',
    };
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new ShopRepository(uow.db);
      return this.#upsert(uow, await repo.findRegex(wanted.name, wanted.country), wanted, (row) =>
        repo.upsertRegex(row),
      );
    });
  }

  async deleteRegex(name: string, country: string | null): Promise<void> {
    if (isServerPattern(name, country)) throw patternFixed(name, country);
    await inWriteTransaction(this.database, async (uow) => {
      const repo = new ShopRepository(uow.db);
      const stored = await repo.findRegex(name, country ?? '');
      if (!stored || stored.deleted === 1) {
        throw new NotFoundError(
          'PATTERN_NOT_FOUND',
          `No pattern ${name}${country ? ` for ${country}` : ''}.`,
        );
      }
      await repo.upsertRegex(await this.#tombstone(uow, stored));
    });
  }

  // --- helpers ---------------------------------------------------------------------------------

  /** The location to write shop data for: a SHOP that is not deleted (inactive is fine). */
  async #shopFor(repo: ShopRepository, code: string) {
    const location = await repo.findLocation(code);
    if (!location || location.deleted === 1 || location.kind !== 'SHOP') throw shopNotFound(code);
    return location;
  }

  /** Writes `wanted` unless the stored row already says the same; stamps it with the SCN. */
  async #upsert<R extends { scn: number; updated_at: string; deleted: number }>(
    uow: UnitOfWork,
    stored: R | undefined,
    wanted: R,
    write: (row: R) => Promise<void>,
  ): Promise<SaveResult> {
    if (stored && sameRow(stored, wanted, ['scn', 'updated_at'])) return { written: 0, unchanged: 1 };
    await write({ ...wanted, scn: await uow.scn(), updated_at: this.now().toISOString() });
    return { written: 1, unchanged: 0 };
  }

  async #tombstone<R extends { scn: number; updated_at: string; deleted: number }>(
    uow: UnitOfWork,
    stored: R,
  ): Promise<R> {
    return { ...stored, deleted: 1, scn: await uow.scn(), updated_at: this.now().toISOString() };
  }
}

const LATITUDE_MESSAGE = 'must be decimal degrees from -90 to 90 with at most six decimals';
const LONGITUDE_MESSAGE = 'must be decimal degrees from -180 to 180 with at most six decimals';

function patternFixed(name: string, country: string | null): ConflictError {
  return new ConflictError(
    'PATTERN_FIXED',
    `The server validates ${name}${country ? ` for ${country}` : ''} with its own pattern; it cannot be changed here.`,
  );
}

function blankToNull(value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

function numberError(errors: FieldError[], name: string, value: number, max: number): void {
  if (!Number.isInteger(value) || value < 1 || value > max)
    errors.push({ name, message: `must be a whole number from 1 to ${max}` });
}

function checkNumber(name: string, value: number, max: number): void {
  const errors: FieldError[] = [];
  numberError(errors, name, value, max);
  if (errors.length > 0) throw new ValidationError(errors);
}

function sameRow<R extends object>(a: R, b: R, ignore: Array<keyof R>): boolean {
  return (Object.keys(b) as Array<keyof R>).every(
    (k) => ignore.includes(k) || (a[k] ?? null) === (b[k] ?? null),
  );
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
