import type { Database } from '../../kernel/db/database.ts';
import { currentScn, inWriteTransaction } from '../../kernel/db/unit-of-work.ts';
import { type FieldError, ValidationError } from '../../kernel/errors.ts';
import { splitPage } from '../../kernel/feed-page.ts';
import type { Services } from '../../kernel/services.ts';
import { AFTER_SALES_ERRORS } from './after-sales-errors.ts';
import { type DeliveredLine, DeliveryRepository, type DeliveryWithOrder } from './delivery-repository.ts';
import { ORDERS_ERRORS } from './errors.ts';
import { allOpen, applyMove, lockOrderOf, type MoveResult } from './move-core.ts';
import type { Actor } from './rules/lifecycle.ts';

/** What to deliver: pieces per order line, or every open piece (`lines` left out). */
export interface DeliveryRequest {
  lines?: readonly { line: number; quantity: number }[];
  /** The delivery note, carrier reference or the like; kept on the delivery. */
  reference?: string;
  /** The JSON pointer of the request's lines, for errors (default `/LINES`). */
  pointer?: string;
}

export interface Delivered extends MoveResult {
  deliveryNo: number;
  /** The pieces delivered (or taken back) per order line, only lines with any. */
  delivered: { line: number; quantity: number }[];
}

/** One page of a delivery history. */
export interface DeliveryPage {
  scn: number;
  nextOffset: number | null;
  deliveries: Array<DeliveryWithOrder & { lines: DeliveredLine[] }>;
}

/**
 * Deliveries (docs/orders.md, "Deliveries"): the back office delivers some or all of an order's
 * open quantity from the order's location, as one lifecycle move (`deliver`) that also writes the
 * delivery with its own number and its lines; stock moves by the delivered pieces only. A delivery
 * is cancelled (the goods did not leave) once: the conditional UPDATE of `delivery.cancelled`
 * claims it, and only the claimer takes the pieces back (`cancelDelivery`).
 */
export class DeliveryService {
  readonly database: Database;
  readonly all: Services;
  readonly now: () => Date;

  constructor(database: Database, all: Services, now: () => Date = () => new Date()) {
    this.database = database;
    this.all = all;
    this.now = now;
  }

  /** Delivers from the order's location; ORDER_LINE_OVER_DELIVERED beyond a line's open quantity. */
  deliver(orderNo: number, request: DeliveryRequest = {}, actor: Actor = 'BACK_OFFICE'): Promise<Delivered> {
    return inWriteTransaction(this.database, async (uow) => {
      const locked = await lockOrderOf(uow, orderNo, undefined);
      const quantities = request.lines
        ? perLine(locked.lines.length, request.lines, request.pointer ?? '/LINES')
        : allOpen(locked.lines);
      const scn = await uow.stamp();
      const at = this.now().toISOString();
      const repo = new DeliveryRepository(uow.db);
      const { order } = locked;
      const deliveryNo = await repo.insertDelivery({
        order_no: order.order_no,
        customer_no: order.customer_no,
        client_no: order.client_no,
        location_code: order.location_code,
        reference: request.reference ?? null,
        cancelled: 0,
        scn,
        created_at: at,
        updated_at: at,
      });
      const moved = await applyMove(
        uow,
        this.all,
        this.now,
        locked,
        { name: 'deliver', quantities },
        actor,
        `DELIVERY ${deliveryNo}`,
      );
      const delivered = linesOf(quantities);
      await repo.insertLines(
        delivered.map((d) => ({ delivery_no: deliveryNo, line_no: d.line, quantity: d.quantity })),
      );
      return { ...moved, deliveryNo, delivered };
    });
  }

  /**
   * Cancels a delivery as a correction (the goods did not leave): its pieces are open on their lines
   * again and reserved again at the location, once. A delivery cancelled already is
   * DELIVERY_ALREADY_CANCELLED (409), also when two cancellations run at the same time.
   */
  cancel(deliveryNo: number, actor: Actor = 'BACK_OFFICE'): Promise<Delivered> {
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new DeliveryRepository(uow.db);
      const scn = await uow.stamp();
      const orderNo = await repo.claimCancel(deliveryNo, scn, this.now().toISOString());
      if (orderNo === undefined) {
        if (!(await repo.findDelivery(deliveryNo))) {
          throw ORDERS_ERRORS.DELIVERY_NOT_FOUND(`No delivery ${deliveryNo}.`);
        }
        throw AFTER_SALES_ERRORS.DELIVERY_ALREADY_CANCELLED(`Delivery ${deliveryNo} was cancelled already.`);
      }
      const locked = await lockOrderOf(uow, orderNo, undefined);
      const taken = (await repo.linesOf(deliveryNo)).map((l) => ({ line: l.line_no, quantity: l.quantity }));
      const quantities = perLine(locked.lines.length, taken, '/LINES');
      const moved = await applyMove(
        uow,
        this.all,
        this.now,
        locked,
        { name: 'cancelDelivery', quantities },
        actor,
        `DELIVERY ${deliveryNo} CANCELLED`,
      );
      return { ...moved, deliveryNo, delivered: taken };
    });
  }

  /**
   * Deliveries by delivery number from `offset` on (a position: NEXTOFFSET is the number of the first
   * one not shown), of one customer or all, of one order or all, with their lines. The SCN is read
   * first, so a client polling with it misses nothing committed after.
   */
  async history(
    filter: { customerNo?: number; orderNo?: number },
    page: { offset: number; limit: number },
  ): Promise<DeliveryPage> {
    const db = this.database.db;
    const scn = await currentScn(db);
    const repo = new DeliveryRepository(db);
    const rows = await repo.page(filter, page.offset, page.limit + 1);
    const { rows: shown, nextOffset } = splitPage(rows, page, (r) => Number(r.delivery_no));
    const lines = await repo.linesOfDeliveries(shown.map((r) => Number(r.delivery_no)));
    return {
      scn,
      nextOffset,
      deliveries: shown.map((d) => ({
        ...d,
        lines: lines.filter((l) => l.delivery_no === Number(d.delivery_no)),
      })),
    };
  }
}

/** Pieces per order line (1-based `line`) as the rules take them; unknown or repeated lines are a 400. */
export function perLine(
  lineCount: number,
  lines: readonly { line: number; quantity: number }[],
  pointer: string,
): number[] {
  const quantities = new Array<number>(lineCount).fill(0);
  const errors: FieldError[] = [];
  for (const [i, { line, quantity }] of lines.entries()) {
    if (!Number.isSafeInteger(line) || line < 1 || line > lineCount) {
      errors.push({ name: `${pointer}/${i}/LINE`, message: `the order has lines 1 to ${lineCount}` });
    } else if (quantities[line - 1]! > 0) {
      errors.push({ name: `${pointer}/${i}/LINE`, message: `line ${line} is named twice` });
    } else {
      quantities[line - 1] = quantity;
    }
  }
  if (errors.length > 0) throw new ValidationError(errors);
  return quantities;
}

function linesOf(quantities: readonly number[]): { line: number; quantity: number }[] {
  return quantities.flatMap((quantity, i) => (quantity > 0 ? [{ line: i + 1, quantity }] : []));
}
