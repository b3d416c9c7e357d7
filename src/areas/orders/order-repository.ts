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
 * The orders' writes and the reads of one order (docs/orders.md). The order row is the claim of its
 * party's reference: inserted first in its transaction, with ON CONFLICT DO NOTHING, so a repeat of
 * the same (party, WEBORDER), also a concurrent one, inserts nothing and finds the first order
 * (PostgreSQL waits for the first inserter's transaction to end before it decides).
 */
export class OrderRepository {
  readonly db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.db = db;
  }

  /** Inserts the order unless its party has an order with that reference; its number, or undefined. */
  async claimOrder(row: NewOrderRow): Promise<number | undefined> {
    const target =
      row.channel === 'B2B' ? (['customer_no', 'weborder'] as const) : (['client_no', 'weborder'] as const);
    const inserted = await this.db
      .insertInto('sales_order')
      .values(row)
      .onConflict((oc) => oc.columns([...target]).doNothing())
      .returning('order_no')
      .executeTakeFirst();
    return inserted === undefined ? undefined : Number(inserted.order_no);
  }

  /** The order of a party with that reference (the channel says which party), or undefined. */
  orderByReference(channel: 'B2B' | 'B2C', partyNo: number, weborder: string): Promise<OrderRow | undefined> {
    return this.db
      .selectFrom('sales_order')
      .selectAll()
      .where(channel === 'B2B' ? 'customer_no' : 'client_no', '=', partyNo)
      .where('weborder', '=', weborder)
      .executeTakeFirst();
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

  async insertLines(rows: readonly OrderLineRow[]): Promise<void> {
    if (rows.length > 0)
      await this.db
        .insertInto('sales_order_line')
        .values([...rows])
        .execute();
  }

  async insertVat(rows: readonly OrderVatRow[]): Promise<void> {
    if (rows.length > 0)
      await this.db
        .insertInto('sales_order_vat')
        .values([...rows])
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
