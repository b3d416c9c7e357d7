import type { Database } from '../../kernel/db/database.ts';
import { type DeliveredLineRow, InvoicingRepository } from './invoicing-repository.ts';

/** A delivered piece count that may be invoiced: a delivery line less what came back of it. */
export interface InvoiceableLine {
  deliveryNo: number;
  /** The delivery line's (and the order line's) number. */
  lineNo: number;
  /** YYYY-MM-DD of the delivery. */
  deliveryDate: string;
  deliveryReference: string | null;
  orderNo: number;
  /** The customer's own reference of the order (WEBORDER). */
  customerReference: string;
  currency: string;
  articleNo: string;
  sizex: string;
  barcode: string;
  /** Pieces this delivery shipped. */
  delivered: number;
  /** Of these, pieces not returned (at least 1; a line all of whose pieces came back is left out). */
  quantity: number;
  /** Net price of one piece, minor units (wholesale prices exclude VAT). */
  unitPrice: number;
  /** The order line's discount, basis points. */
  discountBp: number;
  vatBp: number;
}

/**
 * What billing reads of deliveries (docs/billing-issuing.md, "From deliveries"): a customer's
 * delivered lines not returned, with everything an invoice line needs.
 *
 * Returns are counted per order line (`returned`), not per delivery: the returned pieces of an
 * order line are taken off its deliveries newest first (goods come back from the latest
 * shipments), so an order line delivered 5 + 3 with 2 returned gives 5 + 1. Which of these are
 * already invoiced is billing's business (its own table), not asked here.
 */
export class InvoicingReadService {
  readonly #read: InvoicingRepository;

  constructor(database: Database) {
    this.#read = new InvoicingRepository(database.db);
  }

  /** The customer's delivered, not returned lines, of all its deliveries or of the ones given. */
  async deliveredNotReturned(
    customerNo: number,
    deliveryNos?: readonly number[],
  ): Promise<InvoiceableLine[]> {
    const lines = notReturned(await this.#read.deliveredLines(customerNo));
    if (!deliveryNos) return lines;
    const wanted = new Set(deliveryNos);
    return lines.filter((l) => wanted.has(l.deliveryNo));
  }

  /** Customers with deliveries (not cancelled), a page by customer number after `afterCustomer`. */
  customersWithDeliveries(afterCustomer: number, limit: number): Promise<number[]> {
    return this.#read.customersWithDeliveries(afterCustomer, limit);
  }
}

/** The rows less their order line's returned pieces, taken off the newest deliveries first. */
export function notReturned(rows: readonly DeliveredLineRow[]): InvoiceableLine[] {
  const returnedLeft = new Map<string, number>();
  const quantities = new Array<number>(rows.length);
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i] as DeliveredLineRow;
    const key = `${row.order_no}/${row.line_no}`;
    const left = returnedLeft.get(key) ?? Number(row.returned);
    const taken = Math.min(left, row.quantity);
    returnedLeft.set(key, left - taken);
    quantities[i] = row.quantity - taken;
  }
  const out: InvoiceableLine[] = [];
  rows.forEach((row, i) => {
    const quantity = quantities[i] as number;
    if (quantity < 1) return;
    out.push({
      deliveryNo: row.delivery_no,
      lineNo: row.line_no,
      deliveryDate: row.delivered_at.slice(0, 10),
      deliveryReference: row.delivery_reference,
      orderNo: row.order_no,
      customerReference: row.weborder,
      currency: row.currency,
      articleNo: row.article_no,
      sizex: row.sizex,
      barcode: row.barcode,
      delivered: row.quantity,
      quantity,
      unitPrice: row.unit_price,
      discountBp: row.discount_bp,
      vatBp: row.vat_bp,
    });
  });
  return out;
}
