import type { UnitOfWork } from '../../kernel/db/unit-of-work.ts';
import type { Services } from '../../kernel/services.ts';
import { ORDERS_ERRORS } from './errors.ts';
import { type OrderLineRow, OrderRepository, type OrderRow } from './order-repository.ts';
import { type Settlement, settlementToWire } from './order-settlement.ts';
import { type ActionName, type Actor, type LineStock, move, type OrderAction } from './rules/lifecycle.ts';
import { derivedState, type LineCounters, openQuantity } from './rules/line-counters.ts';
import { ORDER_RULE_ERRORS } from './rules/refusals.ts';
import type { OrderState, StoredState } from './rules/states.ts';

/**
 * The one way an order moves (docs/orders.md, "Moves"), shared by the moves, the deliveries and
 * the returns: lock the order, read its lines, ask the pure rules, and write what they answer.
 */

/** A line of stock work as the stock area's reservations take it. */
type StockLine = Parameters<Services['stock']['reservations']['releaseAllIn']>[1][number];

/** Whose order a call may move: a wholesale customer's, a retail client's, or any (the back office). */
export type OrderParty = { customerNo: number } | { clientNo: number } | undefined;

/** An order locked for a move, with its lines. */
export interface LockedOrder {
  order: OrderRow;
  lines: OrderLineRow[];
}

/** What an accepted move did: the order's reported state before and after, and its lines now. */
export interface MoveResult {
  orderNo: number;
  weborder: string;
  action: ActionName;
  from: OrderState;
  state: OrderState;
  scn: number;
  lines: OrderLineRow[];
  /** What the move did to a web order's tenders and bonus card (none: undefined). */
  refund?: Settlement;
}

/** Whether `party` may see the order (undefined: the back office, any order). */
export function ownedBy(order: OrderRow, party: OrderParty): boolean {
  if (party === undefined) return true;
  if ('customerNo' in party) return order.channel === 'B2B' && Number(order.customer_no) === party.customerNo;
  return order.channel === 'B2C' && Number(order.client_no) === party.clientNo;
}

/** The order held until the transaction ends, with its lines; ORDER_NOT_FOUND when the party may not see it. */
export async function lockOrderOf(uow: UnitOfWork, orderNo: number, party: OrderParty): Promise<LockedOrder> {
  const repo = new OrderRepository(uow.db);
  const order = await repo.lockOrder(orderNo);
  if (!order || !ownedBy(order, party)) throw ORDERS_ERRORS.ORDER_NOT_FOUND(`No order ${orderNo}.`);
  const lines = (await repo.linesOf(orderNo)).map(numbers);
  return { order: { ...order, order_no: Number(order.order_no) }, lines };
}

/** The counters as numbers (PostgreSQL answers bigint columns as strings). */
function numbers(line: OrderLineRow): OrderLineRow {
  return { ...line, order_no: Number(line.order_no) };
}

const countersOf = (l: OrderLineRow): LineCounters => ({
  ordered: l.ordered,
  cancelled: l.cancelled,
  reserved: l.reserved,
  delivered: l.delivered,
  returned: l.returned,
});

/**
 * The move of a locked order: asks the rules, and if they accept writes what they answer (stock,
 * counters, stored state, one history row with the SCN); a refusal is thrown as its 409 with
 * nothing written. `reference` names the cause in the stock ledger and the history row.
 */
export async function applyMove(
  uow: UnitOfWork,
  all: Services,
  now: () => Date,
  locked: LockedOrder,
  action: OrderAction,
  actor: Actor,
  reference: string,
): Promise<MoveResult> {
  const { order, lines } = locked;
  const moved = move({ state: order.state as StoredState, lines: lines.map(countersOf) }, action, actor);
  if (!moved.ok) throw ORDER_RULE_ERRORS[moved.code](moved.detail);
  await applyStock(uow, all, order, lines, moved.stock, reference);
  const repo = new OrderRepository(uow.db);
  const after = lines.map((l, i) => ({ ...l, ...moved.order.lines[i]! }));
  const changed = after.filter(
    (l, i) => JSON.stringify(countersOf(l)) !== JSON.stringify(countersOf(lines[i]!)),
  );
  await repo.updateCounters(
    order.order_no,
    changed.map((l) => ({
      line_no: l.line_no,
      cancelled: l.cancelled,
      reserved: l.reserved,
      delivered: l.delivered,
      returned: l.returned,
    })),
  );
  const scn = await uow.stamp();
  const at = now().toISOString();
  await repo.setState(order.order_no, moved.order.state, scn, at);
  await repo.insertHistory({
    order_no: order.order_no,
    from_state: moved.history.from,
    to_state: moved.history.to,
    action: moved.history.action,
    actor,
    reference,
    scn,
    at,
  });
  const refund = await all.orders.settlement.settle(uow, order, lines, after, { kind: 'MOVE', scn });
  return {
    orderNo: order.order_no,
    weborder: order.weborder,
    action: action.name,
    from: derivedState(lines.map(countersOf), order.state as StoredState),
    state: moved.reported,
    scn,
    lines: after,
    ...(refund ? { refund } : {}),
  };
}

/**
 * What stock does for a move, line by line at the order's location: released reservations given
 * back, deliveries shipped out of the reservation and, for a back-order delivered beyond it, out of
 * what is available on hand; a delivery taken back goes on hand and into the reservation again.
 */
async function applyStock(
  uow: UnitOfWork,
  all: Services,
  order: OrderRow,
  lines: readonly OrderLineRow[],
  stock: readonly LineStock[],
  reference: string,
): Promise<void> {
  const pick = (quantity: (s: LineStock) => number): StockLine[] =>
    lines.flatMap((l, i) => {
      const q = quantity(stock[i]!);
      return q > 0
        ? [
            {
              locationCode: order.location_code,
              articleNo: l.article_no,
              sizex: l.sizex,
              quantity: q,
              reference,
            },
          ]
        : [];
    });
  const reservations = all.stock.reservations;
  await reservations.releaseAllIn(
    uow,
    pick((s) => s.released),
  );
  await reservations.shipAllIn(
    uow,
    pick((s) => s.fromReserved),
  );
  await reservations.shipUnreservedAllIn(
    uow,
    pick((s) => s.delivered - s.fromReserved),
  );
  await reservations.unshipAllIn(
    uow,
    pick((s) => s.restored),
  );
}

/** The open quantity of every line (a delivery of "all open"). */
export function allOpen(lines: readonly OrderLineRow[]): number[] {
  return lines.map((l) => openQuantity(countersOf(l)));
}

/** The wire form of a move's answer (admin routes, B2C_CloseClientOrder). */
export function moveToWire(m: MoveResult) {
  return {
    ORDERNO: m.orderNo,
    WEBORDER: m.weborder,
    ACTION: m.action,
    FROM: m.from,
    STATE: m.state,
    SCN: m.scn,
    LINES: m.lines.map((l) => ({
      LINE: l.line_no,
      ARTICLE: l.article_no,
      SIZEX: l.sizex,
      BARCODE: l.barcode,
      ORDERED: l.ordered,
      CANCELLED: l.cancelled,
      RESERVED: l.reserved,
      DELIVERED: l.delivered,
      RETURNED: l.returned,
      OPEN: openQuantity(countersOf(l)),
    })),
    ...(m.refund ? { REFUND: settlementToWire(m.refund) } : {}),
  };
}
