import type { Database } from '../../kernel/db/database.ts';
import { currentScn, inWriteTransaction } from '../../kernel/db/unit-of-work.ts';
import { ValidationError } from '../../kernel/errors.ts';
import { feedPage, splitPage } from '../../kernel/feed-page.ts';
import type { SaveResult } from '../../kernel/import/import-kind.ts';
import type { Page, PageOf } from '../../kernel/paging.ts';
import { SHOPS_ERRORS } from './errors.ts';
import { distanceMetres, type MicroPosition } from './geo.ts';
import { PickupRepository } from './pickup-repository.ts';
import { type PickupPointInput, pickupPointRow } from './shop-rules.ts';
import { tombstone, upsertRow } from './shop-shared.ts';
import { type PickupType, type PickupWire, pickupToWire, pickupType } from './shop-wire.ts';

/** Where retail clients pick up (docs/shops.md): shops that allow pickup and external pickup points. */
export class PickupService {
  readonly #read: PickupRepository;

  readonly database: Database;
  readonly now: () => Date;

  constructor(database: Database, now: () => Date = () => new Date()) {
    this.database = database;
    this.now = now;
    this.#read = new PickupRepository(database.db);
  }

  /**
   * Shops that allow pickup, then external pickup points, each in position order, paged by stable
   * position (PICKUP_POINT_POSITIONS). With a position the answer is the current list ordered by
   * distance (nearest first; locations without a position last): a snapshot, not a change feed, so
   * `strscn` must be 0 then, and not stored in that order, so it pages by counting offset.
   */
  async listPickupLocations(
    page: Page,
    position?: MicroPosition,
  ): Promise<PageOf<PickupWire, { TYPE: PickupType; LOCATION: string }>> {
    if (!position) {
      return feedPage(this.database.db, page, {
        rows: (sinceScn, from, limit) => this.#read.pickupPage(sinceScn, from, limit),
        position: (r) => r.pos,
        live: (r) => Number(r.visible) === 1,
        items: (live) => live.map((r) => pickupToWire(r, null)),
        deletedKey: (r) => ({ TYPE: pickupType(r), LOCATION: r.code }),
      });
    }
    const scn = await currentScn(this.database.db);
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
    const { rows, nextOffset } = splitPage(located.slice(page.offset - 1, page.offset + page.limit), page);
    return { scn, nextOffset, items: rows.map((l) => pickupToWire(l.row, l.distance)), deleted: [] };
  }

  /**
   * The pickup location a web order names, as B2C_GetPickUpLocations lists it (a shop that allows
   * pickup, or a visible external pickup point), or undefined when it lists none by that code.
   */
  async pickupLocation(code: string): Promise<PickupWire | undefined> {
    const row = (await this.#read.visiblePickups()).find((r) => r.code === code && Number(r.visible) === 1);
    return row === undefined ? undefined : pickupToWire(row, null);
  }

  async savePickupPoint(input: PickupPointInput): Promise<SaveResult> {
    const wanted = pickupPointRow(input);
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new PickupRepository(uow.db);
      return upsertRow(uow, this.now, await repo.findPickupPoint(input.code), wanted, (row) =>
        repo.upsertPickupPoint(row),
      );
    });
  }

  async deletePickupPoint(code: string): Promise<void> {
    await inWriteTransaction(this.database, async (uow) => {
      const repo = new PickupRepository(uow.db);
      const stored = await repo.findPickupPoint(code);
      if (!stored || stored.deleted === 1)
        throw SHOPS_ERRORS.PICKUP_POINT_NOT_FOUND(`No pickup point "${code}".`);
      await repo.upsertPickupPoint(await tombstone(uow, this.now, stored));
    });
  }
}
