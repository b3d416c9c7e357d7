import type { Kysely } from 'kysely';

/**
 * Whether retail ever saw a content block, a shop assistant or an external pickup point (`seen`),
 * or a shop as a pickup location (`shop_detail.seen_pickup`): set when the record is written live
 * and active (for a shop's details: allowing pickup), never cleared (issue 14, decision 42 (a)).
 * The shops feeds report a record under DELETED only when retail saw it, so one made inactive from
 * the start and changed is no news to retail; the location's own flags are the stock area's
 * (`stock_location.seen_shop`, migration 0039).
 *
 * Existing records are taken as seen when they are active or deleted now (a deleted one may have
 * been shown; earlier history is not recorded).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['home_page_block', 'shop_assistant', 'pickup_point']) {
    await db.schema
      .alterTable(table)
      .addColumn('seen', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db
      .updateTable(table)
      .set({ seen: 1 })
      .where((eb) => eb.or([eb('active', '=', 1), eb('deleted', '=', 1)]))
      .execute();
  }
  await db.schema
    .alterTable('shop_detail')
    .addColumn('seen_pickup', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.updateTable('shop_detail').set({ seen_pickup: 1 }).where('pickup', '=', 1).execute();
}
