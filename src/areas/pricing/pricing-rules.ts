import { type FieldError, ValidationError } from '../../kernel/errors.ts';
import type { PriceScope } from './tables.ts';

/**
 * The pricing area's rules with no database: what the request schemas (pricing-input.ts) cannot
 * state, i.e. the fields that go together, periods in order, real calendar days and the ranges of
 * parsed amounts (minor units) and percentages (basis points), and the stored rows of agreements,
 * line discounts and action prices built from the inputs. Every problem of an input is reported in
 * one ValidationError naming the field by its JSON pointer in the written record (`/VALIDTO`).
 */

export interface AgreementInput {
  /** Exactly one of customerNo and customerGroup. */
  customerNo?: number | null;
  customerGroup?: string | null;
  scope: PriceScope;
  /** The article number, model number or article group the agreement is for. */
  scopeValue: string;
  /** Quantity break: applies from this quantity on (default 1). */
  minQuantity?: number;
  /** YYYY-MM-DD, inclusive. */
  validFrom: string;
  /** YYYY-MM-DD, inclusive; null or absent: open-ended. */
  validTo?: string | null;
  /** Exactly one of discountBp (a percentage off the list price) and netPrices (currency -> minor units). */
  discountBp?: number | null;
  netPrices?: Record<string, number> | null;
}

export interface LineDiscountInput {
  customerNo: number;
  scope: 'MODEL' | 'ARTICLEGROUP';
  scopeValue: string;
  discountBp: number;
  validFrom: string;
  validTo?: string | null;
}

