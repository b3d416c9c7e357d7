import type { UnitOfWork } from '../../kernel/db/unit-of-work.ts';
import { levelKeyString, StockRepository } from './stock-repository.ts';
import { assertQuantity, keyOf, type StockLine } from './stock-rules.ts';
import { movementRow, whyNot } from './stock-shared.ts';

/** One line of a reservation: how much was asked and how much is now held for it. */
export interface Reserved {
  asked: number;
  reserved: number;
}

/**
 * Reservations of many lines for one caller's transaction (an order's placement): each line is
 * the stock area's conditional UPDATE (available never below zero, only at an active location),
 * and the ledger rows of all lines are one INSERT, so a placement costs one statement per line
 * plus one. With `upTo`, a line takes what is available up to its quantity (a wholesale
 * back-order keeps the rest open); without it a line short of stock is INSUFFICIENT_STOCK and the
 * caller's transaction rolls back (all or nothing).
 */
export class ReservationService {
  readonly now: () => Date;

  constructor(now: () => Date = () => new Date()) {
    this.now = now;
  }

  async reserveAllIn(
    uow: UnitOfWork,
    lines: readonly StockLine[],
    options: { upTo?: boolean } = {},
  ): Promise<Reserved[]> {
    for (const line of lines) assertQuantity(line.quantity);
    const scn = await uow.stamp();
    const repo = new StockRepository(uow.db);
    if (!options.upTo) return this.#reserveEvery(repo, lines, scn);
    const out: Reserved[] = new Array(lines.length);
    const movements = [];
    // Levels are taken in one order (article, size, location) by every caller, so two placements
    // holding the same sizes never wait on each other crosswise (no deadlock on PostgreSQL).
    for (const i of inKeyOrder(lines)) {
      const line = lines[i]!;
      let take = line.quantity;
      if (options.upTo) take = Math.min(take, await repo.lockAvailable(line));
      if (take > 0) {
        const row = await repo.reserve(line, take, scn);
        if (!row) {
          // upTo sized it under a lock (or SQLite's single writer): only an inactive location is left.
          throw await whyNot(repo, { ...line, quantity: take }, 'reserve');
        }
        movements.push(movementRow(this.now, scn, line, 'RESERVE', 0, take, line.reference));
      }
      out[i] = { asked: line.quantity, reserved: take };
    }
    if (movements.length > 0) await repo.insertMovements(movements);
    return out;
  }

