import type { Kysely } from 'kysely';

/**
 * Deliveries carry their order's party (docs/orders.md, "Deliveries"): B2B_GetDeliveryHistory pages
 * one customer's deliveries by delivery number, which is then an index range on (customer,
 * delivery) instead of every delivery joined to its order and filtered. The columns are typed in
 * delivery-repository.ts (an augmentation of DeliveryTable).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('delivery').addColumn('customer_no', 'integer').execute();
  await db.schema.alterTable('delivery').addColumn('client_no', 'integer').execute();
  await db.schema
    .createIndex('delivery_customer')
    .on('delivery')
    .columns(['customer_no', 'delivery_no'])
    .execute();
}
