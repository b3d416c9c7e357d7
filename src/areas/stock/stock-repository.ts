// `npm run mutation` mutates only the stock guards of this file (stryker.config.mjs): takeAvailable,
// reserve, release, ship, the conditional UPDATE they share, takeAvailableAll and reserveAll (their set-based forms),
// between Stryker restore/disable comments.
// Stryker disable all
import {
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type SqlBool,
  sql,
  type UpdateObject,
} from 'kysely';
import { onPostgres } from '../../kernel/db/engine.ts';
import type { DB } from '../../kernel/db/schema.ts';
import { LOCATION_FIELDS } from './location-repository.ts';
import { seenBy } from './location-visibility.ts';
import type { LevelKey, LevelRow, MovementRow } from './stock-batches.ts';
import {
  chunks,
  keptMovements,
  keptReservations,
  MOVEMENT_COLUMNS,
  pick,
  quantitiesOf,
} from './stock-batches.ts';
import type { StockLocationTable } from './tables.ts';

/** A location as the services read and write it (its paging position is the database's). */
export type LocationRow = Omit<StockLocationTable, 'pos' | 'seen_wholesale' | 'seen_retail' | 'seen_shop'>;
export type { MovementRow } from './stock-batches.ts';
export type StoredMovement = MovementRow & { id: number };

export type { LevelKey, LevelRow } from './stock-batches.ts';

export interface LedgerMismatch {
  article_no: string;
  sizex: string;
  location_code: string;
  on_hand: number | null;
  reserved: number | null;
  sum_on_hand: number | null;
  sum_reserved: number | null;
}

const LEVEL_COLUMNS = ['article_no', 'sizex', 'location_code', 'on_hand', 'reserved', 'scn'] as const;

const LOCATION_COLUMNS = [...LOCATION_FIELDS, 'created_at', 'updated_at'] as const;

type LevelExpressions = ExpressionBuilder<DB, 'stock_level'>;

function num(value: unknown): number {
  return Number(value);
}

