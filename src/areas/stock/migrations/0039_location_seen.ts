import type { Kysely } from 'kysely';

/**
 * Which audiences ever saw a location (issue 14, docs/stock.md "Change feeds"): `seen_wholesale` and
 * `seen_retail` are set when the location is live and serves that audience, `seen_shop` when it is
 * also a shop (what retail's shop feeds show), and none is ever cleared. A feed reports a record
 * under DELETED only to an audience that saw it, so wholesale is not told of a retail-only
 * location's levels, nor retail of a wholesale-only one, nor the shop feeds of a warehouse.
 *
 * Existing locations are taken as seen by the audiences they serve now: what they served before is
 * not recorded anywhere.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('stock_location')
    .addColumn('seen_wholesale', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('stock_location')
    .addColumn('seen_retail', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('stock_location')
    .addColumn('seen_shop', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db
    .updateTable('stock_location')
    .set((eb) => ({ seen_wholesale: eb.ref('serves_wholesale'), seen_retail: eb.ref('serves_retail') }))
    .execute();
  await db
    .updateTable('stock_location')
    .set({ seen_shop: 1 })
    .where('kind', '=', 'SHOP')
    .where('serves_retail', '=', 1)
    .execute();
}
