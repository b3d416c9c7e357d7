import type { Kysely } from 'kysely';
import type { DB } from '../../kernel/db/schema.ts';
import type { UnitOfWork } from '../../kernel/db/unit-of-work.ts';
import { BOOKKEEPING, sameRow } from '../../kernel/write-changed.ts';
import { liveCustomer, type WriteResult } from './customer-common.ts';
import { CustomerRepository, type CustomerTermsRow } from './customer-repository.ts';
import { CUSTOMERS_ERRORS } from './errors.ts';

export { customerTermsFragment } from './customer-repository.ts';

/**
 * A customer's pricing terms (price group, customer group, currency, discount, active): the part of
 * a customer the pricing area resolves prices against and lets the back office set on its own
 * (`PUT /TV2/Admin/customers/:customer`, the `customers` import kind). The customers area owns the
 * `customer` table; the pricing area reads and writes the terms only through these functions
 * (exported from index.ts), inside its own transaction or on its own connection.
 */
export type CustomerTerms = CustomerTermsRow;

/** The terms of one customer as a write gives them: without the columns the write stamps itself. */
export type CustomerTermsInput = Omit<CustomerTerms, 'deleted' | 'scn' | 'created_at' | 'updated_at'>;

/**
 * The terms of a live customer, read over `db` (the database or an open transaction's); 404
 * CUSTOMER_NOT_FOUND for a deleted or unknown one.
 */
export function liveCustomerTerms(db: Kysely<DB>, customerNo: number): Promise<CustomerTerms> {
  return liveCustomer(new CustomerRepository(db), customerNo);
}

/**
 * The terms `row` read for `customerNo` (by the pricing area, with `customerTermsFragment` in its own
 * statement) if they are a live customer's; 404 CUSTOMER_NOT_FOUND for a deleted or unknown one
 * (`row` undefined), the refusal `liveCustomerTerms` gives.
 */
export function liveTermsOf<R extends { deleted: number | null }>(row: R | undefined, customerNo: number): R {
  if (row?.deleted !== 0) throw CUSTOMERS_ERRORS.CUSTOMER_NOT_FOUND(`No customer ${customerNo}.`);
  return row;
}

/**
 * Creates customers with their terms or replaces the terms of stored ones (reviving a deleted one),
 * in the caller's transaction `uow`; a customer's other columns stay as they are. Customers whose
 * terms are already stored are skipped, and when nothing differs the SCN is not taken. Otherwise
 * the SCN is taken (on PostgreSQL this holds the counter's row lock) and the comparison made again
 * under it, so a concurrent writer's equal change is not written twice. `at` stamps the rows.
 */
export async function saveCustomerTermsIn(
  uow: UnitOfWork,
  terms: readonly CustomerTermsInput[],
  at: string,
): Promise<WriteResult> {
  const repo = new CustomerRepository(uow.db);
  const wanted = (scn: number): CustomerTerms[] =>
    terms.map((t) => ({ ...t, deleted: 0, scn, created_at: at, updated_at: at }));
  const changed = async () => {
    const stored = new Map(
      (await repo.findCustomers(terms.map((t) => t.customer_no))).map((r) => [r.customer_no, r]),
    );
    return new Set(
      wanted(0)
        .filter((w) => {
          const s = stored.get(w.customer_no);
          return !s || !sameRow(w, s, BOOKKEEPING);
        })
        .map((w) => w.customer_no),
    );
  };
  if ((await changed()).size === 0) return { scn: null, changed: 0 };
  const scn = await uow.scn();
  const differing = await changed();
  for (const row of wanted(scn)) if (differing.has(row.customer_no)) await repo.upsertCustomerTerms(row);
  return { scn, changed: differing.size };
}
