import {
  cancelOpen,
  deliver,
  derivedState,
  type LineCounters,
  type LineResult,
  openQuantity,
  placeLine,
} from './line-counters.ts';
import { ORDER_RULE_ERRORS, type Refusal, refuse } from './refusals.ts';
import { type OrderState, type StoredState, TERMINAL_STATES } from './states.ts';

/**
 * The order lifecycle as one table (docs/orders.md draws it from this table). Each row is one
 * allowed move: from a reported state, by an action, to a reported state, for the parties named,
 * unless a guard vetoes it. What is not a row is refused with ORDER_MOVE_NOT_ALLOWED, so adding a
 * state or a move is adding rows, and the diagram, the docs table and the tests follow.
 *
 * Rows share an action and a from state when the target depends on the counters (a delivery ends
 * PARTIALLY_DELIVERED or DELIVERED): `move` applies the action to the lines and takes the row
 * whose target is the state the new counters give. Such sibling rows have the same parties and
 * guards (a test checks), so who may and whether it may never depend on the outcome.
 */

/** Who asks: the back office (admin routes, CLI, imports), a wholesale customer, a retail client, or the server itself. */
export type Actor = 'BACK_OFFICE' | 'CUSTOMER' | 'CLIENT' | 'SYSTEM';

export type ActionName =
  | 'place'
  | 'confirm'
  | 'startPicking'
  | 'deliver'
  | 'cancelDelivery'
  | 'close'
  | 'cancel';

/** An action on an existing order, with what it needs besides the order. */
export type OrderAction =
  | { name: 'confirm' | 'startPicking' | 'cancel' }
  /** `cancelRest`: cancel what is still open and close (a partial delivery the party accepts as complete). */
  | { name: 'close'; cancelRest?: boolean }
  /** Pieces to deliver per line, in the order's line order; 0 leaves a line out of the delivery. */
  | { name: 'deliver'; quantities: readonly number[] }
  /**
   * A delivery taken back as a correction (the goods never left): its pieces per line, in the
   * order's line order, are open again and reserved again for their lines (they are on the shelf).
   */
  | { name: 'cancelDelivery'; quantities: readonly number[] };

/** An order as the rules see it: its stored state and its lines' counters. */
export interface Order {
  readonly state: StoredState;
  readonly lines: readonly LineCounters[];
}

/** A guard vetoes a move with its code and a reason, or lets it pass (null). */
interface Guard {
  readonly code: { readonly code: Refusal['code'] };
  /** What it asks, for docs/orders.md. */
  readonly says: string;
  readonly veto: (order: Order, action: OrderAction) => string | null;
}

export interface Move {
  /** null: the move that makes the order. */
  readonly from: OrderState | null;
  readonly action: ActionName;
  readonly to: OrderState;
  readonly actors: readonly Actor[];
  readonly guards: readonly Guard[];
}

const notDelivered = (order: Order) => order.lines.reduce((n, l) => n + (l.delivered - l.returned), 0);
const open = (order: Order) => order.lines.reduce((n, l) => n + openQuantity(l), 0);

const ALL_RETURNED: Guard = {
  code: ORDER_RULE_ERRORS.ORDER_DELIVERED_NOT_RETURNED,
  says: 'everything delivered has come back',
  veto: (order) => {
    const out = notDelivered(order);
    return out === 0 ? null : `${out} delivered pieces have not come back; close the order instead.`;
  },
};

const NOTHING_OPEN: Guard = {
  code: ORDER_RULE_ERRORS.ORDER_HAS_OPEN_QUANTITY,
  says: 'nothing open, or the close cancels the rest',
  veto: (order, action) => {
    const left = open(order);
    if (left === 0 || (action.name === 'close' && action.cancelRest)) return null;
    return `${left} pieces are still open: deliver them, or close cancelling the rest.`;
  },
};

const DELIVERS_SOMETHING: Guard = {
  code: ORDER_RULE_ERRORS.ORDER_DELIVERY_EMPTY,
  says: 'at least one piece is delivered',
  veto: (_order, action) =>
    action.name === 'deliver' && action.quantities.some((q) => q > 0)
      ? null
      : 'The delivery has no piece to deliver.',
};

const TAKES_SOMETHING_BACK: Guard = {
  code: ORDER_RULE_ERRORS.ORDER_DELIVERY_EMPTY,
  says: 'at least one piece is taken back',
  veto: (_order, action) =>
    action.name === 'cancelDelivery' && action.quantities.some((q) => q > 0)
      ? null
      : 'The delivery has no piece to take back.',
};

const PARTY: readonly Actor[] = ['CUSTOMER', 'CLIENT'];
const WAREHOUSE: readonly Actor[] = ['BACK_OFFICE', 'SYSTEM'];
const ANYONE: readonly Actor[] = [...WAREHOUSE, ...PARTY];

