import type { Database } from '../../db/database.ts';
import type { LocationKind, MovementReason } from '../../db/schema-stock.ts';
import { currentScn, inWriteTransaction, type UnitOfWork } from '../../db/unit-of-work.ts';
import { ConflictError, type FieldError, NotFoundError, ValidationError } from '../errors.ts';
import type { Audience, Page, PageOf } from '../shared/paging.ts';
import {
  type LedgerMismatch,
  type LevelKey,
  type LevelRow,
  type LocationRow,
  levelKeyString,
  type MovementRow,
  StockRepository,
  type StoredMovement,
} from './stock-repository.ts';
import {
  type ArticleStockWire,
  articleStockToWire,
  articleVisibleTo,
  levelKeyToWire,
  levelToWire,
  levelVisibleTo,
  locationVisibleTo,
  type StockKeyWire,
  type StockRowWire,
} from './stock-wire.ts';

/**
 * The stock area: locations, stock levels per location, article and size, and the ledger of
 * movements that every level is the sum of (docs/stock.md).
 *
 * Rules every write here follows:
 * - one transaction per call; the `...In(uow, ...)` forms run inside a caller's transaction (an
 *   order reserving its lines), the others open their own;
 * - the transaction's SCN is taken before any stock is read or changed: the SCN counter's lock
 *   then orders all stock writers, so what a write reads is what it changes;
 * - a level changes only together with a movement row of the same delta, in the same transaction;
 * - stock that would leave available (on hand - reserved) below zero is refused by a conditional
 *   UPDATE, never by a read-then-write: `ConflictError('INSUFFICIENT_STOCK')`. A refusal is not an
 *   SQL error, so the caller's transaction stays usable (it may try another location).
 */

export interface LocationAddress {
  address?: string | null;
  houseNumber?: string | null;
  postalCode?: string | null;
  city?: string | null;
  /** ISO 3166-1 alpha-2, e.g. NL. */
  country?: string | null;
}

export interface LocationInput extends LocationAddress {
  code: string;
  name: string;
  kind: LocationKind;
  servesWholesale: boolean;
  servesRetail: boolean;
  /** Default true. An inactive location keeps its stock but nobody sees it or reserves from it. */
  active?: boolean;
}

export type LocationChanges = Partial<Omit<LocationInput, 'code'>>;

export interface Location {
  code: string;
  name: string;
  kind: LocationKind;
  servesWholesale: boolean;
  servesRetail: boolean;
  active: boolean;
  address: string | null;
  houseNumber: string | null;
  postalCode: string | null;
  city: string | null;
  country: string | null;
  scn: number;
}

/** One quantity of one size of one article at one location. */
export interface StockLine extends LevelKey {
  /** A whole number from 1 to 1,000,000. */
  quantity: number;
  /** What caused it (order number, delivery note, ...), up to 100 characters; kept in the ledger. */
  reference?: string;
}

export interface CorrectionInput extends LevelKey {
  /** The counted on-hand quantity (give this or `delta`). */
  setTo?: number;
  /** The change of on hand, not 0 (give this or `setTo`). */
  delta?: number;
  reference?: string;
}

export interface TransferInput {
  from: string;
  to: string;
  articleNo: string;
  sizex: string;
  quantity: number;
  reference?: string;
}

export interface LevelInput extends LevelKey {
  /** The on-hand quantity the level must get, 0 to 100,000,000. */
  onHand: number;
}

export interface StockLevel extends LevelKey {
  onHand: number;
  reserved: number;
  available: number;
  scn: number;
}

export interface SetLevelsResult {
  /** Levels that got a correction movement. */
  changed: number;
  /** Levels that already had the given quantity. */
  unchanged: number;
}

export const MAX_MOVEMENT_QUANTITY = 1_000_000;
export const MAX_LEVEL_QUANTITY = 100_000_000;
const LOCATION_CODE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,19}$/;
const COUNTRY = /^[A-Z]{2}$/;
const KINDS: readonly LocationKind[] = ['SHOP', 'WAREHOUSE'];
const MAX_REFERENCE = 100;

export class StockService {
  readonly #read: StockRepository;

  constructor(
    readonly database: Database,
    readonly now: () => Date = () => new Date(),
  ) {
    this.#read = new StockRepository(database.db);
  }

