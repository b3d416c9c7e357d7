/**
 * The pure rules of the credit run (docs/billing-issuing.md, "Credit notes from returns and
 * cancellations"): what billing has accounted for of each delivery line, and what it owes back.
 * The service reads and writes; what it decides is here, tested beside (credit-rules.test.ts).
 */

/** An invoice line as billed: the delivery line it bills, the pieces invoiced and credited so far. */
export interface BilledLine {
  invoiceId: number;
  invoiceLineNo: number;
  deliveryNo: number;
  deliveryLineNo: number;
  /** Pieces the delivery line shipped. */
  delivered: number;
  invoiced: number;
  /** Given back by credit notes so far (by hand or by the credit run). */
  credited: number;
}

/** A delivery line as the orders area answers it: the pieces still out with the customer. */
export interface LineOut {
  deliveryNo: number;
  lineNo: number;
  /** Pieces still out: 0 when the delivery is cancelled or all came back. */
  quantity: number;
  cancelled: boolean;
  /** The received returns of its order line. */
  returnNos: readonly number[];
}

/** A credit note line owed: `quantity` pieces of invoice line `lineNo`, and why. */
export interface OwedLine {
  lineNo: number;
  quantity: number;
  reason: string;
}

export const lineKey = (deliveryNo: number, lineNo: number): string => `${deliveryNo}/${lineNo}`;

/**
 * Per invoiced delivery line, the pieces billing has accounted for already: delivered but not
 * billed (left off the invoice because they were returned before, or credited since). The orders
 * read matches returns to these first, so a return settled once is never taken off another
 * delivery line of the same order line again (invoicing-read.ts, piecesOut).
 */
export function accountedOf(billed: readonly BilledLine[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const b of billed) {
    const key = lineKey(b.deliveryNo, b.deliveryLineNo);
    out.set(key, (out.get(key) ?? 0) + b.delivered - b.invoiced + b.credited);
  }
  return out;
}

/**
 * The credit notes owed, per invoice (document id, in invoice order) with its lines in line
 * order: for every invoiced delivery line, pieces invoiced − pieces still out − pieces credited
 * already, when above 0. A delivery line the orders read did not answer (a delivery newer than
 * the read) is left for a later run. The reason: `DELIVERY <no> CANCELLED` when the delivery was
 * cancelled, else `RETURN <returnNo>[, <returnNo> ...]` (the received returns of the order line:
 * returns are counted per order line, so which return gave which piece back is not recorded).
 */
export function creditsOwed(billed: readonly BilledLine[], out: readonly LineOut[]): Map<number, OwedLine[]> {
  const byKey = new Map(out.map((l) => [lineKey(l.deliveryNo, l.lineNo), l]));
  const owed = new Map<number, OwedLine[]>();
  for (const b of billed) {
    const line = byKey.get(lineKey(b.deliveryNo, b.deliveryLineNo));
    if (!line) continue;
    const quantity = b.invoiced - line.quantity - b.credited;
    if (quantity < 1) continue;
    const reason = line.cancelled
      ? `DELIVERY ${b.deliveryNo} CANCELLED`
      : `RETURN ${line.returnNos.join(', ')}`.trim();
    const lines = owed.get(b.invoiceId) ?? [];
    lines.push({ lineNo: b.invoiceLineNo, quantity, reason });
    owed.set(b.invoiceId, lines);
  }
  return owed;
}