/** The lifecycle: every allowed move, one row each. */
export const LIFECYCLE: readonly Move[] = [
  { from: null, action: 'place', to: 'NEW', actors: ['BACK_OFFICE', ...PARTY], guards: [] },
  { from: 'NEW', action: 'confirm', to: 'CONFIRMED', actors: WAREHOUSE, guards: [] },
  { from: 'NEW', action: 'cancel', to: 'CANCELLED', actors: ANYONE, guards: [ALL_RETURNED] },
  { from: 'CONFIRMED', action: 'startPicking', to: 'PICKING', actors: WAREHOUSE, guards: [] },
  { from: 'CONFIRMED', action: 'cancel', to: 'CANCELLED', actors: ANYONE, guards: [ALL_RETURNED] },
  ...deliveries('CONFIRMED'),
  { from: 'PICKING', action: 'cancel', to: 'CANCELLED', actors: WAREHOUSE, guards: [ALL_RETURNED] },
  ...deliveries('PICKING'),
  ...deliveries('PARTIALLY_DELIVERED'),
  { from: 'PARTIALLY_DELIVERED', action: 'close', to: 'CLOSED', actors: ANYONE, guards: [NOTHING_OPEN] },
  {
    from: 'PARTIALLY_DELIVERED',
    action: 'cancel',
    to: 'CANCELLED',
    actors: ['BACK_OFFICE'],
    guards: [ALL_RETURNED],
  },
  { from: 'DELIVERED', action: 'close', to: 'CLOSED', actors: ANYONE, guards: [NOTHING_OPEN] },
  { from: 'DELIVERED', action: 'cancel', to: 'CANCELLED', actors: ['BACK_OFFICE'], guards: [ALL_RETURNED] },
  ...deliveryCancels('PARTIALLY_DELIVERED'),
  ...deliveryCancels('DELIVERED'),
];

function deliveries(from: OrderState): Move[] {
  return (['PARTIALLY_DELIVERED', 'DELIVERED'] as const).map((to) => ({
    from,
    action: 'deliver',
    to,
    actors: WAREHOUSE,
    guards: [DELIVERS_SOMETHING],
  }));
}

/**
 * Taking a delivery back (a correction: the goods did not leave) from a delivery state: the
 * counters decide where it lands, back in CONFIRMED or PICKING (the stored state) when nothing
 * delivered is left, else PARTIALLY_DELIVERED. A final order takes no delivery back: what it
 * delivered is closed.
 */
function deliveryCancels(from: OrderState): Move[] {
  return (['CONFIRMED', 'PICKING', 'PARTIALLY_DELIVERED'] as const).map((to) => ({
    from,
    action: 'cancelDelivery',
    to,
    actors: WAREHOUSE,
    guards: [TAKES_SOMETHING_BACK],
  }));
}

/** The history row an accepted move writes (the service adds the order, the SCN and the time). */
export interface HistoryRow {
  readonly from: OrderState | null;
  readonly to: OrderState;
  readonly action: ActionName;
  readonly actor: Actor;
}

/**
 * Per line, what stock must do for an accepted move: give back `released`, ship `delivered`
 * (`fromReserved` of it out of the reservation, the rest from on hand), and put `restored` back on
 * hand and into the reservation (a delivery taken back).
 */
export interface LineStock {
  readonly released: number;
  readonly delivered: number;
  readonly fromReserved: number;
  readonly restored: number;
}

export type Moved = {
  ok: true;
  order: Order;
  /** The state reported after the move (the history row's `to`). */
  reported: OrderState;
  history: HistoryRow;
  stock: readonly LineStock[];
};

/**
 * Places an order: its lines as ordered, with what stock reserved for each at placement (the stock
 * area's reservation, in the same transaction).
 */
export function place(
  lines: readonly { ordered: number; reserved: number }[],
  actor: Actor,
): Moved | Refusal {
  if (lines.length === 0) throw new RangeError('an order has at least one line');
  const row = LIFECYCLE.find((m) => m.from === null)!;
  if (!row.actors.includes(actor)) return notAllowed(null, 'place', actor);
  const placed: LineCounters[] = [];
  for (const l of lines) {
    const result = placeLine(l.ordered, l.reserved);
    if (!result.ok) return result;
    placed.push(result.line);
  }
  return {
    ok: true,
    order: { state: 'NEW', lines: placed },
    reported: 'NEW',
    history: { from: null, to: row.to, action: 'place', actor },
    stock: placed.map(() => ({ released: 0, delivered: 0, fromReserved: 0, restored: 0 })),
  };
}

/**
 * Moves an order by an action of an actor: the new order and the history row to write, with what
 * stock must do; or a refusal, the order unchanged. A move not in the table (from the order's
 * reported state, by that action, for that actor) is ORDER_MOVE_NOT_ALLOWED; terminal states have
 * no rows, so they accept none.
 */
