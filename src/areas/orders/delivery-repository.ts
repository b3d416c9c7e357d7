import type { Insertable, Kysely, Selectable } from 'kysely';
import type { DB } from '../../kernel/db/schema.ts';
import type { DeliveryLineTable, DeliveryTable } from './tables.ts';

declare module './tables.ts' {
  /** The order's party, copied at delivery (migration 0020_delivery_party): the history pages by it. */
  interface DeliveryTable {
    customer_no: number | null;
    client_no: number | null;
  }
}

export type DeliveryRow = Selectable<DeliveryTable>;
export type NewDeliveryRow = Insertable<DeliveryTable>;
export type DeliveryLineRow = Selectable<DeliveryLineTable>;

/** A delivery line with the order line's article, size and barcode (B2B_GetDeliveryHistory). */
export interface DeliveredLine {
  delivery_no: number;
  line_no: number;
  quantity: number;
  article_no: string;
  sizex: string;
  barcode: string;
}

/** A delivery with its order's reference (B2B_GetDeliveryHistory). */
export type DeliveryWithOrder = DeliveryRow & { weborder: string };

/**
 * Deliveries and their lines (docs/orders.md, "Deliveries"). A delivery is written in its order's
 * move transaction; its cancellation is claimed by one conditional UPDATE (`cancelled` from 0 to 1),
 * so of two cancellations, also concurrent ones, exactly one reverses the delivery.
 */
export class DeliveryRepository {
  readonly db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.db = db;
  }

  async insertDelivery(row: NewDeliveryRow): Promise<number> {
    const inserted = await this.db
      .insertInto('delivery')
      .values(row)
      .returning('delivery_no')
      .executeTakeFirstOrThrow();
    return Number(inserted.delivery_no);
  }

  async insertLines(rows: readonly DeliveryLineRow[]): Promise<void> {
    if (rows.length > 0)
      await this.db
        .insertInto('delivery_line')
        .values([...rows])
        .execute();
  }

  findDelivery(deliveryNo: number): Promise<DeliveryRow | undefined> {
    return this.db
      .selectFrom('delivery')
      .selectAll()
      .where('delivery_no', '=', deliveryNo)
      .executeTakeFirst();
  }

  linesOf(deliveryNo: number): Promise<DeliveryLineRow[]> {
    return this.db
      .selectFrom('delivery_line')
      .selectAll()
      .where('delivery_no', '=', deliveryNo)
      .orderBy('line_no')
      .execute();
  }

  /**
   * The cancellation's claim: marks the delivery cancelled only if it is not yet, and answers its
   * order, or undefined when it was cancelled already (or does not exist). On PostgreSQL a second
   * claimer waits for the first one's transaction and then re-checks `cancelled = 0` on the new row.
   */
  async claimCancel(deliveryNo: number, scn: number, at: string): Promise<number | undefined> {
    const row = await this.db
      .updateTable('delivery')
      .set({ cancelled: 1, scn, updated_at: at })
      .where('delivery_no', '=', deliveryNo)
      .where('cancelled', '=', 0)
      .returning('order_no')
      .executeTakeFirst();
    return row === undefined ? undefined : Number(row.order_no);
  }

  /**
   * A page of deliveries by delivery number (from `from` on, at most `limit`), of one customer or of
   * all, of one order or of all; with their order's reference.
   */
  page(
    filter: { customerNo?: number; orderNo?: number },
    from: number,
    limit: number,
  ): Promise<DeliveryWithOrder[]> {
    return this.db
      .selectFrom('delivery as d')
      .innerJoin('sales_order as o', 'o.order_no', 'd.order_no')
      .selectAll('d')
      .select('o.weborder')
      .where('o.channel', '=', 'B2B')
      .$if(filter.customerNo !== undefined, (q) => q.where('d.customer_no', '=', filter.customerNo!))
      .$if(filter.orderNo !== undefined, (q) => q.where('d.order_no', '=', filter.orderNo!))
      .where('d.delivery_no', '>=', from)
      .orderBy('d.delivery_no')
      .limit(limit)
      .execute();
  }

  /** The lines of the given deliveries with their articles, sizes and barcodes. */
  async linesOfDeliveries(deliveryNos: readonly number[]): Promise<DeliveredLine[]> {
    if (deliveryNos.length === 0) return [];
    const rows = await this.db
      .selectFrom('delivery_line as dl')
      .innerJoin('delivery as d', 'd.delivery_no', 'dl.delivery_no')
      .innerJoin('sales_order_line as l', (j) =>
        j.onRef('l.order_no', '=', 'd.order_no').onRef('l.line_no', '=', 'dl.line_no'),
      )
      .select(['dl.delivery_no', 'dl.line_no', 'dl.quantity', 'l.article_no', 'l.sizex', 'l.barcode'])
      .where('dl.delivery_no', 'in', [...deliveryNos])
      .orderBy('dl.delivery_no')
      .orderBy('dl.line_no')
      .execute();
    return rows.map((r) => ({ ...r, delivery_no: Number(r.delivery_no) }));
  }
}
