/**
 * What a web order paid with tenders gets back, and what it earns on its bonus card (docs/orders.md,
 * "Paying with tenders"). Pure: the services ask these and write what they answer.
 *
 * - The value of pieces of a line is counted cumulatively: `k` of a line's `ordered` pieces are worth
 *   ⌊amount × k / ordered⌋, so giving back pieces one at a time adds up to exactly the line's amount
 *   when all are back, never a cent more (no per-piece rounding that drifts).
 * - A refund is taken from the tenders first, the last one named first, each up to what it paid
 *   less what it got back before; what remains is the payment made outside tv2 (PAYMENTREFERENCE),
 *   which the shop refunds with its payment provider.
 * - Bonus is earned on what was paid outside tv2 for pieces the client keeps (delivered, not
 *   returned): value paid with tenders (a bonus card's too) earns nothing, so value never grows
 *   from value.
 */

/** A line's money and the counters the settlement looks at. */
export interface SettledLine {
  /** The line's amount (what all `ordered` pieces cost, with VAT for a web order), minor units. */
  amount: number;
  ordered: number;
  cancelled: number;
  delivered: number;
  returned: number;
}

/** One tender that paid part of an order, as the order keeps it. */
export interface PaidTender {
  lineNo: number;
  /** BONUS_CARD is credited back to the card; the other kinds per the refund's route. */
  kind: string;
  amount: number;
  refunded: number;
}

export interface RefundPart {
  lineNo: number;
  amount: number;
}

export interface RefundPlan {
  /** What each tender gets back, in the order taken (the last named first). */
  tenders: RefundPart[];
  /** What remains for the payment made outside tv2. */
  other: number;
}

/** What `k` pieces of a line worth `amount` for `ordered` pieces are worth (exact, no float). */
export function piecesValue(amount: number, ordered: number, k: number): number {
  if (ordered <= 0 || k <= 0) return 0;
  if (k >= ordered) return amount;
  return Number((BigInt(amount) * BigInt(k)) / BigInt(ordered));
}

/** The value a change of one counter (cancelled or returned) gave up between two states of the lines. */
export function givenUpValue(
  before: readonly SettledLine[],
  after: readonly SettledLine[],
  counter: 'cancelled' | 'returned',
): number {
  let value = 0;
  for (const [i, b] of before.entries()) {
    const a = after[i]!;
    value += piecesValue(a.amount, a.ordered, a[counter]) - piecesValue(b.amount, b.ordered, b[counter]);
  }
  return value;
}

/** How a refund of `value` is taken: from the tenders, the last named first, then the outside payment. */
export function planRefund(tenders: readonly PaidTender[], value: number): RefundPlan {
  let left = Math.max(0, value);
  const parts: RefundPart[] = [];
  for (const t of [...tenders].sort((a, b) => b.lineNo - a.lineNo)) {
    if (left === 0) break;
    const take = Math.min(left, t.amount - t.refunded);
    if (take > 0) {
      parts.push({ lineNo: t.lineNo, amount: take });
      left -= take;
    }
  }
  return { tenders: parts, other: left };
}

/**
 * The bonus an order has earned in all, in its present state: `earnBp` basis points (rounded down
 * to the minor unit) of the value of the pieces the client keeps, less what tenders paid and did
 * not get back.
 */
export function bonusEarned(
  lines: readonly SettledLine[],
  tenders: readonly PaidTender[],
  earnBp: number,
): number {
  if (earnBp <= 0) return 0;
  let kept = 0;
  for (const l of lines) kept += piecesValue(l.amount, l.ordered, l.delivered - l.returned);
  let byTenders = 0;
  for (const t of tenders) byTenders += t.amount - t.refunded;
  const earnable = Math.max(0, kept - byTenders);
  return Number((BigInt(earnable) * BigInt(earnBp)) / 10_000n);
}
