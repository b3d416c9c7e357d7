import type { Database } from '../../kernel/db/database.ts';
import { inWriteTransaction } from '../../kernel/db/unit-of-work.ts';
import { ValidationError } from '../../kernel/errors.ts';
import type { Services } from '../../kernel/services.ts';
import { AFTER_SALES_ERRORS } from './after-sales-errors.ts';
import { perLine } from './delivery-service.ts';
import { ORDERS_ERRORS } from './errors.ts';
import { lockOrderOf, type OrderParty, ownedBy } from './move-core.ts';
import { OrderRepository, type OrderRow } from './order-repository.ts';
import type { Settlement } from './order-settlement.ts';
import { ReturnRepository } from './return-repository.ts';
import { type LineCounters, receiveReturn } from './rules/line-counters.ts';
import { ORDER_RULE_ERRORS } from './rules/refusals.ts';

/** A stock location as the stock area answers it. */
type Location = Awaited<ReturnType<Services['stock']['locations']['location']>>;

/** How the goods get to the return location: handed in at a shop, or sent to the warehouse. */
export type ReturnHow = 'BRING_TO_SHOP' | 'SEND_TO_WAREHOUSE';

export interface ReturnRequest {
  orderNo: number;
  party: OrderParty;
  lines: readonly { line: number; quantity: number }[];
  /** A location serving retail where the client hands the goods in; default: see `returnLocation`. */
  location?: string;
  reason: string;
  reference?: string;
  /** The JSON pointer of the request's root, for errors. */
  pointer: string;
}

export interface Authorised {
  returnNo: number;
  orderNo: number;
  weborder: string;
  location: Location;
  how: ReturnHow;
  lines: { line: number; quantity: number; articleNo: string; sizex: string; barcode: string }[];
}

export interface Received {
  returnNo: number;
  orderNo: number;
  locationCode: string;
  lines: { line: number; quantity: number }[];
  scn: number;
  /** A web order's refund of what tenders paid for the pieces, and its bonus card's change. */
  refund?: Settlement;
}

/**
 * Returns (docs/orders.md, "Returns"): an authorisation (B2C_GetReturnLocation) names delivered
 * pieces that are neither returned nor authorised already and where they go back; its receipt by the
 * back office puts them on hand at that location and counts them on the order lines (`returned`),
 * once: the conditional UPDATE from AUTHORISED to RECEIVED claims it.
 */
export class ReturnService {
  readonly database: Database;
  readonly all: Services;
  readonly now: () => Date;

  constructor(database: Database, all: Services, now: () => Date = () => new Date()) {
    this.database = database;
    this.all = all;
    this.now = now;
  }

  /** Authorises a return of delivered pieces; RETURN_OVER_DELIVERED past what is still out with the party. */
  async authorise(request: ReturnRequest): Promise<Authorised> {
    const before = await new OrderRepository(this.database.db).findOrder(request.orderNo);
    if (!before || !ownedBy(before, request.party)) {
      throw ORDERS_ERRORS.ORDER_NOT_FOUND(`No order ${request.orderNo}.`);
    }
    // Read before the write transaction (on SQLite a read on another connection would wait for it).
    const { location, how } = await this.#returnLocation(before, request);
    return inWriteTransaction(this.database, async (uow) => {
      const { order, lines } = await lockOrderOf(uow, request.orderNo, request.party);
      const repo = new ReturnRepository(uow.db);
      const quantities = perLine(lines.length, request.lines, `${request.pointer}/LINES`);
      const authorised = await repo.openAuthorised(order.order_no);
      for (const [i, l] of lines.entries()) {
        const asked = quantities[i]!;
        const out = l.delivered - l.returned - (authorised.get(l.line_no) ?? 0);
        if (asked > out) {
          throw AFTER_SALES_ERRORS.RETURN_OVER_DELIVERED(
            `Line ${l.line_no}: ${out} delivered pieces may still be returned, not ${asked}.`,
          );
        }
      }
      const scn = await uow.stamp();
      const at = this.now().toISOString();
      const returnNo = await repo.insertReturn({
        order_no: order.order_no,
        location_code: location.code,
        state: 'AUTHORISED',
        reason: request.reason,
        reference: request.reference ?? null,
        scn,
        created_at: at,
        updated_at: at,
      });
      const named = lines.flatMap((l, i) =>
        quantities[i]! > 0
          ? [
              {
                line: l.line_no,
                quantity: quantities[i]!,
                articleNo: l.article_no,
                sizex: l.sizex,
                barcode: l.barcode,
              },
            ]
          : [],
      );
      await repo.insertLines(
        named.map((l) => ({ return_no: returnNo, line_no: l.line, quantity: l.quantity, received: 0 })),
      );
      return { returnNo, orderNo: order.order_no, weborder: order.weborder, location, how, lines: named };
    });
  }

