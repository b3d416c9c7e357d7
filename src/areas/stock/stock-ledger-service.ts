import type { Kysely } from 'kysely';
import type { Database } from '../../kernel/db/database.ts';
import type { PerTurnRead } from '../../kernel/db/per-turn-read.ts';
import type { DB } from '../../kernel/db/schema.ts';
import { scnPerTurn } from '../../kernel/db/scn-reader.ts';
import { inOneStatement, inWriteTransaction, type UnitOfWork } from '../../kernel/db/unit-of-work.ts';
import { ValidationError } from '../../kernel/errors.ts';
import { feedPage } from '../../kernel/feed-page.ts';
import type { Audience, Page, PageOf } from '../../kernel/paging.ts';
import { articleSizesIn, CATALOG_ERRORS } from '../catalog/index.ts';
import { articleStockAnswer } from './article-stock-answer.ts';
import { ReceiptRepository } from './receipt-repository.ts';
import { StockReadRepository } from './stock-read-repository.ts';
import {
  type LedgerMismatch,
  type LevelKey,
  levelKeyString,
  StockRepository,
  type StoredMovement,
} from './stock-repository.ts';
import {
  assertQuantity,
  keyOf,
  locationNotFound,
  type StockLevel,
  type StockLine,
  toLevel,
} from './stock-rules.ts';
import { checkTarget, checkTargets, movementRow, unknownSize, whyNot } from './stock-shared.ts';
import {
  type ArticleStockWire,
  levelKeyToWire,
  levelToWire,
  levelVisibleTo,
  locationVisibleTo,
  type StockKeyWire,
  type StockRowWire,
} from './stock-wire.ts';

export interface TransferInput {
  from: string;
  to: string;
  articleNo: string;
  sizex: string;
  quantity: number;
  reference?: string;
}

/**
 * Stock levels and the ledger of movements every level is the sum of (docs/stock.md): the stock
 * feeds, receipts, reservations, releases, shipments and transfers.
 */
export class StockLedgerService {
  readonly #read: StockRepository;
  readonly #lists: StockReadRepository;
  readonly #scn: PerTurnRead<number>;

  readonly database: Database;
  readonly now: () => Date;

  constructor(database: Database, now: () => Date = () => new Date()) {
    this.database = database;
    this.now = now;
    this.#read = new StockRepository(database.db);
    this.#lists = new StockReadRepository(database.db);
    this.#scn = scnPerTurn(database.db);
  }

  // --- reads -----------------------------------------------------------------------------------

  /**
   * Stock levels paged by stable position (`stroffset` is a position, NEXTOFFSET the position of the
   * first level not shown); with `page.sinceScn` > 0 only what changed after it, and under `deleted`
   * the levels this audience no longer sees (location deleted, inactive or not serving it; article
   * deleted or, for retail, unpublished). A full list (`sinceScn` 0) holds only levels it sees.
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
    return feedPage(this.database.db, page, {
      rows: (sinceScn, from, limit) => this.#lists.levelsPage(audience, sinceScn, from, limit, locationCode),
      position: (r) => r.pos,
      live: (r) => levelVisibleTo(audience, r),
      items: (live) => live.map((r) => levelToWire(audience, r)),
      deletedKey: (r) => levelKeyToWire(r),
    });
  }

  /**
   * One article's stock at every location this audience sees (or at one), with totals per size. On
   * SQLite one statement (StockReadRepository.articleStock), the SCN read with the rest, in its
   * snapshot (decision 49). On PostgreSQL two: the SCN (shared by the reads that ask at about the
   * same time, each read after its request asked: scnPerTurn, kernel/db/per-turn-read.ts) and then
   * everything else.
   */
  async articleStock(
    audience: Audience,
    articleNo: string,
    locationCode?: string,
  ): Promise<ArticleStockWire> {
    const scn = this.#lists.articleStockHasScn ? undefined : await this.#scn.current();
    const rows = await this.#lists.articleStock(audience, articleNo, locationCode, this.database.reader);
    const answer = articleStockAnswer(audience, scn, articleNo, rows, locationCode);
    if (answer === 'article') {
      throw CATALOG_ERRORS.ARTICLE_NOT_FOUND(
        `No article "${articleNo}"${audience === 'B2C' ? ' published for retail' : ''}.`,
      );
    }
    if (answer === 'location') throw locationNotFound(locationCode ?? '');
    return answer;
  }