/** The SQL statements of the stock area but its lists and feeds (StockReadRepository). */
export class StockRepository {
  /** `db`: the connection or transaction it runs on (the catalogue's reads join it: stock-shared.ts). */
  readonly db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.db = db;
  }

  // --- reads ---------------------------------------------------------------------------------

  findLocation(code: string): Promise<LocationRow | undefined> {
    return this.db
      .selectFrom('stock_location')
      .select(LOCATION_COLUMNS)
      .where('code', '=', code)
      .executeTakeFirst();
  }

  /** Locations in code order; deleted ones only when asked. */
  locations(includeDeleted = false): Promise<LocationRow[]> {
    return this.db
      .selectFrom('stock_location')
      .select(LOCATION_COLUMNS)
      .$if(!includeDeleted, (qb) => qb.where('deleted', '=', 0))
      .orderBy('code')
      .execute();
  }

  /** The levels of one article (optionally at one location). */
  async levelsOfArticle(articleNo: string, locationCode?: string): Promise<LevelRow[]> {
    const rows = await this.db
      .selectFrom('stock_level')
      .select(LEVEL_COLUMNS)
      .where('article_no', '=', articleNo)
      .$if(locationCode !== undefined, (qb) => qb.where('location_code', '=', locationCode ?? ''))
      .orderBy('sizex')
      .orderBy('location_code')
      .execute();
    return rows.map(normaliseLevel);
  }

  async level(key: LevelKey): Promise<LevelRow | undefined> {
    const row = await this.db
      .selectFrom('stock_level')
      .select(LEVEL_COLUMNS)
      .where('article_no', '=', key.articleNo)
      .where('sizex', '=', key.sizex)
      .where('location_code', '=', key.locationCode)
      .executeTakeFirst();
    return row ? normaliseLevel(row) : undefined;
  }

  /** The existing levels of the given articles, keyed `article|size|location`. */
  async levelsOfArticles(articleNos: readonly string[]): Promise<Map<string, LevelRow>> {
    const out = new Map<string, LevelRow>();
    for (const part of chunks([...new Set(articleNos)])) {
      const rows = await this.db
        .selectFrom('stock_level')
        .select(LEVEL_COLUMNS)
        .where('article_no', 'in', part)
        .execute();
      for (const row of rows) {
        out.set(levelKeyString(row.article_no, row.sizex, row.location_code), normaliseLevel(row));
      }
    }
    return out;
  }

  /** The articles among `articleNos` that have at least one stock level. */
  async stockedArticles(articleNos: readonly string[]): Promise<Set<string>> {
    const out = new Set<string>();
    for (const part of chunks([...new Set(articleNos)])) {
      const rows = await this.db
        .selectFrom('stock_level')
        .select('article_no')
        .distinct()
        .where('article_no', 'in', part)
        .execute();
      for (const row of rows) out.add(row.article_no);
    }
    return out;
  }

  async locationHoldsStock(code: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('stock_level')
      .select('article_no')
      .where('location_code', '=', code)
      .where((eb) => eb.or([eb('on_hand', '<>', 0), eb('reserved', '<>', 0)]))
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * The newest movements of one level, newest first: a scan from the newest movement back, the
   * ledger having no index by level (migration 0045; docs/stock.md, "Storage"). For tests and an
   * administrator's look at one level; no operation serves it.
   */
  async movementsOf(key: LevelKey, limit: number): Promise<StoredMovement[]> {
    const rows = await this.db
      .selectFrom('stock_movement')
      .selectAll()
      .where('article_no', '=', key.articleNo)
      .where('sizex', '=', key.sizex)
      .where('location_code', '=', key.locationCode)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      ...r,
      id: num(r.id),
      scn: num(r.scn),
      on_hand_delta: num(r.on_hand_delta),
      reserved_delta: num(r.reserved_delta),
    }));
  }

  /**
   * Levels that are not the sum of their movements (and movements without a level). Empty when the
   * ledger holds; a full scan, for tests and an administrator's health check.
   */
  async ledgerMismatches(): Promise<LedgerMismatch[]> {
    const result = await sql<LedgerMismatch>`
      with sums as (
        select article_no, sizex, location_code,
               sum(on_hand_delta) as sum_on_hand, sum(reserved_delta) as sum_reserved
          from stock_movement
         group by article_no, sizex, location_code
      )
      select l.article_no, l.sizex, l.location_code, l.on_hand, l.reserved, s.sum_on_hand, s.sum_reserved
        from stock_level l
        left join sums s
          on s.article_no = l.article_no and s.sizex = l.sizex and s.location_code = l.location_code
       where s.article_no is null or s.sum_on_hand <> l.on_hand or s.sum_reserved <> l.reserved
      union all
      select s.article_no, s.sizex, s.location_code, null, null, s.sum_on_hand, s.sum_reserved
        from sums s
       where not exists (
         select 1 from stock_level l
          where l.article_no = s.article_no and l.sizex = s.sizex and l.location_code = s.location_code
       )
    `.execute(this.db);
    return result.rows.map((r) => ({
      ...r,
      on_hand: r.on_hand === null ? null : num(r.on_hand),
      reserved: r.reserved === null ? null : num(r.reserved),
      sum_on_hand: r.sum_on_hand === null ? null : num(r.sum_on_hand),
      sum_reserved: r.sum_reserved === null ? null : num(r.sum_reserved),
    }));
  }

  // --- writes (only on a repository made over a unit of work's transaction) ------------------

  async insertLocation(row: LocationRow): Promise<void> {
    const seen = seenBy(row);
    await this.db
      .insertInto('stock_location')
      .values({ ...row, seen_wholesale: seen.wholesale, seen_retail: seen.retail, seen_shop: seen.shop })
      .execute();
  }

  /**
   * Whether the location is live, and on PostgreSQL its row held (FOR SHARE) until the transaction
   * ends: a deletion, which marks the row first and then looks for stock, waits for this
   * transaction and sees what it wrote (a stock receipt; decision 27).
   */
  /**
   * What is available at a level (on hand - reserved; 0 when there is no level), its row held until
   * the transaction ends on PostgreSQL (FOR UPDATE), so a reservation of "as much as there is" that
   * follows takes exactly that (SQLite serialises writers anyway). The reservation itself stays the
   * conditional UPDATE (`reserve`): this read only sizes it.
   */
  async lockAvailable(key: LevelKey): Promise<number> {
    const level = this.db
      .selectFrom('stock_level')
      .select(['on_hand', 'reserved'])
      .where('article_no', '=', key.articleNo)
      .where('sizex', '=', key.sizex)
      .where('location_code', '=', key.locationCode);
    const row = await (onPostgres(this.db) ? level.forUpdate() : level).executeTakeFirst();
    return row === undefined ? 0 : Math.max(0, Number(row.on_hand) - Number(row.reserved));
  }

  async replaceLocation(row: LocationRow): Promise<void> {
    const { code, created_at, ...changes } = row;
    const seen = seenBy(row);
    await this.db
      .updateTable('stock_location')
      .set((eb) => ({
        ...changes,
        // Once seen, always seen (the stock feeds' DELETED: tables.ts).
        seen_wholesale: seen.wholesale === 1 ? 1 : eb.ref('seen_wholesale'),
        seen_retail: seen.retail === 1 ? 1 : eb.ref('seen_retail'),
        seen_shop: seen.shop === 1 ? 1 : eb.ref('seen_shop'),
      }))
      .where('code', '=', code)
      .execute();
  }

  /** Stamps every level of a location: a change of who may see the location changes them all. */
  async touchLevelsOfLocation(code: string, scn: number): Promise<void> {
    await this.db.updateTable('stock_level').set({ scn }).where('location_code', '=', code).execute();
  }

  /** Adds to on hand, creating the levels that do not exist yet; one row per key. Returns the new levels. */
  async addOnHand(rows: ReadonlyArray<LevelKey & { quantity: number }>, scn: number): Promise<LevelRow[]> {
    const out: LevelRow[] = [];
    for (const part of chunks(rows)) {
      const changed = await this.db
        .insertInto('stock_level')
        .values(
          part.map((r) => ({
            article_no: r.articleNo,
            sizex: r.sizex,
            location_code: r.locationCode,
            on_hand: r.quantity,
            reserved: 0,
            scn,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['article_no', 'sizex', 'location_code']).doUpdateSet({
            on_hand: sql<number>`stock_level.on_hand + excluded.on_hand`,
            scn,
          }),
        )
        .returning(LEVEL_COLUMNS)
        .execute();
      for (const row of changed) out.push(normaliseLevel(row));
    }
    return out;
  }

  // Stryker restore all
  /** Takes from on hand only if that leaves available stock (on hand - reserved) at zero or more. */
  takeAvailable(key: LevelKey, quantity: number, scn: number): Promise<LevelRow | undefined> {
    return this.#conditional(
      key,
      scn,
      (eb) => ({ on_hand: eb('on_hand', '-', quantity) }),
      (eb) => eb(eb('on_hand', '-', eb.ref('reserved')), '>=', quantity),
    );
  }

  /**
   * The reservation guard: `reserved + q` only where `on_hand - reserved >= q`, and only at an
   * active location.
   */
  reserve(key: LevelKey, quantity: number, scn: number): Promise<LevelRow | undefined> {
    return this.#conditional(
      key,
      scn,
      (eb) => ({ reserved: eb('reserved', '+', quantity) }),
      (eb) =>
        eb.and([
          eb(eb('on_hand', '-', eb.ref('reserved')), '>=', quantity),
          eb(
            'location_code',
            'in',
            eb
              .selectFrom('stock_location')
              .select('code')
              .where('code', '=', key.locationCode)
              .where('active', '=', 1)
              .where('deleted', '=', 0),
          ),
        ]),
    );
  }

  release(key: LevelKey, quantity: number, scn: number): Promise<LevelRow | undefined> {
    return this.#conditional(
      key,
      scn,
      (eb) => ({ reserved: eb('reserved', '-', quantity) }),
      (eb) => eb('reserved', '>=', quantity),
    );
  }

  /** Reserved stock leaves the location: both on hand and reserved go down. */
  ship(key: LevelKey, quantity: number, scn: number): Promise<LevelRow | undefined> {
    return this.#conditional(
      key,
      scn,
      (eb) => ({ on_hand: eb('on_hand', '-', quantity), reserved: eb('reserved', '-', quantity) }),
      (eb) => eb('reserved', '>=', quantity),
    );
  }

  /**
   * `takeAvailable` for many levels in one statement per CHUNK rows: each level's on hand goes down
   * by its quantity only where that leaves available (on hand - reserved) at zero or more. Answers
   * the levels it changed; a level missing from the answer was refused and is unchanged (the caller
   * rolls its transaction back). One row per level: a level given twice is taken once.
   */
  async takeAvailableAll(
    rows: ReadonlyArray<LevelKey & { quantity: number }>,
    scn: number,
  ): Promise<LevelRow[]> {
    const out: LevelRow[] = [];
    for (const part of chunks(rows)) {
      const changed = await this.db
        .updateTable('stock_level')
        .from(quantitiesOf(part).as('take'))
        .set((eb) => ({ on_hand: eb('stock_level.on_hand', '-', eb.ref('take.quantity')), scn }))
        .whereRef('stock_level.article_no', '=', 'take.key_article')
        .whereRef('stock_level.sizex', '=', 'take.key_sizex')
        .whereRef('stock_level.location_code', '=', 'take.key_location')
        .where((eb) =>
          eb(eb('stock_level.on_hand', '-', eb.ref('stock_level.reserved')), '>=', eb.ref('take.quantity')),
        )
        .returning(LEVEL_COLUMNS)
        .execute();
      for (const row of changed) out.push(normaliseLevel(row));
    }
    return out;
  }

  /**
   * `reserve` for many levels in one statement per CHUNK rows (an order's lines, all or nothing):
   * each level's reserved goes up by its quantity only where available (on hand - reserved) covers
   * it and the location is active. Answers the levels it changed; a level missing from the answer
   * was refused and is unchanged (the caller rolls its transaction back). One row per level: the
   * caller sums a level given twice.
   */
  async reserveAll(rows: ReadonlyArray<LevelKey & { quantity: number }>, scn: number): Promise<LevelRow[]> {
    const out: LevelRow[] = [];
    for (const part of chunks(rows)) {
      // Kept compiled per count of levels (keptReservations): the SCN, the levels, the location's flags.
      const parameters = [
        scn,
        ...part.flatMap((r) => [r.articleNo, r.sizex, r.locationCode, r.quantity]),
        1,
        0,
      ];
      const query = keptReservations(this.db, part.length, parameters, () =>
        this.db
          .updateTable('stock_level')
          .from(quantitiesOf(part).as('take'))
          .set((eb) => ({ reserved: eb('stock_level.reserved', '+', eb.ref('take.quantity')), scn }))
          .whereRef('stock_level.article_no', '=', 'take.key_article')
          .whereRef('stock_level.sizex', '=', 'take.key_sizex')
          .whereRef('stock_level.location_code', '=', 'take.key_location')
          .where((eb) =>
            eb.and([
              eb(
                eb('stock_level.on_hand', '-', eb.ref('stock_level.reserved')),
                '>=',
                eb.ref('take.quantity'),
              ),
              eb(
                'stock_level.location_code',
                'in',
                eb
                  .selectFrom('stock_location')
                  .select('stock_location.code')
                  .where('stock_location.active', '=', 1)
                  .where('stock_location.deleted', '=', 0),
              ),
            ]),
          )
          .returning(LEVEL_COLUMNS),
      );
      const changed = await this.db.executeQuery(query);
      for (const row of changed.rows) out.push(normaliseLevel(row));
    }
    return out;
  }

  // Stryker disable all
  async insertMovements(rows: readonly MovementRow[]): Promise<void> {
    for (const part of chunks(rows)) {
      const parameters = part.flatMap((r) => MOVEMENT_COLUMNS.map((c) => r[c]));
      await this.db.executeQuery(
        keptMovements(this.db, part.length, parameters, () =>
          this.db.insertInto('stock_movement').values(part.map((r) => pick(r, MOVEMENT_COLUMNS))),
        ),
      );
    }
  }

  // Stryker restore all
  // One conditional UPDATE; whether it returned a row says whether the condition held. On PostgreSQL a
  // concurrent update of the same row makes this one wait and then re-check its WHERE on the new
  // row version, so the condition is never judged on stale numbers.
  async #conditional(
    key: LevelKey,
    scn: number,
    set: (eb: LevelExpressions) => UpdateObject<DB, 'stock_level'>,
    condition: (eb: LevelExpressions) => Expression<SqlBool>,
  ): Promise<LevelRow | undefined> {
    const row = await this.db
      .updateTable('stock_level')
      .set((eb) => ({ ...set(eb), scn }))
      .where('article_no', '=', key.articleNo)
      .where('sizex', '=', key.sizex)
      .where('location_code', '=', key.locationCode)
      .where((eb) => condition(eb))
      .returning(LEVEL_COLUMNS)
      .executeTakeFirst();
    return row ? normaliseLevel(row) : undefined;
  }
}

// Stryker disable all
export function levelKeyString(articleNo: string, sizex: string, locationCode: string): string {
  return `${articleNo}\u0000${sizex}\u0000${locationCode}`;
}

function normaliseLevel(row: LevelRow): LevelRow {
  return { ...row, on_hand: num(row.on_hand), reserved: num(row.reserved), scn: num(row.scn) };
}
