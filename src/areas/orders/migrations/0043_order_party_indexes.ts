import { type Kysely, sql } from 'kysely';
import type { Engine } from '../../../kernel/db/engine.ts';

/**
 * Fewer index entries written per order placed (docs/orders.md, "Placement under load"). A web
 * order has no customer and a wholesale order no client, yet each order wrote an entry with a null
 * key into both parties' indexes. Those four indexes now hold only the orders of their party (partial
 * indexes, `WHERE customer_no IS NOT NULL` / `client_no IS NOT NULL`): every read by party names one
 * (`customer_no = ?` implies the condition, so both planners use them), and the claim of a reference
 * names the condition in its ON CONFLICT target. An order now writes three index entries where it
 * wrote five.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is
export async function up(db: Kysely<any>, _engine: Engine): Promise<void> {
  for (const party of ['customer', 'client'] as const) {
    const column = sql.ref(`${party}_no`);
    for (const [suffix, second] of [
      ['weborder', 'weborder'],
      ['order', 'order_no'],
    ] as const) {
      const index = sql.id(`sales_order_${party}_${suffix}`);
      await sql`DROP INDEX ${index}`.execute(db);
      await sql`CREATE ${sql.raw(suffix === 'weborder' ? 'UNIQUE ' : '')}INDEX ${index}
        ON sales_order (${column}, ${sql.ref(second)}) WHERE ${column} IS NOT NULL`.execute(db);
    }
  }
}
