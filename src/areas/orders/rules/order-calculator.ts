import { percentOf } from '../../../kernel/money.ts';

/**
 * The money of an order, apart from the service (docs/orders.md, "The order's money"). Pure and in
 * integer minor units throughout; percentages are basis points and rounded by money.ts's rule
 * (half away from zero, to the cent).
 *
 * Each line's amount is rounded once (quantity × unit price, less its line discount). VAT is not
 * summed from rounded line VAT: the lines are grouped by rate, and each rate's VAT is computed once
 * on the sum of its lines, as an invoice shows it (EU VAT directive, art. 226: the VAT amount per
 * rate). Per-line rounding would drift by up to half a cent a line (three lines of 0.03 at 21 %:
 * 0.01 + 0.01 + 0.01 line by line, 0.02 on the document).
 *
 * Prices are net (wholesale) or include VAT (retail shelf prices): with `pricesIncludeVat`, a
 * rate's sum of line amounts is its gross, and its net is taken out once, gross × 10000 / (10000 +
 * rate), rounded the same way.
 */
export interface PricedLine {
  /** Whole pieces, at least 1. */
  readonly quantity: number;
  /** Minor units per piece, as the server's price resolution gave it (never the client's). */
  readonly unitPrice: number;
  /** The rule that produced the price (pricing's `PriceRule`, or retail's list or action price), kept with the line. */
  readonly priceRule: string;
  /** A further discount on the line, basis points (0 to 10000). */
  readonly discountBp: number;
  /** The article's VAT rate, basis points (2100 = 21 %). */
  readonly vatBp: number;
}

export interface CalculatedLine extends PricedLine {
  /** quantity × unitPrice. */
  readonly listAmount: number;
  /** The line discount, rounded once. */
  readonly discount: number;
  /** listAmount − discount: what the line costs, net or gross as the prices are. */
  readonly amount: number;
}

/** One rate of the VAT breakdown: the lines at that rate, and the rate applied once to their sum. */
export interface VatRow {
  readonly vatBp: number;
  readonly net: number;
  readonly vat: number;
  readonly gross: number;
}

export interface OrderMoney {
  readonly lines: readonly CalculatedLine[];
  /** One row per rate used, lowest rate first. */
  readonly vat: readonly VatRow[];
  readonly net: number;
  readonly vatTotal: number;
  readonly gross: number;
}

export function calculateOrder(
  lines: readonly PricedLine[],
  { pricesIncludeVat }: { pricesIncludeVat: boolean },
): OrderMoney {
  const calculated = lines.map(calculateLine);
  const byRate = new Map<number, number>();
  for (const line of calculated) byRate.set(line.vatBp, (byRate.get(line.vatBp) ?? 0) + line.amount);
  const vat = [...byRate.entries()]
    .sort(([a], [b]) => a - b)
    .map(([vatBp, sum]) => (pricesIncludeVat ? fromGross(sum, vatBp) : fromNet(sum, vatBp)));
  const total = (pick: (row: VatRow) => number) => vat.reduce((n, row) => n + pick(row), 0);
  return {
    lines: calculated,
    vat,
    net: total((r) => r.net),
    vatTotal: total((r) => r.vat),
    gross: total((r) => r.gross),
  };
}

function calculateLine(line: PricedLine, index: number): CalculatedLine {
  const { quantity, unitPrice, discountBp, vatBp } = line;
  const where = `line ${index + 1}`;
  if (!Number.isSafeInteger(quantity) || quantity < 1) throw new RangeError(`${where}: quantity ${quantity}`);
  if (!Number.isSafeInteger(unitPrice) || unitPrice < 0)
    throw new RangeError(`${where}: unit price ${unitPrice}`);
  for (const bp of [discountBp, vatBp]) {
    if (!Number.isSafeInteger(bp) || bp < 0 || bp > 10_000)
      throw new RangeError(`${where}: basis points ${bp}`);
  }
  const listAmount = quantity * unitPrice;
  safe(listAmount * 10_000, where);
  const discount = percentOf(listAmount, discountBp);
  return { ...line, listAmount, discount, amount: listAmount - discount };
}

function fromNet(net: number, vatBp: number): VatRow {
  safe(net * vatBp, `the ${vatBp} bp rate`);
  const vat = percentOf(net, vatBp);
  return { vatBp, net, vat, gross: net + vat };
}

function fromGross(gross: number, vatBp: number): VatRow {
  const net = divideRounded(safe(gross * 10_000, `the ${vatBp} bp rate`), 10_000 + vatBp);
  return { vatBp, net, vat: gross - net, gross };
}

/** numerator / denominator (denominator > 0, numerator ≥ 0), rounded half away from zero, in integers. */
function divideRounded(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

/** Amounts stay exact: a product beyond 2^53 would round, so it is a bug of the caller, not money. */
function safe(product: number, where: string): number {
  if (!Number.isSafeInteger(product * 2))
    throw new RangeError(`${where}: amount too large to compute exactly`);
  return product;
}