  /**
   * The JSON text of the answer `{"<root>": articleStock(...)}`, made on the SQLite reader thread
   * with the read (kernel/db/sqlite-reader.ts, `textOnThread`; decision 49): the serving thread gets
   * one string. Undefined where the thread does not make it (no thread; a refusal): `articleStock`
   * then answers, with the same code.
   */
  articleStockText(
    root: string,
    audience: Audience,
    articleNo: string,
    locationCode?: string,
  ): Promise<string | undefined> {
    // the text carries the SCN read with the rows: SQLite only (on PostgreSQL no thread makes it)
    if (!this.#lists.articleStockHasScn) return Promise.resolve(undefined);
    return this.#lists.articleStockText(root, audience, articleNo, locationCode, this.database.reader);
  }

  /** The level of one size at one location; zeros when it never had stock. */
  async level(key: LevelKey): Promise<StockLevel> {
    const row = await this.#read.level(key);
    return toLevel(key, row);
  }

  /**
   * The locations holding stock of an article, on hand or reserved, read in the caller's transaction
   * `uow`: the catalog refuses to delete an article while there are any (services.catalog asks).
   */
  async stockedLocationsIn(uow: UnitOfWork, articleNo: string): Promise<string[]> {
    const levels = await new StockRepository(uow.db).levelsOfArticle(articleNo);
    return [...new Set(levels.filter((l) => l.on_hand > 0 || l.reserved > 0).map((l) => l.location_code))];
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

  // --- movements inside a caller's transaction ------------------------------------------------

  /**
   * Goods arrive at a location: on hand goes up. The increment is one statement and needs no
   * order among writers, so the receipt only stamps (decision 27); but an article or location
   * deleted meanwhile (their deletions refuse while stock is there) would get stock it can no longer
   * carry. So the receipt holds the article and location rows with a shared lock: a deletion that
   * committed before is seen (refused here), and a deletion marks its row before it looks for stock,
   * so one that comes after waits for this receipt and sees its stock (refused there). On
   * PostgreSQL all of it is one statement (receipt-repository.ts, decision 46), which takes the
   * locks before it writes; on SQLite, whose writers are serialised by BEGIN IMMEDIATE, the target
   * checked first stays as it was until the commit.
   */
  async receiveIn(uow: UnitOfWork, line: StockLine): Promise<StockLevel> {
    assertQuantity(line.quantity);
    if (this.database.engine === 'postgres') return this.#receiveInOneStatement(uow.db, line);
    const stamp = await uow.stamp();
    const repo = new StockRepository(uow.db);
    await checkTarget(repo, line);
    const [row] = await repo.addOnHand([{ ...line }], stamp);
    await repo.insertMovements([
      movementRow(this.now, stamp, line, 'RECEIPT', line.quantity, 0, line.reference),
    ]);
    return toLevel(line, row);
  }

  /** PostgreSQL: the receipt as one statement in `db` (a transaction, or the pool: its own). */
  async #receiveInOneStatement(db: Kysely<DB>, line: StockLine): Promise<StockLevel> {
    const outcome = await new ReceiptRepository(db).receive(
      { ...keyOf(line), quantity: line.quantity, reference: line.reference ?? null },
      this.now().toISOString(),
    );
    if (!outcome.level) {
      // Nothing was written: the refusal checkTarget gives, in its order (the unknown size names
      // the article's sizes, read for the message).
      if (!outcome.location) throw locationNotFound(line.locationCode);
      if (!outcome.article) throw CATALOG_ERRORS.ARTICLE_NOT_FOUND(`No article "${line.articleNo}".`);
      throw unknownSize(line, (await articleSizesIn(db, [line.articleNo])).get(line.articleNo) ?? []);
    }
    return toLevel(line, outcome.level);
  }

  /**
   * Reserves available stock, never taking available below zero; INSUFFICIENT_STOCK otherwise. The
   * guard is the conditional UPDATE alone, so it stamps and takes its SCN at the end (as release and
   * ship): placing orders does not queue on the SCN counter.
   */
  async reserveIn(uow: UnitOfWork, line: StockLine): Promise<StockLevel> {
    assertQuantity(line.quantity);
    const scn = await uow.stamp();
    const repo = new StockRepository(uow.db);
    const row = await repo.reserve(line, line.quantity, scn);
    if (!row) throw await whyNot(repo, line, 'reserve');
    await repo.insertMovements([
      movementRow(this.now, scn, line, 'RESERVE', 0, line.quantity, line.reference),
    ]);
    return toLevel(line, row);
  }

  /** Gives reserved stock back to available; INSUFFICIENT_RESERVATION if less is reserved. */
  async releaseIn(uow: UnitOfWork, line: StockLine): Promise<StockLevel> {
    assertQuantity(line.quantity);
    const scn = await uow.stamp();
    const repo = new StockRepository(uow.db);
    const row = await repo.release(line, line.quantity, scn);
    if (!row) throw await whyNot(repo, line, 'release');
    await repo.insertMovements([
      movementRow(this.now, scn, line, 'RELEASE', 0, -line.quantity, line.reference),
    ]);
    return toLevel(line, row);
  }

  /** Reserved stock leaves the location (delivered, picked up): on hand and reserved go down. */
  async shipIn(uow: UnitOfWork, line: StockLine): Promise<StockLevel> {
    assertQuantity(line.quantity);
    const scn = await uow.stamp();
    const repo = new StockRepository(uow.db);
    const row = await repo.ship(line, line.quantity, scn);
    if (!row) throw await whyNot(repo, line, 'ship');
    await repo.insertMovements([
      movementRow(this.now, scn, line, 'SHIPMENT', -line.quantity, -line.quantity, line.reference),
    ]);
    return toLevel(line, row);
  }

  /** Moves available stock from one location to another: two ledger rows, one transaction. */
  async transferIn(uow: UnitOfWork, input: TransferInput): Promise<{ from: StockLevel; to: StockLevel }> {
    assertQuantity(input.quantity);
    if (input.from === input.to) {
      throw new ValidationError([{ name: '/TOLOCATION', message: 'must differ from LOCATION' }]);
    }
    const scn = await uow.scn();
    const repo = new StockRepository(uow.db);
    const from: LevelKey = { locationCode: input.from, articleNo: input.articleNo, sizex: input.sizex };
    const to: LevelKey = { locationCode: input.to, articleNo: input.articleNo, sizex: input.sizex };
    await checkTarget(repo, from);
    await checkTarget(repo, to);
    const taken = await repo.takeAvailable(from, input.quantity, scn);
    if (!taken) throw await whyNot(repo, { ...from, quantity: input.quantity }, 'take');
    const [added] = await repo.addOnHand([{ ...to, quantity: input.quantity }], scn);
    const reference = input.reference ?? `${input.from}>${input.to}`;
    await repo.insertMovements([
      movementRow(this.now, scn, from, 'TRANSFER_OUT', -input.quantity, 0, reference),
      movementRow(this.now, scn, to, 'TRANSFER_IN', input.quantity, 0, reference),
    ]);
    return { from: toLevel(from, taken), to: toLevel(to, added) };
  }
  // --- the same, each in its own transaction -----------------------------------------------------

  async receive(line: StockLine): Promise<StockLevel> {
    if (this.database.engine === 'postgres') {
      // one statement, its own transaction (or the open one of a joined database)
      assertQuantity(line.quantity);
      return inOneStatement(this.database, (db) => this.#receiveInOneStatement(db, line));
    }
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

  // --- bulk forms for imports: one transaction each, all or nothing ------------------------------

  /**
   * Receipts of many lines in one transaction (a delivery, the demo seed); a line the database
   * refuses is named by its index (`/3/SIZEX`).
   */
  async receiveAll(lines: readonly StockLine[]): Promise<{ movements: number }> {
    for (const line of lines) assertQuantity(line.quantity);
    if (lines.length === 0) return { movements: 0 };
    return inWriteTransaction(this.database, async (uow) => {
      const scn = await uow.scn();
      const repo = new StockRepository(uow.db);
      await checkTargets(repo, lines);
      const sums = new Map<string, LevelKey & { quantity: number }>();
      for (const line of lines) {
        const k = levelKeyString(line.articleNo, line.sizex, line.locationCode);
        const sum = sums.get(k);
        if (sum) sum.quantity += line.quantity;
        else sums.set(k, { ...keyOf(line), quantity: line.quantity });
      }
      await repo.addOnHand([...sums.values()], scn);
      await repo.insertMovements(
        lines.map((l) => movementRow(this.now, scn, l, 'RECEIPT', l.quantity, 0, l.reference)),
      );
      return { movements: lines.length };
    });
  }
}
