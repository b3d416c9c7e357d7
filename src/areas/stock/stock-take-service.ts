import type { Database } from '../../kernel/db/database.ts';
import { inWriteTransaction, type UnitOfWork } from '../../kernel/db/unit-of-work.ts';
import { type FieldError, ValidationError } from '../../kernel/errors.ts';
import { changedRows, type WantedRow, writeChanged } from '../../kernel/write-changed.ts';
import { STOCK_ERRORS } from './errors.ts';
import { type LevelKey, type LevelRow, levelKeyString, StockRepository } from './stock-repository.ts';
import {
  assertQuantity,
  type CorrectionInput,
  checkCorrection,
  describe,
  keyOf,
  type StockLevel,
  toLevel,
} from './stock-rules.ts';
import { applyOnHandDelta, checkTarget, checkTargets, movementRow } from './stock-shared.ts';

export interface LevelInput extends LevelKey {
  /** The on-hand quantity the level must get, 0 to 100,000,000. */
  onHand: number;
}

export interface SetLevelsResult {
  /** Levels that got a correction movement. */
  changed: number;
  /** Levels that already had the given quantity. */
  unchanged: number;
}

/**
 * Stock take (docs/stock.md): corrections of on hand, by a delta or to a counted quantity, and the
 * bulk setting of counted levels; each difference is a CORRECTION movement.
 */
export class StockTakeService {
  readonly #read: StockRepository;

  readonly database: Database;
  readonly now: () => Date;

  constructor(database: Database, now: () => Date = () => new Date()) {
    this.database = database;
    this.now = now;
    this.#read = new StockRepository(database.db);
  }

  /**
   * Corrects on hand, by a delta or to a counted quantity; the movement records the delta. Setting
   * the quantity it already has records nothing. On hand may not go below what is reserved.
   */
  async correctIn(uow: UnitOfWork, input: CorrectionInput): Promise<StockLevel> {
    checkCorrection(input);
    const scn = await uow.scn();
    const repo = new StockRepository(uow.db);
    await checkTarget(repo, input);
    const current = await repo.level(input);
    const delta = input.setTo !== undefined ? input.setTo - (current?.on_hand ?? 0) : (input.delta ?? 0);
    assertQuantity(Math.abs(delta), 0);
    const row = await applyOnHandDelta(repo, input, delta, scn);
    if (delta !== 0) {
      await repo.insertMovements([
        movementRow(this.now, scn, input, 'CORRECTION', delta, 0, input.reference),
      ]);
    }
    return toLevel(input, row ?? current);
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

  /**
   * Sets on-hand levels (a stock count, an import from another system): for each row whose level
   * differs, one CORRECTION movement of the difference. Rows already at their quantity record
   * nothing, so importing the same levels again creates no movements and does not move the SCN.
   * A level cannot be set below what is reserved at it (INSUFFICIENT_STOCK; nothing is written).
   * A bad row is named by its index (`/3/SIZEX`); a level given twice is refused (`/3`).
   */
  async setLevels(
    rows: readonly LevelInput[],
    options: { reference?: string } = {},
  ): Promise<SetLevelsResult> {
    const errors: FieldError[] = [];
    const seen = new Map<string, number>();
    for (const [i, row] of rows.entries()) {
      assertQuantity(row.onHand, 0);
      const k = levelKeyString(row.articleNo, row.sizex, row.locationCode);
      const first = seen.get(k);
      if (first !== undefined)
        errors.push({ name: `/${i}`, message: `repeats the level of record ${first}` });
      else seen.set(k, i);
    }
    if (errors.length > 0) throw new ValidationError(errors);

    // A level not stored yet is at 0: setting it to 0 is no change.
    const wantedRows = (levels: Map<string, LevelRow>): Array<WantedRow<LevelInput, LevelRow>> =>
      rows.map((row) => ({
        wanted: row,
        stored: levels.get(levelKeyString(row.articleNo, row.sizex, row.locationCode)),
      }));
    const atLevel = (row: LevelInput, level: LevelRow | undefined) => row.onHand === (level?.on_hand ?? 0);
    const delta = (c: WantedRow<LevelInput, LevelRow>) => c.wanted.onHand - (c.stored?.on_hand ?? 0);
    await checkTargets(this.#read, rows);
    // First without a transaction: an import of what is already booked writes nothing at all.
    const articleNos = rows.map((r) => r.articleNo);
    if (
      changedRows(wantedRows(await this.#read.levelsOfArticles(articleNos)), { same: atLevel }).length === 0
    ) {
      return { changed: 0, unchanged: rows.length };
    }
    return inWriteTransaction(this.database, async (uow) => {
      // The SCN first, as every stock write (docs/stock.md); writeChanged stamps with the same one.
      await uow.scn();
      const repo = new StockRepository(uow.db);
      await checkTargets(repo, rows);
      const saved = await writeChanged(uow, wantedRows(await repo.levelsOfArticles(articleNos)), {
        same: atLevel,
        write: async (changes, scn) => {
          const ups = changes.filter((c) => delta(c) > 0);
          const downs = changes.filter((c) => delta(c) < 0);
          await repo.addOnHand(
            ups.map((c) => ({ ...keyOf(c.wanted), quantity: delta(c) })),
            scn,
          );
          // One conditional UPDATE for all the levels that go down (per CHUNK rows): a level it did
          // not change would have gone below what is reserved, and the transaction is refused.
          const taken = await repo.takeAvailableAll(
            downs.map((c) => ({ ...keyOf(c.wanted), quantity: -delta(c) })),
            scn,
          );
          const done = new Set(taken.map((l) => levelKeyString(l.article_no, l.sizex, l.location_code)));
          const refused = downs.find(
            (c) => !done.has(levelKeyString(c.wanted.articleNo, c.wanted.sizex, c.wanted.locationCode)),
          );
          if (refused) {
            throw STOCK_ERRORS.INSUFFICIENT_STOCK(
              `Record ${rows.indexOf(refused.wanted)}: on hand of ${describe(refused.wanted)} cannot be set to ${refused.wanted.onHand}: ${refused.stored?.reserved ?? 0} are reserved.`,
            );
          }
          await repo.insertMovements(
            changes.map((c) =>
              movementRow(this.now, scn, c.wanted, 'CORRECTION', delta(c), 0, options.reference),
            ),
          );
        },
      });
      return { changed: saved.written, unchanged: saved.unchanged };
    });
  }
}