export function move(order: Order, action: OrderAction, actor: Actor): Moved | Refusal {
  const from = derivedState(order.lines, order.state);
  const rows = LIFECYCLE.filter((m) => m.from === from && m.action === action.name);
  const first = rows[0];
  if (first === undefined || !first.actors.includes(actor)) return notAllowed(from, action.name, actor);
  for (const guard of first.guards) {
    const reason = guard.veto(order, action);
    if (reason !== null) return refuse(guard.code, reason);
  }
  const done = effect(order, action);
  if (!done.ok) return done;
  const to = derivedState(done.order.lines, done.order.state);
  // Each effect lands on one of its rows' targets (the tests run every row); a miss is a bug here.
  if (!rows.some((m) => m.to === to)) throw new Error(`${action.name} from ${from} gave ${to}, not a row`);
  return { ...done, reported: to, history: { from, to, action: action.name, actor } };
}

/** What an action does to the stored state and the lines. */
function effect(order: Order, action: OrderAction): { ok: true; order: Order; stock: LineStock[] } | Refusal {
  const none = (): LineStock => ({ released: 0, delivered: 0, fromReserved: 0, restored: 0 });
  switch (action.name) {
    case 'confirm':
      return { ok: true, order: { ...order, state: 'CONFIRMED' }, stock: order.lines.map(none) };
    case 'startPicking':
      return { ok: true, order: { ...order, state: 'PICKING' }, stock: order.lines.map(none) };
    case 'cancel':
    case 'close': {
      // Both end the order: whatever is still open is cancelled and its reservation released.
      const lines: LineCounters[] = [];
      const stock: LineStock[] = [];
      for (const l of order.lines) {
        const left = openQuantity(l);
        const result = left > 0 ? cancelOpen(l, left) : { ok: true as const, line: l, released: 0 };
        if (!result.ok) return result;
        lines.push(result.line);
        stock.push({ ...none(), released: result.released });
      }
      const state = action.name === 'cancel' ? 'CANCELLED' : 'CLOSED';
      return { ok: true, order: { state, lines }, stock };
    }
    case 'deliver': {
      if (action.quantities.length !== order.lines.length) {
        throw new RangeError(`a delivery names ${order.lines.length} lines, not ${action.quantities.length}`);
      }
      const lines: LineCounters[] = [];
      const stock: LineStock[] = [];
      for (const [i, l] of order.lines.entries()) {
        const quantity = action.quantities[i]!;
        if (quantity === 0) {
          lines.push(l);
          stock.push(none());
          continue;
        }
        const result = deliver(l, quantity);
        if (!result.ok) return { ...result, detail: `Line ${i + 1}: ${result.detail}` };
        lines.push(result.line);
        stock.push({ ...none(), delivered: quantity, fromReserved: result.fromReserved });
      }
      return { ok: true, order: { ...order, lines }, stock };
    }
    case 'cancelDelivery': {
      if (action.quantities.length !== order.lines.length) {
        throw new RangeError(`a delivery names ${order.lines.length} lines, not ${action.quantities.length}`);
      }
      const lines: LineCounters[] = [];
      const stock: LineStock[] = [];
      for (const [i, l] of order.lines.entries()) {
        const quantity = action.quantities[i]!;
        const result = quantity === 0 ? { ok: true as const, line: l } : undeliver(l, quantity);
        if (!result.ok) return { ...result, detail: `Line ${i + 1}: ${result.detail}` };
        lines.push(result.line);
        stock.push({ ...none(), restored: quantity });
      }
      return { ok: true, order: { ...order, lines }, stock };
    }
  }
}

/**
 * Takes `quantity` delivered pieces back onto the line (the delivery is cancelled): open again, and
 * reserved again, as the goods are still on the shelf. Pieces that came back as a return cannot be
 * taken back a second time (returned ≤ delivered).
 */
function undeliver(line: LineCounters, quantity: number): LineResult {
  const left = line.delivered - line.returned;
  if (!Number.isSafeInteger(quantity) || quantity < 1) {
    throw new RangeError(`a line quantity is a whole number ≥ 1, not ${quantity}`);
  }
  if (quantity > left) {
    return refuse(
      ORDER_RULE_ERRORS.ORDER_LINE_OVER_RETURNED,
      `The line has ${left} delivered and not returned, not ${quantity}: a delivery whose pieces came back as a return cannot be cancelled (returned ≤ delivered).`,
    );
  }
  return {
    ok: true,
    line: { ...line, delivered: line.delivered - quantity, reserved: line.reserved + quantity },
  };
}

function notAllowed(from: OrderState | null, action: ActionName, actor: Actor): Refusal {
  if (from !== null && TERMINAL_STATES.includes(from)) {
    return refuse(
      ORDER_RULE_ERRORS.ORDER_MOVE_NOT_ALLOWED,
      `The order is ${from}, which is final: no ${action}.`,
    );
  }
  const open = [
    ...new Set(LIFECYCLE.filter((m) => m.from === from && m.actors.includes(actor)).map((m) => m.action)),
  ];
  const where = from ?? 'nothing';
  const allowed = open.length > 0 ? `; allowed: ${open.join(', ')}` : '; nothing is allowed';
  return refuse(
    ORDER_RULE_ERRORS.ORDER_MOVE_NOT_ALLOWED,
    `No ${action} from ${where} for ${actor}${allowed}.`,
  );
}
