import { ORDER_RULE_ERRORS, type Refusal, refuse } from './refusals.ts';
import type { OrderState, StoredState } from './states.ts';

/**
 * The counters of one order line (one size of one article): the truth about the line
 * (docs/orders.md, "Line counters"). Everything else about quantities, the delivery states of the
 * order included, is computed from them and never stored beside them. Whole pieces, never negative:
 *
 *   0 ≤ cancelled, 0 ≤ delivered, cancelled + delivered ≤ ordered      (delivered ≤ ordered − cancelled)
 *   0 ≤ returned ≤ delivered
 *   0 ≤ reserved ≤ ordered − cancelled − delivered                      (reserved ≤ open)
 *
 * The operations below are pure: each answers the new counters, or a refusal naming the invariant
 * the operation would break, and never a line that breaks one. Quantities are whole numbers of at
 * least 1; anything else is a bug of the caller (the schema and the service give whole numbers) and
 * throws.
 */
export interface LineCounters {
  readonly ordered: number;
  readonly cancelled: number;
  readonly reserved: number;
  readonly delivered: number;
  readonly returned: number;
}

export type LineResult = { ok: true; line: LineCounters } | Refusal;

/** What is still to deliver: ordered, less what was cancelled and what was delivered. */
export function openQuantity(line: LineCounters): number {
  return line.ordered - line.cancelled - line.delivered;
}

/** The invariant a line breaks, as written in docs/orders.md, or null when it keeps them all. */
export function brokenInvariant(line: LineCounters): string | null {
  const { ordered, cancelled, reserved, delivered, returned } = line;
  for (const n of [ordered, cancelled, reserved, delivered, returned]) {
    if (!Number.isSafeInteger(n) || n < 0) return 'counters are whole numbers ≥ 0';
  }
  if (delivered > ordered - cancelled) return 'delivered ≤ ordered − cancelled';
  if (returned > delivered) return 'returned ≤ delivered';
  if (reserved > ordered - cancelled - delivered) return 'reserved ≤ ordered − cancelled − delivered';
  return null;
}

function pieces(quantity: number): void {
  if (!Number.isSafeInteger(quantity) || quantity < 1) {
    throw new RangeError(`a line quantity is a whole number ≥ 1, not ${quantity}`);
  }
}

/**
 * A new line as placed: `ordered` pieces, of which `reserved` were reserved from stock at placement
 * (all of them for a web order; fewer for a wholesale back-order).
 */
export function placeLine(ordered: number, reserved: number): LineResult {
  pieces(ordered);
  const line = { ordered, cancelled: 0, reserved: 0, delivered: 0, returned: 0 };
  return reserved === 0 ? { ok: true, line } : reserve(line, reserved);
}

/** Reserves `quantity` more of the open quantity (stock found for a back-order). */
export function reserve(line: LineCounters, quantity: number): LineResult {
  pieces(quantity);
  const free = openQuantity(line) - line.reserved;
  if (quantity > free) {
    return refuse(
      ORDER_RULE_ERRORS.ORDER_LINE_OVER_RESERVED,
      `The line has ${free} open and unreserved, not ${quantity} (reserved ≤ ordered − cancelled − delivered).`,
    );
  }
  return { ok: true, line: { ...line, reserved: line.reserved + quantity } };
}

/** Gives `quantity` of the reservation back to stock, the line staying open. */
export function release(line: LineCounters, quantity: number): LineResult {
  pieces(quantity);
  if (quantity > line.reserved) {
    return refuse(
      ORDER_RULE_ERRORS.ORDER_LINE_OVER_RELEASED,
      `The line holds ${line.reserved} reserved, not ${quantity} (reserved ≥ 0).`,
    );
  }
  return { ok: true, line: { ...line, reserved: line.reserved - quantity } };
}

/**
 * Delivers `quantity` of the open quantity. It comes out of the reservation first: `fromReserved`
 * tells the caller how much of the shipment was reserved stock (the stock area ships it from the
 * reservation) and how much was not (a back-order shipped from what is on hand).
 */
export function deliver(
  line: LineCounters,
  quantity: number,
): { ok: true; line: LineCounters; fromReserved: number } | Refusal {
  pieces(quantity);
  const open = openQuantity(line);
  if (quantity > open) {
    return refuse(
      ORDER_RULE_ERRORS.ORDER_LINE_OVER_DELIVERED,
      `The line has ${open} open, not ${quantity} (delivered ≤ ordered − cancelled).`,
    );
  }
  const fromReserved = Math.min(quantity, line.reserved);
  return {
    ok: true,
    line: { ...line, delivered: line.delivered + quantity, reserved: line.reserved - fromReserved },
    fromReserved,
  };
}

/**
 * Cancels `quantity` of the open quantity. A reservation above what stays open is released with
 * it (`released`: what the caller gives back to stock), so cancelling releases exactly what was
 * reserved and is no longer wanted, never more.
 */
export function cancelOpen(
  line: LineCounters,
  quantity: number,
): { ok: true; line: LineCounters; released: number } | Refusal {
  pieces(quantity);
  const open = openQuantity(line);
  if (quantity > open) {
    return refuse(
      ORDER_RULE_ERRORS.ORDER_LINE_OVER_CANCELLED,
      `The line has ${open} open, not ${quantity} (cancelled ≤ ordered − delivered).`,
    );
  }
  const released = Math.max(0, line.reserved - (open - quantity));
  return {
    ok: true,
    line: { ...line, cancelled: line.cancelled + quantity, reserved: line.reserved - released },
    released,
  };
}

/** Takes back `quantity` delivered pieces (a return received against the line). */
export function receiveReturn(line: LineCounters, quantity: number): LineResult {
  pieces(quantity);
  const returnable = line.delivered - line.returned;
  if (quantity > returnable) {
    return refuse(
      ORDER_RULE_ERRORS.ORDER_LINE_OVER_RETURNED,
      `The line has ${returnable} delivered and not returned, not ${quantity} (returned ≤ delivered).`,
    );
  }
  return { ok: true, line: { ...line, returned: line.returned + quantity } };
}

/**
 * The state an order is reported in: its stored state, except that an order the warehouse works
 * on (CONFIRMED or PICKING) that has delivered something is PARTIALLY_DELIVERED while anything is
 * open and DELIVERED once nothing is. Returns do not change it: a return is after-sales, recorded on
 * the lines (docs/orders.md, "Why no RETURNED state").
 */
export function derivedState(lines: readonly LineCounters[], stored: StoredState): OrderState {
  if (stored !== 'CONFIRMED' && stored !== 'PICKING') return stored;
  if (!lines.some((l) => l.delivered > 0)) return stored;
  return lines.some((l) => openQuantity(l) > 0) ? 'PARTIALLY_DELIVERED' : 'DELIVERED';
}
