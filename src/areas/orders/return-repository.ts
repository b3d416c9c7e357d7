import type { Insertable, Kysely, Selectable } from 'kysely';
import type { DB } from '../../kernel/db/schema.ts';
import type { OrderReturnLineTable, OrderReturnTable } from './tables.ts';

export type ReturnRow = Selectable<OrderReturnTable>;
export type NewReturnRow = Insertable<OrderReturnTable>;
export type ReturnLineRow = Selectable<OrderReturnLineTable>;

/**
 * Return authorisations and their lines (docs/orders.md, "Returns"). An authorisation is written
 * under its order's lock; its receipt is claimed by one conditional UPDATE (`AUTHORISED` to
 * `RECEIVED`), so of two receipts, also concurrent ones, exactly one moves stock and counts.
 */
export class ReturnRepository {
  readonly db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.db = db;
  }

  async insertReturn(row: NewReturnRow): Promise<number> {
    const inserted = await this.db
      .insertInto('order_return')
      .values(row)
      .returning('return_no')
      .executeTakeFirstOrThrow();
    return Number(inserted.return_no);
  }

  async insertLines(rows: readonly ReturnLineRow[]): Promise<void> {
    if (rows.length > 0)
      await this.db
        .insertInto('order_return_line')
        .values([...rows])
        .execute();
  }

  findReturn(returnNo: number): Promise<ReturnRow | undefined> {
    return this.db
      .selectFrom('order_return')
      .selectAll()
      .where('return_no', '=', returnNo)
      .executeTakeFirst();
  }

  linesOf(returnNo: number): Promise<ReturnLineRow[]> {
    return this.db
      .selectFrom('order_return_line')
      .selectAll()
      .where('return_no', '=', returnNo)
      .orderBy('line_no')
      .execute();
  }

  /**
   * Per order line, the pieces authorised for return and not yet received (authorisations still
   * AUTHORISED): they may not be authorised a second time.
   */
  async openAuthorised(orderNo: number): Promise<Map<number, number>> {
    const rows = await this.db
      .selectFrom('order_return_line as rl')
      .innerJoin('order_return as r', 'r.return_no', 'rl.return_no')
      .select(['rl.line_no', (eb) => eb.fn.sum<number>('rl.quantity').as('quantity')])
      .where('r.order_no', '=', orderNo)
      .where('r.state', '=', 'AUTHORISED')
      .groupBy('rl.line_no')
      .execute();
    return new Map(rows.map((r) => [Number(r.line_no), Number(r.quantity)]));
  }

  /**
   * The receipt's claim: marks the authorisation RECEIVED only if it is still AUTHORISED and answers
   * its order and location, or undefined (received or cancelled already, or no such return).
   */
  async claimReceipt(
    returnNo: number,
    scn: number,
    at: string,
  ): Promise<{ order_no: number; location_code: string } | undefined> {
    const row = await this.db
      .updateTable('order_return')
      .set({ state: 'RECEIVED', scn, updated_at: at })
      .where('return_no', '=', returnNo)
      .where('state', '=', 'AUTHORISED')
      .returning(['order_no', 'location_code'])
      .executeTakeFirst();
    return row === undefined
      ? undefined
      : { order_no: Number(row.order_no), location_code: row.location_code };
  }

  /** Every line of the return received in full. */
  async markLinesReceived(returnNo: number): Promise<void> {
    await this.db
      .updateTable('order_return_line')
      .set((eb) => ({ received: eb.ref('quantity') }))
      .where('return_no', '=', returnNo)
      .execute();
  }
}
