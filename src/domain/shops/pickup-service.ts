import type { Database } from '../../db/database.ts';
import { currentScn, inWriteTransaction } from '../../db/unit-of-work.ts';
import type { SaveResult } from '../catalog/catalog-service.ts';
import { checkCountry, checkPostalCode } from '../clients/client-validation.ts';
import { type FieldError, NotFoundError, ValidationError } from '../errors.ts';
import { type LanguageText, toLanguageJson } from '../shared/language.ts';
import type { Page, PageOf } from '../shared/paging.ts';
import {
  distanceMetres,
  MAX_LATITUDE_MICRO,
  MAX_LONGITUDE_MICRO,
  type MicroPosition,
  toMicroDegrees,
} from './geo.ts';
import { type PickupPointRow, ShopRepository } from './shop-repository.ts';
import {
  blankToNull,
  type GeoValue,
  LATITUDE_MESSAGE,
  LONGITUDE_MESSAGE,
  MAX_NAME,
  pageOf,
  tombstone,
  upsertRow,
} from './shop-shared.ts';
import { type PickupType, type PickupWire, pickupToWire, pickupType } from './shop-wire.ts';

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

const CODE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,19}$/;

/** Where retail clients pick up (docs/shops.md): shops that allow pickup and external pickup points. */
export class PickupService {
  readonly #read: ShopRepository;

  constructor(
    readonly database: Database,
    readonly now: () => Date = () => new Date(),
  ) {
    this.#read = new ShopRepository(database.db);
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
      return upsertRow(uow, this.now, await repo.findPickupPoint(input.code), wanted, (row) =>
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
      await repo.upsertPickupPoint(await tombstone(uow, this.now, stored));
    });
  }
}
