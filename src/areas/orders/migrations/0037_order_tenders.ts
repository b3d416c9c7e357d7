import { type Kysely, sql } from 'kysely';

/**
 * Web orders paid with tenders (docs/orders.md, "Paying with tenders"; issue 13): one row per
 * tender a web order's TENDERS named, with what it paid and what was given back to it since
 * (`refunded`, from 0 to `amount`: a check, so no order ever gives a tender back more than it took),
 * and on the order the sum its tenders paid, the bonus card it earns on and what it earned so far.
 * The tender's own ledger (its balance and entries) is the tenders area's; these rows are the
 * order's side of each payment.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('order_tender')
    .addColumn('order_no', 'bigint', (c) => c.notNull())
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('tender_id', 'bigint', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('refunded', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('order_tender_pk', ['order_no', 'line_no'])
    .addCheckConstraint('order_tender_refund', sql`amount > 0 and refunded >= 0 and refunded <= amount`)
    .execute();
  await db.schema
    .alterTable('sales_order')
    .addColumn('tenders_paid', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('sales_order').addColumn('bonus_card', 'text').execute();
  await db.schema
    .alterTable('sales_order')
    .addColumn('bonus_earned', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}