  // --- reads -----------------------------------------------------------------------------------

  /**
   * Stock levels in key order (article, size, location), paged; with `page.sinceScn` > 0 only what
   * changed after it, and under `deleted` the levels this audience no longer sees (location deleted,
   * inactive or not serving it; article deleted or, for retail, unpublished).
   */
  async listLevels(
    audience: Audience,
    page: Page,
    locationCode?: string,
  ): Promise<PageOf<StockRowWire, StockKeyWire>> {
    if (locationCode !== undefined) {
      const location = await this.#read.findLocation(locationCode);
      // In a feed, a location that stopped serving this audience still answers: its levels come
      // back under DELETED. A full list of a location one cannot see is a 404.
      if (!location || (page.sinceScn === 0 && !locationVisibleTo(audience, location))) {
        throw locationNotFound(locationCode);
      }
    }
    const scn = await currentScn(this.database.db);
    const rows = await this.#read.levelsPage(page.sinceScn, page.offset - 1, page.limit + 1, locationCode);
    const more = rows.length > page.limit;
    const slice = more ? rows.slice(0, page.limit) : rows;
    return {
      scn,
      nextOffset: more ? page.offset + page.limit : null,
      items: slice.filter((r) => levelVisibleTo(audience, r)).map((r) => levelToWire(audience, r)),
      deleted: page.sinceScn > 0 ? slice.filter((r) => !levelVisibleTo(audience, r)).map(levelKeyToWire) : [],
    };
  }

