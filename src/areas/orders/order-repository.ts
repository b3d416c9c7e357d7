import type { Insertable, Kysely, Selectable } from 'kysely';
import { onPostgres } from '../../kernel/db/engine.ts';
import type { DB } from '../../kernel/db/schema.ts';
import type {
  OrderHistoryTable,
  SalesOrderLineTable,
  SalesOrderTable,
  SalesOrderVatTable,
} from './tables.ts';

export type OrderRow = Selectable<SalesOrderTable>;
export type OrderLineRow = Selectable<SalesOrderLineTable>;
export type OrderVatRow = Selectable<SalesOrderVatTable>;
export type NewOrderRow = Insertable<SalesOrderTable>;
export type HistoryInsert = Insertable<OrderHistoryTable>;

/** The counters of a line as the lifecycle changes them. */
export interface LineCountersRow {
  line_no: number;
  cancelled: number;
  reserved: number;
  delivered: number;
  returned: number;
}

/**
 * One order as the moves read and write it (docs/orders.md): the order (held while it moves), its
 * lines and VAT rows, its history rows, its stored state and its lines' counters. The placement's
 * own writes (the claim of the reference, the lines and VAT rows) are placement-repository.ts.
 */
export class OrderRepository {
  readonly db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.db = db;
  }

  findOrder(orderNo: number): Promise<OrderRow | undefined> {
    return this.db.selectFrom('sales_order').selectAll().where('order_no', '=', orderNo).executeTakeFirst();
  }

  /**
   * The order, held until the transaction ends (FOR UPDATE on PostgreSQL; SQLite serialises
   * writers): every move of an order reads and writes it under this lock, so moves of one order
   * never interleave.
   */
  async lockOrder(orderNo: number): Promise<OrderRow | undefined> {
    const q = this.db.selectFrom('sales_order').selectAll().where('order_no', '=', orderNo);
    return (onPostgres(this.db) ? q.forUpdate() : q).executeTakeFirst();
  }

  linesOf(orderNo: number): Promise<OrderLineRow[]> {
    return this.db
      .selectFrom('sales_order_line')
      .selectAll()
      .where('order_no', '=', orderNo)
      .orderBy('line_no')
      .execute();
  }

  vatOf(orderNo: number): Promise<OrderVatRow[]> {
    return this.db
      .selectFrom('sales_order_vat')
      .selectAll()
      .where('order_no', '=', orderNo)
      .orderBy('vat_bp')
      .execute();
  }

  async insertHistory(row: HistoryInsert): Promise<void> {
    await this.db.insertInto('order_history').values(row).execute();
  }

  /** The stored state and the SCN of an order after a move. */
  async setState(orderNo: number, state: string, scn: number, at: string): Promise<void> {
    await this.db
      .updateTable('sales_order')
      .set({ state, scn, updated_at: at })
      .where('order_no', '=', orderNo)
      .execute();
  }

  /** Writes the counters of the lines a move changed (one statement per changed line). */
  async updateCounters(orderNo: number, lines: readonly LineCountersRow[]): Promise<void> {
    for (const { line_no, ...counters } of lines) {
      await this.db
        .updateTable('sales_order_line')
        .set(counters)
        .where('order_no', '=', orderNo)
        .where('line_no', '=', line_no)
        .execute();
    }
  }
}
