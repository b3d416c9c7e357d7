import type { Database } from '../../db/database.ts';
import { inWriteTransaction } from '../../db/unit-of-work.ts';
import { type FieldError, NotFoundError, ValidationError } from '../errors.ts';
import { CURRENCY } from '../shared/money.ts';
import { type CustomerRow, PricingRepository } from './pricing-repository.ts';

/**
 * What the pricing services share: the field checks of the write inputs (money in minor units,
 * percentages in basis points), the unchanged-row comparison, the customer look-up and the soft
 * delete of a record with a generated id.
 *
 * Writes follow one pattern: compare the request with what is stored; when nothing differs, end
 * without taking an SCN. Otherwise take the SCN (on PostgreSQL this holds the counter's row lock,
 * so no other synchronised writer is between its SCN and its commit), read again under it and
 * write what still differs. The first read may be stale on PostgreSQL; the second cannot be.
 */

/** What a write did: the SCN it stamped, null when nothing changed (and the SCN did not move). */
export interface WriteResult {
  scn: number | null;
  changed: number;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const CODE = /^[A-Za-z0-9][A-Za-z0-9._/ -]{0,39}$/;
const MAX_MINOR = 99_999_999_999_99; // 99 999 999 999.99: 13 digits as toMinor takes, well inside 2^53
export const MAX_QUANTITY = 1_000_000;

export function isValidDate(text: string): boolean {
  if (!DATE.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

/** Today as YYYY-MM-DD (UTC): the date validity and action prices are judged on by default. */
export function todayOf(now: () => Date): string {
  return now().toISOString().slice(0, 10);
}

export function checkDate(
  errors: FieldError[],
  name: string,
  value: string | null | undefined,
  optional = false,
) {
  if (value === null || value === undefined) {
    if (!optional) errors.push({ name, message: 'a date YYYY-MM-DD is required' });
  } else if (!isValidDate(value)) {
    errors.push({ name, message: 'must be a date YYYY-MM-DD' });
  }
}

export function checkMinor(errors: FieldError[], name: string, value: unknown) {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value > MAX_MINOR) {
    errors.push({ name, message: 'must be a whole number of minor units (cents), 0 or more' });
  }
}

export function checkBp(errors: FieldError[], name: string, value: unknown, min = 0) {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > 10_000) {
    errors.push({ name, message: `must be ${min} to 10000 basis points` });
  }
}

export function checkCurrency(errors: FieldError[], name: string, value: unknown) {
  if (typeof value !== 'string' || !CURRENCY.test(value)) {
    errors.push({ name, message: 'must be an ISO 4217 code such as EUR' });
  }
}

export function checkPositiveInt(errors: FieldError[], name: string, value: unknown, max = 2_147_483_647) {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    errors.push({ name, message: `must be a whole number from 1 to ${max}` });
  }
}

export function checkCode(errors: FieldError[], name: string, value: unknown) {
  if (typeof value !== 'string' || !CODE.test(value)) {
    errors.push({ name, message: 'use 1 to 40 letters, digits, spaces or . _ / -' });
  }
}

export function checkPeriod(errors: FieldError[], from: string, to: string | null): void {
  checkDate(errors, 'validFrom', from);
  checkDate(errors, 'validTo', to, true);
  if (to !== null && isValidDate(from) && isValidDate(to) && to < from) {
    errors.push({ name: 'validTo', message: 'is before validFrom' });
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

/** The customer, not deleted; CUSTOMER_NOT_FOUND otherwise. */
export async function liveCustomer(repo: PricingRepository, customerNo: number): Promise<CustomerRow> {
  const row = await repo.findCustomer(customerNo);
  if (!row || row.deleted === 1) throw new NotFoundError('CUSTOMER_NOT_FOUND', `No customer ${customerNo}.`);
  return row;
}

/** Flags one live record deleted in its own transaction; `code` (404) when there is none. */
export function softDelete(
  database: Database,
  now: () => Date,
  code: string,
  message: string,
  of: (repo: PricingRepository) => {
    find: () => Promise<{ deleted: number } | undefined>;
    update: (scn: number, at: string) => Promise<void>;
  },
): Promise<WriteResult> {
  return inWriteTransaction(database, async (uow) => {
    const ops = of(new PricingRepository(uow.db));
    const live = async () => {
      const row = await ops.find();
      return row !== undefined && row.deleted === 0;
    };
    if (!(await live())) throw new NotFoundError(code, message);
    const scn = await uow.scn();
    if (!(await live())) throw new NotFoundError(code, message);
    await ops.update(scn, now().toISOString());
    return { scn, changed: 1 };
  });
}
