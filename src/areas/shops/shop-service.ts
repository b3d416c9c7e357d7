import type { Kysely } from 'kysely';
import type { Database } from '../../kernel/db/database.ts';
import type { DB } from '../../kernel/db/schema.ts';
import { inWriteTransaction } from '../../kernel/db/unit-of-work.ts';
import { errorsUnder, KERNEL_ERRORS, ValidationError, withRoot } from '../../kernel/errors.ts';
import { feedPage } from '../../kernel/feed-page.ts';
import { cleanImage, MAX_IMAGE_BYTES } from '../../kernel/image-bytes.ts';
import type { SaveResult } from '../../kernel/import/import-kind.ts';
import { type LanguageText, toLanguageJson } from '../../kernel/language.ts';
import type { Page, PageOf } from '../../kernel/paging.ts';
import { writeChanged } from '../../kernel/write-changed.ts';
import { findLocationIn, STOCK_ERRORS } from '../stock/index.ts';
import { SHOPS_ERRORS } from './errors.ts';
import { type AssistantRow, type ShopDetailRow, ShopRepository } from './shop-repository.ts';
import { detailRow, type ShopDetailInput } from './shop-rules.ts';
import { tombstone, upsertRow } from './shop-shared.ts';
import {
  type AssistantWire,
  assistantToWire,
  assistantVisible,
  type ShopImageWire,
  type ShopWire,
  shopImageToWire,
  shopImageVisible,
  shopToWire,
  shopVisible,
} from './shop-wire.ts';

export interface AssistantInput {
  locationCode: string;
  assistantNo: number;
  name: string;
  role?: LanguageText;
  /** A shop image of the same shop, or null. */
  photoImageNo?: number | null;
  active?: boolean;
}

export const MAX_IMAGE_NO = 99;
export const MAX_ASSISTANT_NO = 9999;

const shopNotFound = (code: string) => SHOPS_ERRORS.SHOP_NOT_FOUND(`No shop "${code}".`);
const imageNotFound = (code: string, imageNo: number) =>
  KERNEL_ERRORS.IMAGE_NOT_FOUND(`Shop "${code}" has no image ${imageNo}.`);

/**
 * The shops (docs/shops.md): details of the stock locations of kind SHOP (contact, position,
 * opening hours, pickup), their images and their assistants.
 */
export class ShopService {
  readonly #read: ShopRepository;

  readonly database: Database;
  readonly now: () => Date;

  constructor(database: Database, now: () => Date = () => new Date()) {
    this.database = database;
    this.now = now;
    this.#read = new ShopRepository(database.db);
  }

  /**
   * Shops retail sees (active SHOP locations serving retail) with their details, in the position
   * order of their stock locations (docs/shops.md, "Paging").
   */
  listShops(page: Page): Promise<PageOf<ShopWire, string>> {
    return feedPage(this.database.db, page, {
      rows: (sinceScn, from, limit) => this.#read.shopsPage(sinceScn, from, limit),
      position: (r) => r.pos,
      live: (r) => shopVisible(r),
      items: (live) => live.map(shopToWire),
      deletedKey: (r) => r.code,
    });
  }

  listShopImages(page: Page): Promise<PageOf<ShopImageWire, { LOCATION: string; IMAGENO: number }>> {
    return feedPage(this.database.db, page, {
      rows: (sinceScn, from, limit) => this.#read.shopImagesPage(sinceScn, from, limit),
      position: (r) => r.pos,
      live: (r) => shopImageVisible(r),
      items: (live) => live.map(shopImageToWire),
      deletedKey: (r) => ({ LOCATION: r.location_code, IMAGENO: r.image_no }),
    });
  }

