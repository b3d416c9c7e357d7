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
   * Every line of the customer's deliveries that are not cancelled, in delivery order (an index
   * range on delivery (customer_no, delivery_no)), with the order line it delivered.
   */
  async deliveredLines(customerNo: number): Promise<DeliveredLineRow[]> {
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
      ])
      .where('d.customer_no', '=', customerNo)
      .where('d.cancelled', '=', 0)
      .orderBy('d.delivery_no')
      .orderBy('dl.line_no')
      .execute();
    return rows.map((r) => ({
      ...r,
      delivery_no: Number(r.delivery_no),
      order_no: Number(r.order_no),
      unit_price: Number(r.unit_price),
    }));
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
