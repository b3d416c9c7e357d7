import { type FieldError, ValidationError } from '../../kernel/errors.ts';
import type { CustomerRepository, CustomerRow } from './customer-repository.ts';
import { CUSTOMERS_ERRORS } from './errors.ts';

/** What shares the customers area's services (customers, representatives, article links) use. */

export const MAX_CUSTOMER_NO = 2_147_483_647;
export const MAX_DELIVERY_ADDRESSES = 999;

/** What a write did: the SCN it stamped, null when nothing changed (and the SCN did not move). */
export interface WriteResult {
  scn: number | null;
  changed: number;
}

export function fail(errors: FieldError[]): void {
  if (errors.length > 0) throw new ValidationError(errors);
}

/** A live customer; a deleted or unknown one is 404 CUSTOMER_NOT_FOUND. */
export async function liveCustomer(repo: CustomerRepository, customerNo: number): Promise<CustomerRow> {
  const row = await repo.findCustomer(customerNo);
  if (!row || row.deleted === 1) throw CUSTOMERS_ERRORS.CUSTOMER_NOT_FOUND(`No customer ${customerNo}.`);
  return row;
}
