import type { Database } from '../../kernel/db/database.ts';
import { inWriteTransaction } from '../../kernel/db/unit-of-work.ts';
import { ValidationError } from '../../kernel/errors.ts';
import { STOCK_ERRORS } from './errors.ts';
import { type LocationRow, StockRepository } from './stock-repository.ts';
import {
  checkLocationCode,
  flag,
  type Location,
  type LocationChanges,
  type LocationInput,
  locationNotFound,
  toLocation,
} from './stock-rules.ts';

/** Stock locations (docs/stock.md): shops and warehouses, whom they serve, where they are. */
export class LocationService {
  readonly #read: StockRepository;

  readonly database: Database;
  readonly now: () => Date;

  constructor(database: Database, now: () => Date = () => new Date()) {
    this.database = database;
    this.now = now;
    this.#read = new StockRepository(database.db);
  }

  async location(code: string): Promise<Location> {
    const row = await this.#read.findLocation(code);
    if (!row || row.deleted === 1) throw locationNotFound(code);
    return toLocation(row);
  }

  async locations(options: { includeDeleted?: boolean } = {}): Promise<Location[]> {
    return (await this.#read.locations(options.includeDeleted)).map(toLocation);
  }

  // --- locations: each call one transaction ----------------------------------------------------

  /**
   * Creates a location; a deleted location's code may be used again (it comes back, empty). The
   * shape of the fields is the written form's (LocationBody); its code's characters are checked here.
   */
  async createLocation(input: LocationInput): Promise<Location> {
    const errors = checkLocationCode(input.code);
    if (errors.length > 0) throw new ValidationError(errors);
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new StockRepository(uow.db);
      const scn = await uow.scn();
      const at = this.now().toISOString();
      const existing = await repo.findLocation(input.code);
      if (existing && existing.deleted === 0) {
        throw STOCK_ERRORS.LOCATION_EXISTS(`Location "${input.code}" exists already.`);
      }
      const row: LocationRow = {
        code: input.code,
        name: input.name.trim(),
        kind: input.kind,
        serves_wholesale: flag(input.servesWholesale),
        serves_retail: flag(input.servesRetail),
        active: flag(input.active ?? true),
        address: input.address ?? null,
        house_number: input.houseNumber ?? null,
        postal_code: input.postalCode ?? null,
        city: input.city ?? null,
        country: input.country ?? null,
        deleted: 0,
        scn,
        created_at: at,
        updated_at: at,
      };
      if (existing) {
        await repo.replaceLocation({ ...row, created_at: existing.created_at });
        await repo.touchLevelsOfLocation(input.code, scn);
      } else {
        await repo.insertLocation(row);
      }
      return toLocation(row);
    });
  }

  /** Changes the given fields of a location; `null` clears an address field. */
  async changeLocation(code: string, changes: LocationChanges): Promise<Location> {
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new StockRepository(uow.db);
      const scn = await uow.scn();
      const old = await repo.findLocation(code);
      if (!old || old.deleted === 1) throw locationNotFound(code);
      const row: LocationRow = {
        ...old,
        ...(changes.name !== undefined ? { name: changes.name.trim() } : {}),
        ...(changes.kind !== undefined ? { kind: changes.kind } : {}),
        ...(changes.servesWholesale !== undefined ? { serves_wholesale: flag(changes.servesWholesale) } : {}),
        ...(changes.servesRetail !== undefined ? { serves_retail: flag(changes.servesRetail) } : {}),
        ...(changes.active !== undefined ? { active: flag(changes.active) } : {}),
        ...(changes.address !== undefined ? { address: changes.address } : {}),
        ...(changes.houseNumber !== undefined ? { house_number: changes.houseNumber } : {}),
        ...(changes.postalCode !== undefined ? { postal_code: changes.postalCode } : {}),
        ...(changes.city !== undefined ? { city: changes.city } : {}),
        ...(changes.country !== undefined ? { country: changes.country } : {}),
        scn,
        updated_at: this.now().toISOString(),
      };
      await repo.replaceLocation(row);
      // Who sees the location's stock changed: every level of it is a change of the stock feeds.
      if (
        row.active !== old.active ||
        row.serves_wholesale !== old.serves_wholesale ||
        row.serves_retail !== old.serves_retail
      ) {
        await repo.touchLevelsOfLocation(code, scn);
      }
      return toLocation(row);
    });
  }

  /**
   * Deletes a location that holds no stock (nothing on hand, nothing reserved): move or correct it
   * away first. The row stays as the tombstone; its levels go to the feeds' DELETED.
   */
  async deleteLocation(code: string): Promise<void> {
    await inWriteTransaction(this.database, async (uow) => {
      const repo = new StockRepository(uow.db);
      const scn = await uow.scn();
      const old = await repo.findLocation(code);
      if (!old || old.deleted === 1) throw locationNotFound(code);
      // Marked first, looked at second: the marking waits for a receipt holding the location
      // (receipt-repository.ts), and the look then sees its stock; a refusal rolls the marking back.
      await repo.replaceLocation({
        ...old,
        deleted: 1,
        active: 0,
        scn,
        updated_at: this.now().toISOString(),
      });
      if (await repo.locationHoldsStock(code)) {
        throw STOCK_ERRORS.LOCATION_HAS_STOCK(
          `Location "${code}" still holds stock; transfer or correct it to zero first.`,
        );
      }
      await repo.touchLevelsOfLocation(code, scn);
    });
  }
}
