import type { Insertable, Kysely, Selectable } from 'kysely';
import type { DB } from '../../kernel/db/schema.ts';
import type { OrderTenderTable } from './tables.ts';

export type OrderTenderRow = Selectable<OrderTenderTable>;

/**
 * The order's side of its tender payments (migration 0037_order_tenders): one row per tender that
 * paid it, what was given back to it, and what the order earned on its bonus card. Written only
 * inside the transactions of the order's placement and moves, with the order held.
 */
export class OrderTenderRepository {
  readonly #db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  async insertTenders(rows: readonly Insertable<OrderTenderTable>[]): Promise<void> {
    if (rows.length > 0) await this.#db.insertInto('order_tender').values(rows).execute();
  }

  async tendersOf(orderNo: number): Promise<OrderTenderRow[]> {
    const rows = await this.#db
      .selectFrom('order_tender')
      .selectAll()
      .where('order_no', '=', orderNo)
      .orderBy('line_no')
      .execute();
    // PostgreSQL answers bigint columns as strings.
    return rows.map((r) => ({
      ...r,
      order_no: Number(r.order_no),
      tender_id: Number(r.tender_id),
      amount: Number(r.amount),
      refunded: Number(r.refunded),
    }));
  }

  /** The tenders of several orders (a page of a client's orders), by order and line. */
  async tendersOfOrders(orderNos: readonly number[]): Promise<OrderTenderRow[]> {
    if (orderNos.length === 0) return [];
    const rows = await this.#db
      .selectFrom('order_tender')
      .selectAll()
      .where('order_no', 'in', orderNos)
      .orderBy('order_no')
      .orderBy('line_no')
      .execute();
    return rows.map((r) => ({
      ...r,
      order_no: Number(r.order_no),
      tender_id: Number(r.tender_id),
      amount: Number(r.amount),
      refunded: Number(r.refunded),
    }));
  }

  /**
   * Counts `amount` more given back to one tender of the order, if that keeps it within what the
   * tender paid (the check of 0037 refuses more as well): false when it would not.
   */
  async addRefunded(orderNo: number, lineNo: number, amount: number): Promise<boolean> {
    const result = await this.#db
      .updateTable('order_tender')
      .set((eb) => ({ refunded: eb('refunded', '+', amount) }))
      .where('order_no', '=', orderNo)
      .where('line_no', '=', lineNo)
      .where((eb) => eb(eb('refunded', '+', amount), '<=', eb.ref('amount')))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** What the order has put on its bonus card so far. */
  async setBonusEarned(orderNo: number, earned: number): Promise<void> {
    await this.#db
      .updateTable('sales_order')
      .set({ bonus_earned: earned })
      .where('order_no', '=', orderNo)
      .execute();
  }
}
