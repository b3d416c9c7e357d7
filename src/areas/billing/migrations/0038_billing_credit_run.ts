import type { Kysely } from 'kysely';

/**
 * The credit run (docs/billing-issuing.md, "Credit notes from returns and cancellations"):
 *
 * - `billing_credit_line.reason`: why a credit note line gives pieces back, `RETURN 7` (returned
 *   pieces) or `DELIVERY 12 CANCELLED` (the goods did not leave); null for a credit note by hand.
 *   Nullable, so the lines written before keep their meaning.
 * - `billing_customer_lock (customer_no)`: one row per customer that an invoice or a credit run
 *   has locked (an upsert that changes nothing), so that the two never read and write one
 *   customer's billed lines at the same time (PostgreSQL's row lock; SQLite has one writer).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('billing_credit_line').addColumn('reason', 'text').execute();
  await db.schema
    .createTable('billing_customer_lock')
    .addColumn('customer_no', 'integer', (c) => c.primaryKey())
    .execute();
}
