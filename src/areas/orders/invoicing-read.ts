import type { Kysely } from 'kysely';
import type { Database } from '../../kernel/db/database.ts';
import type { DB } from '../../kernel/db/schema.ts';
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

/** A delivery line as billing's credit run sees it: `quantity` is what is still out with the customer. */
export interface DeliveryLineOut extends InvoiceableLine {
  /** The delivery was cancelled (the goods did not leave): nothing of it is out (`quantity` 0). */
  cancelled: boolean;
  /** The received returns of its order line (what a credit note of returned pieces names). */
  returnNos: number[];
}

/**
 * Pieces of delivery lines that billing has accounted for already ("delivery/line" → pieces): of
 * an invoiced delivery line, the pieces delivered but not billed (delivered − invoiced + credited).
 */
export type Accounted = ReadonlyMap<string, number>;

/**
 * How billing asks: what it has accounted for (asked only when a line has returned pieces: without
 * returns it changes nothing, and billing need not read it), and the handle to read with (its
 * transaction).
 */
export interface InvoicingBasis {
  accounted?: () => Promise<Accounted>;
  db?: Kysely<DB>;
}

/** The rows' accounted pieces, asked of billing only when a row has returned pieces. */
async function accountedFor(
  rows: readonly DeliveredLineRow[],
  basis: InvoicingBasis,
): Promise<Accounted | undefined> {
  return basis.accounted && rows.some((r) => Number(r.returned) > 0) ? basis.accounted() : undefined;
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

  /**
   * The customer's delivered, not returned lines, of all its deliveries or of the ones given.
   * `basis.accounted` (billing's pieces not billed of invoiced lines) takes returns first, so a
   * return already credited (or left off an invoice) is not taken off a later delivery again;
   * `basis.db` reads in the caller's transaction.
   */
  async deliveredNotReturned(
    customerNo: number,
    deliveryNos?: readonly number[],
    basis: InvoicingBasis = {},
  ): Promise<InvoiceableLine[]> {
    const read = basis.db ? new InvoicingRepository(basis.db) : this.#read;
    const rows = await read.deliveredLines(customerNo);
    const lines = notReturned(rows, await accountedFor(rows, basis));
    if (!deliveryNos) return lines;
    const wanted = new Set(deliveryNos);
    return lines.filter((l) => wanted.has(l.deliveryNo));
  }

  /**
   * Every delivery line of the customer, cancelled ones too, with the pieces still out with it
   * (`quantity`: 0 for a cancelled delivery or a line all of whose pieces came back): what
   * billing's credit run compares with what it invoiced (docs/billing-issuing.md, "Credit notes
   * from returns and cancellations").
   */
  async linesOut(customerNo: number, basis: InvoicingBasis = {}): Promise<DeliveryLineOut[]> {
    const read = basis.db ? new InvoicingRepository(basis.db) : this.#read;
    const rows = await read.deliveredLines(customerNo, true);
    // The returns' numbers only name a credit's reason: not asked when nothing came back.
    const back = rows.filter((r) => Number(r.returned) > 0).map((r) => r.order_no);
    const returns = back.length > 0 ? await read.receivedReturns(back) : [];
    const returnNos = new Map<string, number[]>();
    for (const r of returns) {
      const key = `${r.order_no}/${r.line_no}`;
      returnNos.set(key, [...(returnNos.get(key) ?? []), r.return_no]);
    }
    const out = piecesOut(rows, await accountedFor(rows, basis));
    return rows.map((row, i) => ({
      ...lineOf(row, out[i] as number),
      cancelled: row.cancelled !== 0,
      returnNos: returnNos.get(`${row.order_no}/${row.line_no}`) ?? [],
    }));
  }

  /** Customers with deliveries (not cancelled), a page by customer number after `afterCustomer`. */
  customersWithDeliveries(afterCustomer: number, limit: number): Promise<number[]> {
    return this.#read.customersWithDeliveries(afterCustomer, limit);
  }
}

/**
 * The pieces of each row still out with the customer: 0 for a cancelled delivery; else the row
 * less the returned pieces of its order line matched to it. Returns are matched first to the
 * pieces billing accounted for already on a line (left off its invoice or credited: those
 * returns are settled), newest delivery first, then what is left newest first (goods come back
 * from the latest shipments). Without the first step a return credited on an invoiced delivery
 * would be taken off a later delivery of the same order line again (billed twice less).
 */
export function piecesOut(rows: readonly DeliveredLineRow[], accounted: Accounted = new Map()): number[] {
  const out = rows.map((r) => (r.cancelled ? 0 : r.quantity));
  const returnedLeft = new Map<string, number>();
  const match = (limit: (row: DeliveredLineRow, i: number) => number) => {
    for (let i = rows.length - 1; i >= 0; i--) {
      const row = rows[i] as DeliveredLineRow;
      if (row.cancelled) continue;
      const key = `${row.order_no}/${row.line_no}`;
      const left = returnedLeft.get(key) ?? Number(row.returned);
      const taken = Math.min(left, limit(row, i), out[i] as number);
      returnedLeft.set(key, left - taken);
      out[i] = (out[i] as number) - taken;
    }
  };
  if (accounted.size > 0) match((row) => accounted.get(`${row.delivery_no}/${row.line_no}`) ?? 0);
  match(() => Number.POSITIVE_INFINITY);
  return out;
}

/** The rows less their order line's returned pieces (piecesOut), lines with none out left out. */
export function notReturned(rows: readonly DeliveredLineRow[], accounted?: Accounted): InvoiceableLine[] {
  const quantities = piecesOut(rows, accounted);
  const out: InvoiceableLine[] = [];
  rows.forEach((row, i) => {
    const quantity = quantities[i] as number;
    if (quantity < 1 || row.cancelled) return;
    out.push(lineOf(row, quantity));
  });
  return out;
}

function lineOf(row: DeliveredLineRow, quantity: number): InvoiceableLine {
  return {
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
  };
}