  /**
   * All or nothing: every line's level reserved by one conditional UPDATE of them all (a level given
   * by two lines is reserved once, for their sum); a level the statement left out was short (or its
   * location inactive), and its refusal is thrown, so the caller's transaction rolls back.
   */
  async #reserveEvery(repo: StockRepository, lines: readonly StockLine[], scn: number): Promise<Reserved[]> {
    const sums = new Map<string, StockLine>();
    for (const line of lines) {
      const k = levelKeyString(line.articleNo, line.sizex, line.locationCode);
      const sum = sums.get(k);
      sums.set(k, sum ? { ...sum, quantity: sum.quantity + line.quantity } : { ...line });
    }
    // In key order, as the per-line path takes them.
    const levels = [...sums.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, l]) => l);
    const changed = await repo.reserveAll(levels, scn);
    if (changed.length < levels.length) {
      const done = new Set(changed.map((r) => levelKeyString(r.article_no, r.sizex, r.location_code)));
      const short = levels.find((l) => !done.has(levelKeyString(l.articleNo, l.sizex, l.locationCode)))!;
      throw await whyNot(repo, short, 'reserve');
    }
    const at = this.now(); // one time for the transaction's rows
    await repo.insertMovements(
      lines.map((line) => movementRow(() => at, scn, line, 'RESERVE', 0, line.quantity, line.reference)),
    );
    return lines.map((line) => ({ asked: line.quantity, reserved: line.quantity }));
  }

  /** Gives reserved stock back, many lines in one transaction (an order cancelled or closed). */
  async releaseAllIn(uow: UnitOfWork, lines: readonly StockLine[]): Promise<void> {
    await this.#moveAll(uow, lines, 'release');
  }

  /** Reserved stock leaves the location, many lines (a delivery from the reservation). */
  async shipAllIn(uow: UnitOfWork, lines: readonly StockLine[]): Promise<void> {
    await this.#moveAll(uow, lines, 'ship');
  }

  /**
   * Stock that was not reserved leaves the location, many lines (a back-order delivered beyond its
   * reservation): on hand goes down only where that leaves available (on hand - reserved) at zero
   * or more, so another order's reservation is never shipped; INSUFFICIENT_STOCK otherwise.
   */
  async shipUnreservedAllIn(uow: UnitOfWork, lines: readonly StockLine[]): Promise<void> {
    if (lines.length === 0) return;
    for (const line of lines) assertQuantity(line.quantity);
    const scn = await uow.stamp();
    const repo = new StockRepository(uow.db);
    const movements = [];
    for (const i of inKeyOrder(lines)) {
      const line = lines[i]!;
      const row = await repo.takeAvailable(line, line.quantity, scn);
      if (!row) throw await whyNot(repo, line, 'take');
      movements.push(movementRow(this.now, scn, line, 'SHIPMENT', -line.quantity, 0, line.reference));
    }
    await repo.insertMovements(movements);
  }

  /**
   * A shipment taken back, many lines (an order's delivery cancelled: the goods never left): on hand
   * goes up by what was shipped and all of it is reserved again for the order (two statements a
   * line, one SHIPMENT movement with both deltas, the shipment's opposite). The reservation is the
   * guarded one, so a location made inactive since refuses it (LOCATION_INACTIVE) and the caller's
   * transaction rolls back.
   */
  async unshipAllIn(uow: UnitOfWork, lines: readonly StockLine[]): Promise<void> {
    if (lines.length === 0) return;
    for (const line of lines) assertQuantity(line.quantity);
    const scn = await uow.stamp();
    const repo = new StockRepository(uow.db);
    const movements = [];
    for (const i of inKeyOrder(lines)) {
      const line = lines[i]!;
      await repo.addOnHand([{ ...keyOf(line), quantity: line.quantity }], scn);
      if (!(await repo.reserve(line, line.quantity, scn))) throw await whyNot(repo, line, 'reserve');
      movements.push(
        movementRow(this.now, scn, line, 'SHIPMENT', line.quantity, line.quantity, line.reference),
      );
    }
    await repo.insertMovements(movements);
  }

  async #moveAll(uow: UnitOfWork, lines: readonly StockLine[], how: 'release' | 'ship'): Promise<void> {
    if (lines.length === 0) return;
    for (const line of lines) assertQuantity(line.quantity);
    const scn = await uow.stamp();
    const repo = new StockRepository(uow.db);
    const movements = [];
    for (const i of inKeyOrder(lines)) {
      const line = lines[i]!;
      const row = await repo[how](line, line.quantity, scn);
      if (!row) throw await whyNot(repo, line, how);
      movements.push(
        how === 'release'
          ? movementRow(this.now, scn, line, 'RELEASE', 0, -line.quantity, line.reference)
          : movementRow(this.now, scn, line, 'SHIPMENT', -line.quantity, -line.quantity, line.reference),
      );
    }
    await repo.insertMovements(movements);
  }
}

/** The indexes of `lines` in level-key order. */
function inKeyOrder(lines: readonly StockLine[]): number[] {
  const key = (l: StockLine) => `${l.articleNo}\u0000${l.sizex}\u0000${l.locationCode}`;
  return lines
    .map((_, i) => i)
    .sort((a, b) => (key(lines[a]!) < key(lines[b]!) ? -1 : key(lines[a]!) > key(lines[b]!) ? 1 : 0));
}