export interface ActionPriceInput {
  articleNo: string;
  /** Null or absent: every size of the article. */
  sizex?: string | null;
  currency: string;
  priceMinor: number;
  startDate: string;
  endDate: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const MAX_MINOR = 99_999_999_999_99; // 99 999 999 999.99: 13 digits as toMinor takes, well inside 2^53
export const MAX_QUANTITY = 1_000_000;

export function isValidDate(text: string): boolean {
  if (!DATE.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

const DAY_MS = 86_400_000;
/** The last day `todayOf` wrote, and the instants it covers: [from, from + DAY_MS). */
let lastDay = { from: 0, text: '1970-01-01' };

/**
 * Today as YYYY-MM-DD (UTC): the date validity and action prices are judged on by default. Every
 * price read asks; the text is made once a day (a UTC day is DAY_MS of JavaScript's time, which
 * has no leap seconds) and `now` is still asked each time, so a clock given in tests is followed.
 */
export function todayOf(now: () => Date): string {
  const ms = now().getTime();
  if (!(ms >= lastDay.from && ms < lastDay.from + DAY_MS)) {
    const from = Math.floor(ms / DAY_MS) * DAY_MS;
    lastDay = { from, text: new Date(from).toISOString().slice(0, 10) };
  }
  return lastDay.text;
}

/** A calendar day (the schemas check the form YYYY-MM-DD; 2026-02-30 passes it). */
function checkDate(errors: FieldError[], name: string, value: string | null | undefined) {
  if (value !== null && value !== undefined && !isValidDate(value)) {
    errors.push({ name, message: 'must be a date YYYY-MM-DD' });
  }
}

/** An amount parsed into minor units: not negative, and at most 99 999 999 999.99. */
export function checkMinor(errors: FieldError[], name: string, value: number) {
  if (!Number.isSafeInteger(value) || value < 0 || value > MAX_MINOR) {
    errors.push({ name, message: 'must be a whole number of minor units (cents), 0 or more' });
  }
}

/** A percentage parsed into basis points: `min` to 10000. */
export function checkBp(errors: FieldError[], name: string, value: number, min = 0) {
  if (!Number.isInteger(value) || value < min || value > 10_000) {
    errors.push({ name, message: `must be ${min} to 10000 basis points` });
  }
}

function checkPeriod(errors: FieldError[], from: string, to: string | null): void {
  checkDate(errors, '/VALIDFROM', from);
  checkDate(errors, '/VALIDTO', to);
  if (to !== null && isValidDate(from) && isValidDate(to) && to < from) {
    errors.push({ name: '/VALIDTO', message: 'is before VALIDFROM' });
  }
}

export function fail(errors: FieldError[]): void {
  if (errors.length > 0) throw new ValidationError(errors);
}

export function sameRow<T extends object>(a: T, b: T, ignore: ReadonlyArray<keyof T>): boolean {
  for (const key of Object.keys(a) as Array<keyof T>) {
    if (ignore.includes(key)) continue;
    if (a[key] !== b[key]) return false;
  }
  return true;
}

/** The stored form of an agreement and its net prices (sorted by currency), checked. */
export function agreementRow(input: AgreementInput, at: string) {
  const errors: FieldError[] = [];
  const hasCustomer = input.customerNo !== undefined && input.customerNo !== null;
  const hasGroup = input.customerGroup !== undefined && input.customerGroup !== null;
  if (hasCustomer === hasGroup) {
    errors.push({ name: '/CUSTOMER', message: 'give either a customer number or a customer group' });
  }
  checkPeriod(errors, input.validFrom, input.validTo ?? null);
  const hasDiscount = input.discountBp !== undefined && input.discountBp !== null;
  const netPrices = Object.entries(input.netPrices ?? {});
  if (hasDiscount === netPrices.length > 0) {
    errors.push({ name: '/DISCOUNTPERC', message: 'give either a discount or net prices per currency' });
  }
  if (hasDiscount) checkBp(errors, '/DISCOUNTPERC', input.discountBp as number, 1);
  // In the order written (NETPRICES[i]), as currency codes are no array indexes.
  for (const [i, [, price]] of netPrices.entries()) checkMinor(errors, `/NETPRICES/${i}/PRICE`, price);
  fail(errors);
  return {
    row: {
      customer_no: hasCustomer ? (input.customerNo as number) : null,
      customer_group: hasGroup ? (input.customerGroup as string) : null,
      scope: input.scope,
      scope_value: input.scopeValue,
      min_quantity: input.minQuantity ?? 1,
      valid_from: input.validFrom,
      valid_to: input.validTo ?? null,
      kind: hasDiscount ? ('DISCOUNT' as const) : ('NETPRICE' as const),
      discount_bp: hasDiscount ? (input.discountBp as number) : null,
      deleted: 0,
      created_at: at,
      updated_at: at,
    },
    prices: netPrices
      .map(([currency, price_minor]) => ({ currency, price_minor }))
      .sort((a, b) => (a.currency < b.currency ? -1 : 1)),
  };
}

/** The stored form of a line discount, checked. */
export function lineDiscountRow(input: LineDiscountInput, at: string) {
  const errors: FieldError[] = [];
  checkBp(errors, '/DISCOUNTPERC', input.discountBp, 1);
  checkPeriod(errors, input.validFrom, input.validTo ?? null);
  fail(errors);
  return {
    customer_no: input.customerNo,
    scope: input.scope,
    scope_value: input.scopeValue,
    discount_bp: input.discountBp,
    valid_from: input.validFrom,
    valid_to: input.validTo ?? null,
    deleted: 0,
    created_at: at,
    updated_at: at,
  };
}

/** The stored form of an action price, checked. */
export function actionPriceRow(input: ActionPriceInput, at: string) {
  const errors: FieldError[] = [];
  checkMinor(errors, '/PRICE', input.priceMinor);
  checkDate(errors, '/STARTDATE', input.startDate);
  checkDate(errors, '/ENDDATE', input.endDate);
  if (errors.length === 0 && input.endDate < input.startDate) {
    errors.push({ name: '/ENDDATE', message: 'is before the start date' });
  }
  fail(errors);
  return {
    article_no: input.articleNo,
    sizex: input.sizex ?? null,
    currency: input.currency,
    price_minor: input.priceMinor,
    start_date: input.startDate,
    end_date: input.endDate,
    deleted: 0,
    created_at: at,
    updated_at: at,
  };
}