  /**
   * The back office receives a return in full: stock on hand at its location, `returned` on its
   * order lines, once. Received already: RETURN_NOT_AUTHORISED (409), also for concurrent receipts.
   */
  receive(returnNo: number): Promise<Received> {
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new ReturnRepository(uow.db);
      const scn = await uow.stamp();
      const at = this.now().toISOString();
      const claimed = await repo.claimReceipt(returnNo, scn, at);
      if (claimed === undefined) {
        if (!(await repo.findReturn(returnNo)))
          throw ORDERS_ERRORS.RETURN_NOT_FOUND(`No return ${returnNo}.`);
        throw AFTER_SALES_ERRORS.RETURN_NOT_AUTHORISED(`Return ${returnNo} was received already.`);
      }
      const { order, lines } = await lockOrderOf(uow, claimed.order_no, undefined);
      const back = await repo.linesOf(returnNo);
      const orders = new OrderRepository(uow.db);
      const counters: (LineCounters & { line_no: number })[] = [];
      for (const r of back) {
        const line = lines.find((l) => l.line_no === r.line_no)!;
        const result = receiveReturn(line, r.quantity);
        if (!result.ok) throw ORDER_RULE_ERRORS[result.code](`Line ${r.line_no}: ${result.detail}`);
        counters.push({ line_no: r.line_no, ...result.line });
        await this.all.stock.ledger.receiveIn(uow, {
          locationCode: claimed.location_code,
          articleNo: line.article_no,
          sizex: line.sizex,
          quantity: r.quantity,
          reference: `RETURN ${returnNo}`,
        });
      }
      await orders.updateCounters(
        order.order_no,
        counters.map(({ line_no, cancelled, reserved, delivered, returned }) => ({
          line_no,
          cancelled,
          reserved,
          delivered,
          returned,
        })),
      );
      await repo.markLinesReceived(returnNo);
      const after = lines.map((l) => {
        const c = counters.find((x) => x.line_no === l.line_no);
        return c ? { ...l, ...c } : l;
      });
      const refund = await this.all.orders.settlement.settle(uow, order, lines, after, {
        kind: 'RETURN',
        returnNo,
      });
      // Not a move (the state stays): the order's SCN says its lines changed.
      await orders.setState(order.order_no, order.state, scn, at);
      return {
        returnNo,
        orderNo: order.order_no,
        locationCode: claimed.location_code,
        lines: back.map((r) => ({ line: r.line_no, quantity: r.quantity })),
        scn,
        ...(refund ? { refund } : {}),
      };
    });
  }

  /**
   * Where the goods go back: the location asked for, when it is an active location serving retail
   * (a shop to hand them in, or a warehouse to send them to); else the shop the order was picked
   * up at, when it is one; else the order's location (sent by post).
   */
  async #returnLocation(
    order: OrderRow,
    request: ReturnRequest,
  ): Promise<{ location: Location; how: ReturnHow }> {
    const locations = this.all.stock.locations;
    const how = (l: Location): ReturnHow => (l.kind === 'SHOP' ? 'BRING_TO_SHOP' : 'SEND_TO_WAREHOUSE');
    const usable = (l: Location) => l.active && l.servesRetail;
    if (request.location !== undefined) {
      const asked = await locations.location(request.location).catch(() => undefined);
      if (!asked || !usable(asked)) {
        throw new ValidationError([
          {
            name: `${request.pointer}/LOCATION`,
            message: `no active location "${request.location}" serving retail takes returns`,
          },
        ]);
      }
      return { location: asked, how: how(asked) };
    }
    if (order.pickup_point) {
      const shop = await locations.location(order.pickup_point).catch(() => undefined);
      if (shop && usable(shop)) return { location: shop, how: how(shop) };
    }
    const home = await locations.location(order.location_code);
    return { location: home, how: how(home) };
  }
}