  async shopImage(code: string, imageNo: number) {
    const location = await findLocationIn(this.database.db, code);
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
      const location = await findLocationIn(this.database.db, locationCode);
      const answers = location
        ? location.kind === 'SHOP' && (page.sinceScn > 0 || shopVisible(location))
        : false;
      if (!answers) {
        throw STOCK_ERRORS.LOCATION_NOT_FOUND(`No shop "${locationCode}".`);
      }
    }
    return feedPage(this.database.db, page, {
      rows: (sinceScn, from, limit) => this.#read.assistantsPage(sinceScn, from, limit, locationCode),
      position: (r) => r.pos,
      live: (r) => assistantVisible(r),
      items: (live) => live.map(assistantToWire),
      deletedKey: (r) => ({ LOCATION: r.location_code, ASSISTANT: r.assistant_no }),
    });
  }

  // --- writes: each call is one transaction ------------------------------------------------------

  /** Sets the details of one shop; errors name the fields of its record (`/PHONE`). */
  saveShopDetail(input: ShopDetailInput): Promise<SaveResult> {
    return withRoot('', () => this.saveShopDetails([input]), { single: true });
  }

  /**
   * Sets the details of shops (all or none); a shop whose stored details equal the input is left
   * alone. Errors name the record's index first (`/3/PHONE`).
   */
  async saveShopDetails(inputs: ShopDetailInput[]): Promise<SaveResult> {
    const seen = new Set<string>();
    for (const [i, input] of inputs.entries()) {
      if (seen.has(input.locationCode)) {
        throw new ValidationError([
          { name: `/${i}/LOCATION`, message: `shop ${input.locationCode} appears twice` },
        ]);
      }
      seen.add(input.locationCode);
    }
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new ShopRepository(uow.db);
      const rows = [];
      for (const [i, input] of inputs.entries()) {
        const location = await this.#shopFor(uow.db, input.locationCode);
        let wanted: ShopDetailRow;
        try {
          wanted = detailRow(input, location.country);
        } catch (error) {
          throw errorsUnder(`/${i}`, error);
        }
        rows.push({ wanted, stored: await repo.findDetail(input.locationCode) });
      }
      return writeChanged(uow, rows, {
        write: async (changed, scn) => {
          for (const { wanted } of changed) {
            await repo.upsertDetail({ ...wanted, scn, updated_at: this.now().toISOString() });
          }
        },
      });
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
    const { contentType, sha256, data } = await cleanImage(upload, {
      maxBytes: MAX_IMAGE_BYTES,
      field: 'body',
      declaredType,
    });
    const written = await inWriteTransaction(this.database, async (uow) => {
      const repo = new ShopRepository(uow.db);
      await this.#shopFor(uow.db, locationCode);
      const wanted = {
        location_code: locationCode,
        image_no: imageNo,
        content_type: contentType,
        byte_size: data.length,
        sha256,
        data,
        deleted: 0,
      };
      const saved = await writeChanged(
        uow,
        [{ wanted, stored: await repo.findImage(locationCode, imageNo) }],
        {
          // The bytes compare by their hash.
          same: (w, s) => s !== undefined && s.sha256 === w.sha256 && s.content_type === w.content_type,
          write: async (changed, scn) => {
            for (const c of changed) await repo.putImage({ ...c.wanted, scn });
          },
        },
      );
      return saved.written === 1;
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
        throw SHOPS_ERRORS.IMAGE_IN_USE(
          `Image ${imageNo} of shop "${locationCode}" is the photo of assistant(s) ${users.join(', ')}.`,
        );
      }
      if (!(await repo.softDeleteImage(locationCode, imageNo, scn)))
        throw imageNotFound(locationCode, imageNo);
    });
  }

  /** Creates or replaces an assistant (its number, name and photo number: the schema's, AssistantBody). */
  async saveAssistant(input: AssistantInput): Promise<SaveResult> {
    const name = input.name.trim();
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new ShopRepository(uow.db);
      await this.#shopFor(uow.db, input.locationCode);
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
        throw SHOPS_ERRORS.ASSISTANT_NOT_FOUND(`Shop "${locationCode}" has no assistant ${assistantNo}.`);
      }
      await repo.upsertAssistant(await tombstone(uow, this.now, stored));
    });
  }

  /** The location to write shop data for: a SHOP that is not deleted (inactive is fine). */
  async #shopFor(db: Kysely<DB>, code: string) {
    const location = await findLocationIn(db, code);
    if (!location || location.deleted === 1 || location.kind !== 'SHOP') throw shopNotFound(code);
    return location;
  }
}
