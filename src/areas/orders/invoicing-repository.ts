import type { Kysely } from 'kysely';
import type { DB } from '../../kernel/db/schema.ts';

/** One delivered line of a wholesale delivery with what an invoice needs from its order line. */
export interface DeliveredLineRow {
  delivery_no: number;
  line_no: number;
  /** Pieces of this delivery. */
  quantity: number;
  delivered_at: string;
  delivery_reference: string | null;
  order_no: number;
  weborder: string;
  currency: string;
  article_no: string;
  sizex: string;
  barcode: string;
  unit_price: number;
  discount_bp: number;
  vat_bp: number;
  /** The order line's counter of returned pieces (returns are counted per order line). */
  returned: number;
  /** 1: the delivery was cancelled (the goods did not leave); 0: it stands. */
  cancelled: number;
}

/** A received return's pieces of one order line (the reason written on a credit note). */
export interface ReceivedReturnRow {
  order_no: number;
  line_no: number;
  return_no: number;
  quantity: number;
}

/**
 * The reads billing makes of deliveries (docs/billing-issuing.md): a customer's delivered lines
 * with their order line's prices, and the customers that have deliveries. Billing owns none of
 * these tables; it asks through the orders services (OrdersServices.invoicing).
 */
export class InvoicingRepository {
  readonly db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.db = db;
  }

  /**
   * Every line of the customer's deliveries, in delivery order (an index range on delivery
   * (customer_no, delivery_no)), with the order line it delivered; cancelled deliveries only when
   * asked (billing credits what it invoiced of them).
   */
  async deliveredLines(customerNo: number, withCancelled = false): Promise<DeliveredLineRow[]> {
    const rows = await this.db
      .selectFrom('delivery as d')
      .innerJoin('delivery_line as dl', 'dl.delivery_no', 'd.delivery_no')
      .innerJoin('sales_order as o', 'o.order_no', 'd.order_no')
      .innerJoin('sales_order_line as l', (j) =>
        j.onRef('l.order_no', '=', 'd.order_no').onRef('l.line_no', '=', 'dl.line_no'),
      )
      .select([
        'd.delivery_no',
        'dl.line_no',
        'dl.quantity',
        'd.created_at as delivered_at',
        'd.reference as delivery_reference',
        'd.order_no',
        'o.weborder',
        'o.currency',
        'l.article_no',
        'l.sizex',
        'l.barcode',
        'l.unit_price',
        'l.discount_bp',
        'l.vat_bp',
        'l.returned',
        'd.cancelled',
      ])
      .where('d.customer_no', '=', customerNo)
      .$if(!withCancelled, (q) => q.where('d.cancelled', '=', 0))
      .orderBy('d.delivery_no')
      .orderBy('dl.line_no')
      .execute();
    return rows.map((r) => ({
      ...r,
      delivery_no: Number(r.delivery_no),
      order_no: Number(r.order_no),
      unit_price: Number(r.unit_price),
      cancelled: Number(r.cancelled),
    }));
  }

  /**
   * The received returns of these orders, per order line (an index range on order_return
   * (order_no, return_no) per order), oldest first.
   */
  async receivedReturns(orderNos: readonly number[]): Promise<ReceivedReturnRow[]> {
    const out: ReceivedReturnRow[] = [];
    const distinct = [...new Set(orderNos)];
    for (let i = 0; i < distinct.length; i += 500) {
      const rows = await this.db
        .selectFrom('order_return as r')
        .innerJoin('order_return_line as rl', 'rl.return_no', 'r.return_no')
        .select(['r.order_no', 'rl.line_no', 'r.return_no', 'rl.quantity'])
        .where('r.order_no', 'in', distinct.slice(i, i + 500))
        .where('r.state', '=', 'RECEIVED')
        .orderBy('r.order_no')
        .orderBy('r.return_no')
        .orderBy('rl.line_no')
        .execute();
      for (const r of rows)
        out.push({
          order_no: Number(r.order_no),
          line_no: r.line_no,
          return_no: Number(r.return_no),
          quantity: r.quantity,
        });
    }
    return out;
  }

  /**
   * Customers with a delivery that is not cancelled, by customer number after `afterCustomer`, at
   * most `limit` (the batch run's pages: a distinct walk of the index delivery (customer_no, ...)).
   */
  async customersWithDeliveries(afterCustomer: number, limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('delivery')
      .select('customer_no')
      .distinct()
      .where('customer_no', '>', afterCustomer)
      .where('cancelled', '=', 0)
      .orderBy('customer_no')
      .limit(limit)
      .execute();
    return rows.map((r) => Number(r.customer_no));
  }
}