  /** One article's stock at every location this audience sees (or at one), with totals per size. */
  async articleStock(
    audience: Audience,
    articleNo: string,
    locationCode?: string,
  ): Promise<ArticleStockWire> {
    const scn = await currentScn(this.database.db);
    const article = (await this.#read.articleStates([articleNo])).get(articleNo);
    if (!article || !articleVisibleTo(audience, article)) {
      throw new NotFoundError(
        'ARTICLE_NOT_FOUND',
        `No article "${articleNo}"${audience === 'B2C' ? ' published for retail' : ''}.`,
      );
    }
    const locations = (await this.#read.locations()).filter(
      (l) => locationVisibleTo(audience, l) && (locationCode === undefined || l.code === locationCode),
    );
    if (locationCode !== undefined && locations.length === 0) throw locationNotFound(locationCode);
    const [sizes, levels] = await Promise.all([
      this.#read.sizesOfArticles([articleNo]),
      this.#read.levelsOfArticle(articleNo, locationCode),
    ]);
    return articleStockToWire(audience, scn, articleNo, sizes.get(articleNo) ?? [], locations, levels);
  }

  async location(code: string): Promise<Location> {
    const row = await this.#read.findLocation(code);
    if (!row || row.deleted === 1) throw locationNotFound(code);
    return toLocation(row);
  }

  async locations(options: { includeDeleted?: boolean } = {}): Promise<Location[]> {
    return (await this.#read.locations(options.includeDeleted)).map(toLocation);
  }

  /** The level of one size at one location; zeros when it never had stock. */
  async level(key: LevelKey): Promise<StockLevel> {
    const row = await this.#read.level(key);
    return toLevel(key, row);
  }

  /** The newest movements of one level (at most `limit`, newest first). */
  movements(key: LevelKey, limit = 100): Promise<StoredMovement[]> {
    return this.#read.movementsOf(key, Math.max(1, Math.min(limit, 10_000)));
  }

  /** The articles among these that have any stock level (used by imports and the demo seeder). */
  stockedArticles(articleNos: readonly string[]): Promise<Set<string>> {
    return this.#read.stockedArticles(articleNos);
  }

  /** Levels that are not the sum of their movements: empty unless something is badly wrong. */
  verifyLedger(): Promise<LedgerMismatch[]> {
    return this.#read.ledgerMismatches();
  }

  // --- locations: each call one transaction ----------------------------------------------------

  /** Creates a location; a deleted location's code may be used again (it comes back, empty). */
  async createLocation(input: LocationInput): Promise<Location> {
    const errors = checkLocation(input, true);
    if (errors.length > 0) throw new ValidationError(errors);
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new StockRepository(uow.db);
      const scn = await uow.scn();
      const at = this.now().toISOString();
      const existing = await repo.findLocation(input.code);
      if (existing && existing.deleted === 0) {
        throw new ConflictError('LOCATION_EXISTS', `Location "${input.code}" exists already.`);
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
    const errors = checkLocation(changes, false);
    if (errors.length > 0) throw new ValidationError(errors);
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
      if (await repo.locationHoldsStock(code)) {
        throw new ConflictError(
          'LOCATION_HAS_STOCK',
          `Location "${code}" still holds stock; transfer or correct it to zero first.`,
        );
      }
      await repo.replaceLocation({
        ...old,
        deleted: 1,
        active: 0,
        scn,
        updated_at: this.now().toISOString(),
      });
      await repo.touchLevelsOfLocation(code, scn);
    });
  }

  // --- movements inside a caller's transaction ------------------------------------------------

  /** Goods arrive at a location: on hand goes up. */
  async receiveIn(uow: UnitOfWork, line: StockLine): Promise<StockLevel> {
    checkLine(line);
    const scn = await uow.scn();
    const repo = new StockRepository(uow.db);
    await this.#checkTarget(repo, line);
    const [row] = await repo.addOnHand([{ ...line }], scn);
    await repo.insertMovements([this.#movement(scn, line, 'RECEIPT', line.quantity, 0, line.reference)]);
    return toLevel(line, row);
  }

  /** Reserves available stock, never taking available below zero; INSUFFICIENT_STOCK otherwise. */
  async reserveIn(uow: UnitOfWork, line: StockLine): Promise<StockLevel> {
    checkLine(line);
    const scn = await uow.scn();
    const repo = new StockRepository(uow.db);
    const row = await repo.reserve(line, line.quantity, scn);
    if (!row) throw await this.#whyNot(repo, line, 'reserve');
    await repo.insertMovements([this.#movement(scn, line, 'RESERVE', 0, line.quantity, line.reference)]);
    return toLevel(line, row);
  }

  /** Gives reserved stock back to available; INSUFFICIENT_RESERVATION if less is reserved. */
  async releaseIn(uow: UnitOfWork, line: StockLine): Promise<StockLevel> {
    checkLine(line);
    const scn = await uow.scn();
    const repo = new StockRepository(uow.db);
    const row = await repo.release(line, line.quantity, scn);
    if (!row) throw await this.#whyNot(repo, line, 'release');
    await repo.insertMovements([this.#movement(scn, line, 'RELEASE', 0, -line.quantity, line.reference)]);
    return toLevel(line, row);
  }

  /** Reserved stock leaves the location (delivered, picked up): on hand and reserved go down. */
  async shipIn(uow: UnitOfWork, line: StockLine): Promise<StockLevel> {
    checkLine(line);
    const scn = await uow.scn();
    const repo = new StockRepository(uow.db);
    const row = await repo.ship(line, line.quantity, scn);
    if (!row) throw await this.#whyNot(repo, line, 'ship');
    await repo.insertMovements([
      this.#movement(scn, line, 'SHIPMENT', -line.quantity, -line.quantity, line.reference),
    ]);
    return toLevel(line, row);
  }

  /** Moves available stock from one location to another: two ledger rows, one transaction. */
  async transferIn(uow: UnitOfWork, input: TransferInput): Promise<{ from: StockLevel; to: StockLevel }> {
    const errors = checkQuantity('quantity', input.quantity, MAX_MOVEMENT_QUANTITY);
    errors.push(...checkReference(input.reference));
    if (input.from === input.to) errors.push({ name: 'to', message: 'must differ from "from"' });
    if (errors.length > 0) throw new ValidationError(errors);
    const scn = await uow.scn();
    const repo = new StockRepository(uow.db);
    const from: LevelKey = { locationCode: input.from, articleNo: input.articleNo, sizex: input.sizex };
    const to: LevelKey = { locationCode: input.to, articleNo: input.articleNo, sizex: input.sizex };
    await this.#checkTarget(repo, from);
    await this.#checkTarget(repo, to);
    const taken = await repo.takeAvailable(from, input.quantity, scn);
    if (!taken) throw await this.#whyNot(repo, { ...from, quantity: input.quantity }, 'take');
    const [added] = await repo.addOnHand([{ ...to, quantity: input.quantity }], scn);
    const reference = input.reference ?? `${input.from}>${input.to}`;
    await repo.insertMovements([
      this.#movement(scn, from, 'TRANSFER_OUT', -input.quantity, 0, reference),
      this.#movement(scn, to, 'TRANSFER_IN', input.quantity, 0, reference),
    ]);
    return { from: toLevel(from, taken), to: toLevel(to, added) };
  }

  /**
   * Corrects on hand, by a delta or to a counted quantity; the movement records the delta. Setting
   * the quantity it already has records nothing. On hand may not go below what is reserved.
   */
  async correctIn(uow: UnitOfWork, input: CorrectionInput): Promise<StockLevel> {
    checkCorrection(input);
    const scn = await uow.scn();
    const repo = new StockRepository(uow.db);
    await this.#checkTarget(repo, input);
    const current = await repo.level(input);
    const delta = input.setTo !== undefined ? input.setTo - (current?.on_hand ?? 0) : (input.delta ?? 0);
    const row = await this.#applyOnHandDelta(repo, input, delta, scn);
    if (delta !== 0) {
      await repo.insertMovements([this.#movement(scn, input, 'CORRECTION', delta, 0, input.reference)]);
    }
    return toLevel(input, row ?? current);
  }

  // --- the same, each in its own transaction -----------------------------------------------------

  receive(line: StockLine): Promise<StockLevel> {
    return inWriteTransaction(this.database, (uow) => this.receiveIn(uow, line));
  }

  reserve(line: StockLine): Promise<StockLevel> {
    return inWriteTransaction(this.database, (uow) => this.reserveIn(uow, line));
  }

  release(line: StockLine): Promise<StockLevel> {
    return inWriteTransaction(this.database, (uow) => this.releaseIn(uow, line));
  }

  ship(line: StockLine): Promise<StockLevel> {
    return inWriteTransaction(this.database, (uow) => this.shipIn(uow, line));
  }

  transfer(input: TransferInput): Promise<{ from: StockLevel; to: StockLevel }> {
    return inWriteTransaction(this.database, (uow) => this.transferIn(uow, input));
  }

  async correct(input: CorrectionInput): Promise<StockLevel> {
    checkCorrection(input);
    if (input.setTo !== undefined) {
      // Counting what is already booked is not a change: answer without a transaction or an SCN.
      const current = await this.#read.level(input);
      if ((current?.on_hand ?? 0) === input.setTo && current) return toLevel(input, current);
    }
    return inWriteTransaction(this.database, (uow) => this.correctIn(uow, input));
  }

  // --- bulk forms for imports: one transaction each, all or nothing ------------------------------

  /** Receipts of many lines in one transaction (a delivery, the demo seed). */
  async receiveAll(lines: readonly StockLine[]): Promise<{ movements: number }> {
    const errors: FieldError[] = [];
    for (const [i, line] of lines.entries()) {
      errors.push(...prefixed(`lines/${i}`, [...checkKey(line), ...checkLineFields(line)]));
    }
    if (errors.length > 0) throw new ValidationError(errors);
    if (lines.length === 0) return { movements: 0 };
    return inWriteTransaction(this.database, async (uow) => {
      const scn = await uow.scn();
      const repo = new StockRepository(uow.db);
      await this.#checkTargets(repo, lines, 'lines');
      const sums = new Map<string, LevelKey & { quantity: number }>();
      for (const line of lines) {
        const k = levelKeyString(line.articleNo, line.sizex, line.locationCode);
        const sum = sums.get(k);
        if (sum) sum.quantity += line.quantity;
        else sums.set(k, { ...keyOf(line), quantity: line.quantity });
      }
      await repo.addOnHand([...sums.values()], scn);
      await repo.insertMovements(
        lines.map((l) => this.#movement(scn, l, 'RECEIPT', l.quantity, 0, l.reference)),
      );
      return { movements: lines.length };
    });
  }

  /**
   * Sets on-hand levels (a stock count, an import from another system): for each row whose level
   * differs, one CORRECTION movement of the difference. Rows already at their quantity record
   * nothing, so importing the same levels again creates no movements and does not move the SCN.
   * A level cannot be set below what is reserved at it (INSUFFICIENT_STOCK; nothing is written).
   */
  async setLevels(
    rows: readonly LevelInput[],
    options: { reference?: string } = {},
  ): Promise<SetLevelsResult> {
    const errors: FieldError[] = [...checkReference(options.reference)];
    const seen = new Map<string, number>();
    for (const [i, row] of rows.entries()) {
      errors.push(
        ...prefixed(`rows/${i}`, [
          ...checkKey(row),
          ...checkQuantity('onHand', row.onHand, MAX_LEVEL_QUANTITY, 0),
        ]),
      );
      const k = levelKeyString(row.articleNo, row.sizex, row.locationCode);
      const first = seen.get(k);
      if (first !== undefined)
        errors.push({ name: `rows/${i}`, message: `repeats the level of rows/${first}` });
      else seen.set(k, i);
    }
    if (errors.length > 0) throw new ValidationError(errors);

    const differing = (levels: Map<string, LevelRow>) =>
      rows
        .map((row) => {
          const level = levels.get(levelKeyString(row.articleNo, row.sizex, row.locationCode));
          return { row, level, delta: row.onHand - (level?.on_hand ?? 0) };
        })
        .filter((c) => c.delta !== 0);
    await this.#checkTargets(this.#read, rows, 'rows');
    // First without a transaction: an import of what is already booked writes nothing at all.
    const articleNos = rows.map((r) => r.articleNo);
    if (differing(await this.#read.levelsOfArticles(articleNos)).length === 0) {
      return { changed: 0, unchanged: rows.length };
    }
    return inWriteTransaction(this.database, async (uow) => {
      const scn = await uow.scn();
      const repo = new StockRepository(uow.db);
      await this.#checkTargets(repo, rows, 'rows');
      const changes = differing(await repo.levelsOfArticles(articleNos));
      const ups = changes.filter((c) => c.delta > 0);
      const downs = changes.filter((c) => c.delta < 0);
      await repo.addOnHand(
        ups.map((c) => ({ ...keyOf(c.row), quantity: c.delta })),
        scn,
      );
      for (const c of downs) {
        if (!(await repo.takeAvailable(c.row, -c.delta, scn))) {
          const i = rows.indexOf(c.row);
          throw new ConflictError(
            'INSUFFICIENT_STOCK',
            `rows/${i}: on hand of ${describe(c.row)} cannot be set to ${c.row.onHand}: ${c.level?.reserved ?? 0} are reserved.`,
          );
        }
      }
      const moved = changes;
      await repo.insertMovements(
        moved.map((c) => this.#movement(scn, c.row, 'CORRECTION', c.delta, 0, options.reference)),
      );
      return { changed: moved.length, unchanged: rows.length - moved.length };
    });
  }

  // --- internals -------------------------------------------------------------------------------

  #movement(
    scn: number,
    key: LevelKey,
    reason: MovementReason,
    onHandDelta: number,
    reservedDelta: number,
    reference: string | undefined,
  ): MovementRow {
    return {
      scn,
      article_no: key.articleNo,
      sizex: key.sizex,
      location_code: key.locationCode,
      reason,
      on_hand_delta: onHandDelta,
      reserved_delta: reservedDelta,
      reference: reference ?? null,
      created_at: this.now().toISOString(),
    };
  }

  async #applyOnHandDelta(repo: StockRepository, key: LevelKey, delta: number, scn: number) {
    if (delta > 0) return (await repo.addOnHand([{ ...keyOf(key), quantity: delta }], scn))[0];
    if (delta < 0) {
      const row = await repo.takeAvailable(key, -delta, scn);
      if (!row) throw await this.#whyNot(repo, { ...key, quantity: -delta }, 'take');
      return row;
    }
    return undefined;
  }

  /** A single movement's target: a live location, a live article, one of its sizes. */
  async #checkTarget(repo: StockRepository, key: LevelKey): Promise<void> {
    const location = await repo.findLocation(key.locationCode);
    if (!location || location.deleted === 1) throw locationNotFound(key.locationCode);
    const article = (await repo.articleStates([key.articleNo])).get(key.articleNo);
    if (!article || article.deleted === 1) {
      throw new NotFoundError('ARTICLE_NOT_FOUND', `No article "${key.articleNo}".`);
    }
    const sizes = (await repo.sizesOfArticles([key.articleNo])).get(key.articleNo) ?? [];
    if (!sizes.includes(key.sizex)) {
      throw new ValidationError(
        [
          {
            name: 'sizex',
            message: `article ${key.articleNo} has no size "${key.sizex}" (${sizes.join(', ')})`,
          },
        ],
        'UNKNOWN_SIZE',
      );
    }
  }

  /** The targets of a bulk write, every bad row named in one ValidationError. */
  async #checkTargets(repo: StockRepository, keys: readonly LevelKey[], list: string): Promise<void> {
    const locations = new Map((await repo.locations()).map((l) => [l.code, l]));
    const articleNos = keys.map((k) => k.articleNo);
    const [articles, sizes] = await Promise.all([
      repo.articleStates(articleNos),
      repo.sizesOfArticles(articleNos),
    ]);
    const errors: FieldError[] = [];
    for (const [i, key] of keys.entries()) {
      if (!locations.has(key.locationCode)) {
        errors.push({ name: `${list}/${i}/locationCode`, message: `no location "${key.locationCode}"` });
      }
      const article = articles.get(key.articleNo);
      if (!article || article.deleted === 1) {
        errors.push({ name: `${list}/${i}/articleNo`, message: `no article "${key.articleNo}"` });
      } else if (!(sizes.get(key.articleNo) ?? []).includes(key.sizex)) {
        errors.push({
          name: `${list}/${i}/sizex`,
          message: `article ${key.articleNo} has no size "${key.sizex}"`,
        });
      }
      if (errors.length >= 50) break;
    }
    if (errors.length > 0) throw new ValidationError(errors);
  }

  /** Why a conditional update changed nothing: the most specific typed error. */
  async #whyNot(
    repo: StockRepository,
    line: LevelKey & { quantity: number },
    what: 'reserve' | 'release' | 'ship' | 'take',
  ): Promise<Error> {
    const location = await repo.findLocation(line.locationCode);
    if (!location || location.deleted === 1) return locationNotFound(line.locationCode);
    if (what === 'reserve' && location.active !== 1) {
      return new ConflictError('LOCATION_INACTIVE', `Location "${line.locationCode}" is not active.`);
    }
    const level = await repo.level(line);
    if (!level) {
      try {
        await this.#checkTarget(repo, line);
      } catch (error) {
        return error as Error;
      }
    }
    const onHand = level?.on_hand ?? 0;
    const reserved = level?.reserved ?? 0;
    if (what === 'release' || what === 'ship') {
      return new ConflictError(
        'INSUFFICIENT_RESERVATION',
        `Cannot ${what} ${line.quantity} of ${describe(line)}: ${reserved} reserved.`,
      );
    }
    return new ConflictError(
      'INSUFFICIENT_STOCK',
      `Cannot ${what} ${line.quantity} of ${describe(line)}: ` +
        `${onHand - reserved} available (${onHand} on hand, ${reserved} reserved).`,
    );
  }
}

// --- validation and mapping ----------------------------------------------------------------------

function flag(value: boolean): number {
  return value ? 1 : 0;
}

function keyOf(key: LevelKey): LevelKey {
  return { articleNo: key.articleNo, sizex: key.sizex, locationCode: key.locationCode };
}

function describe(key: LevelKey): string {
  return `article ${key.articleNo} size ${key.sizex} at ${key.locationCode}`;
}

function locationNotFound(code: string): NotFoundError {
  return new NotFoundError('LOCATION_NOT_FOUND', `No location "${code}".`);
}

function prefixed(prefix: string, errors: FieldError[]): FieldError[] {
  return errors.map((e) => ({ name: `${prefix}/${e.name}`, message: e.message }));
}

function checkQuantity(name: string, value: number, max: number, min = 1): FieldError[] {
  return Number.isSafeInteger(value) && value >= min && value <= max
    ? []
    : [{ name, message: `must be a whole number from ${min} to ${max}` }];
}

function checkReference(reference: string | undefined): FieldError[] {
  return reference === undefined || (reference.length > 0 && reference.length <= MAX_REFERENCE)
    ? []
    : [{ name: 'reference', message: `1 to ${MAX_REFERENCE} characters` }];
}

function checkKey(key: LevelKey): FieldError[] {
  const errors: FieldError[] = [];
  if (typeof key.locationCode !== 'string' || key.locationCode === '') {
    errors.push({ name: 'locationCode', message: 'required' });
  }
  if (typeof key.articleNo !== 'string' || key.articleNo === '') {
    errors.push({ name: 'articleNo', message: 'required' });
  }
  if (typeof key.sizex !== 'string' || key.sizex === '') errors.push({ name: 'sizex', message: 'required' });
  return errors;
}

function checkLineFields(line: StockLine): FieldError[] {
  return [
    ...checkQuantity('quantity', line.quantity, MAX_MOVEMENT_QUANTITY),
    ...checkReference(line.reference),
  ];
}

function checkLine(line: StockLine): void {
  const errors = [...checkKey(line), ...checkLineFields(line)];
  if (errors.length > 0) throw new ValidationError(errors);
}

function checkCorrection(input: CorrectionInput): void {
  const errors = [...checkKey(input), ...checkReference(input.reference)];
  if ((input.setTo === undefined) === (input.delta === undefined)) {
    errors.push({ name: 'setTo', message: 'give either setTo or delta' });
  } else if (input.setTo !== undefined) {
    errors.push(...checkQuantity('setTo', input.setTo, MAX_LEVEL_QUANTITY, 0));
  } else if (
    input.delta === undefined ||
    !Number.isSafeInteger(input.delta) ||
    input.delta === 0 ||
    Math.abs(input.delta) > MAX_MOVEMENT_QUANTITY
  ) {
    errors.push({
      name: 'delta',
      message: `a whole number, not 0, from -${MAX_MOVEMENT_QUANTITY} to ${MAX_MOVEMENT_QUANTITY}`,
    });
  }
  if (errors.length > 0) throw new ValidationError(errors);
}

function checkLocation(input: LocationChanges & { code?: string }, creating: boolean): FieldError[] {
  const errors: FieldError[] = [];
  if (creating && (input.code === undefined || !LOCATION_CODE.test(input.code))) {
    errors.push({ name: 'code', message: 'use 1 to 20 letters, digits or . _ -' });
  }
  if (creating || input.name !== undefined) {
    const name = input.name?.trim() ?? '';
    if (name.length < 1 || name.length > 100) errors.push({ name: 'name', message: '1 to 100 characters' });
  }
  if ((creating || input.kind !== undefined) && !KINDS.includes(input.kind as LocationKind)) {
    errors.push({ name: 'kind', message: 'SHOP or WAREHOUSE' });
  }
  for (const field of ['servesWholesale', 'servesRetail', 'active'] as const) {
    const value = input[field];
    const required = creating && field !== 'active';
    if ((required || value !== undefined) && typeof value !== 'boolean') {
      errors.push({ name: field, message: 'true or false' });
    }
  }
  for (const field of ['address', 'houseNumber', 'postalCode', 'city'] as const) {
    const value = input[field];
    if (value !== undefined && value !== null && (typeof value !== 'string' || value.length > 100)) {
      errors.push({ name: field, message: 'at most 100 characters, or null' });
    }
  }
  if (input.country !== undefined && input.country !== null && !COUNTRY.test(input.country)) {
    errors.push({ name: 'country', message: 'an ISO 3166-1 alpha-2 code in capitals, e.g. NL' });
  }
  return errors;
}

function toLocation(row: LocationRow): Location {
  return {
    code: row.code,
    name: row.name,
    kind: row.kind,
    servesWholesale: row.serves_wholesale === 1,
    servesRetail: row.serves_retail === 1,
    active: row.active === 1,
    address: row.address,
    houseNumber: row.house_number,
    postalCode: row.postal_code,
    city: row.city,
    country: row.country,
    scn: Number(row.scn),
  };
}

function toLevel(
  key: LevelKey,
  row: { on_hand: number; reserved: number; scn: number } | undefined,
): StockLevel {
  const onHand = Number(row?.on_hand ?? 0);
  const reserved = Number(row?.reserved ?? 0);
  return { ...keyOf(key), onHand, reserved, available: onHand - reserved, scn: Number(row?.scn ?? 0) };
}
