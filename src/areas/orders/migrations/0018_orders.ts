import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely';
import type { Engine } from '../../../kernel/db/engine.ts';

/**
 * Orders (docs/orders.md): the order with its lines (the counters are the truth about quantities),
 * its VAT breakdown as computed at placement, the history of its state moves (the change feeds read
 * it), deliveries with their lines, and return authorisations with theirs. Money is integer minor
 * units (`bigint`), percentages basis points, instants and days text. Orders are never deleted, so
 * their numbers are their paging positions.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  const id = engine === 'postgres' ? sql`bigserial` : sql`integer`;
  const key = (c: ColumnDefinitionBuilder) =>
    engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement();
  const money = 'bigint';

  await db.schema
    .createTable('sales_order')
    .addColumn('order_no', id, key)
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('customer_no', 'integer')
    .addColumn('client_no', 'integer')
    .addColumn('weborder', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('prices_include_vat', 'integer', (c) => c.notNull())
    .addColumn('customer_discount_bp', 'integer', (c) => c.notNull())
    .addColumn('net', money, (c) => c.notNull())
    .addColumn('vat_total', money, (c) => c.notNull())
    .addColumn('gross', money, (c) => c.notNull())
    .addColumn('freight', money, (c) => c.notNull())
    .addColumn('date_ordered', 'text', (c) => c.notNull())
    .addColumn('header_text', 'text', (c) => c.notNull())
    .addColumn('bottom_text', 'text', (c) => c.notNull())
    .addColumn('delivery_address_no', 'integer')
    .addColumn('invoice_address_no', 'integer')
    // The addresses as they were at placement (wire JSON): the order keeps them when the party's change.
    .addColumn('delivery_address', 'text')
    .addColumn('invoice_address', 'text')
    .addColumn('pickup_point', 'text')
    .addColumn('email', 'text')
    .addColumn('payment_reference', 'text')
    .addColumn('location_code', 'text', (c) => c.notNull())
    .addColumn('payment_days', 'integer', (c) => c.notNull())
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addCheckConstraint('sales_order_channel', sql`channel in ('B2B', 'B2C')`)
    .addCheckConstraint(
      'sales_order_party',
      sql`(channel = 'B2B' and customer_no is not null and client_no is null) or (channel = 'B2C' and client_no is not null and customer_no is null)`,
    )
    .addCheckConstraint(
      'sales_order_state',
      sql`state in ('NEW', 'CONFIRMED', 'PICKING', 'CLOSED', 'CANCELLED')`,
    )
    .execute();
  // One order per party and client reference (exactly once: the same WEBORDER posted again finds it).
  await db.schema
    .createIndex('sales_order_customer_weborder')
    .on('sales_order')
    .columns(['customer_no', 'weborder'])
    .unique()
    .execute();
  await db.schema
    .createIndex('sales_order_client_weborder')
    .on('sales_order')
    .columns(['client_no', 'weborder'])
    .unique()
    .execute();
  await db.schema.createIndex('sales_order_scn').on('sales_order').column('scn').execute();
  await db.schema
    .createIndex('sales_order_customer_order')
    .on('sales_order')
    .columns(['customer_no', 'order_no'])
    .execute();
  await db.schema
    .createIndex('sales_order_client_order')
    .on('sales_order')
    .columns(['client_no', 'order_no'])
    .execute();

  await db.schema
    .createTable('sales_order_line')
    .addColumn('order_no', 'bigint', (c) => c.notNull().references('sales_order.order_no'))
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('article_no', 'text', (c) => c.notNull())
    .addColumn('sizex', 'text', (c) => c.notNull())
    .addColumn('barcode', 'text', (c) => c.notNull())
    .addColumn('ordered', 'integer', (c) => c.notNull())
    .addColumn('cancelled', 'integer', (c) => c.notNull())
    .addColumn('reserved', 'integer', (c) => c.notNull())
    .addColumn('delivered', 'integer', (c) => c.notNull())
    .addColumn('returned', 'integer', (c) => c.notNull())
    .addColumn('list_price', money, (c) => c.notNull())
    .addColumn('unit_price', money, (c) => c.notNull())
    .addColumn('price_rule', 'text', (c) => c.notNull())
    .addColumn('rule_discount_bp', 'integer')
    .addColumn('discount_bp', 'integer', (c) => c.notNull())
    .addColumn('vat_bp', 'integer', (c) => c.notNull())
    .addColumn('list_amount', money, (c) => c.notNull())
    .addColumn('discount', money, (c) => c.notNull())
    .addColumn('amount', money, (c) => c.notNull())
    .addColumn('customer_sequence', 'text', (c) => c.notNull())
    .addColumn('assortment', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('sales_order_line_pk', ['order_no', 'line_no'])
    // The invariants of docs/orders.md, "Line counters", held by the database as well as by the rules.
    .addCheckConstraint(
      'sales_order_line_counters',
      sql`ordered >= 1 and cancelled >= 0 and reserved >= 0 and delivered >= 0 and returned >= 0
        and delivered + cancelled <= ordered and returned <= delivered
        and reserved <= ordered - cancelled - delivered`,
    )
    .execute();

  await db.schema
    .createTable('sales_order_vat')
    .addColumn('order_no', 'bigint', (c) => c.notNull().references('sales_order.order_no'))
    .addColumn('vat_bp', 'integer', (c) => c.notNull())
    .addColumn('net', money, (c) => c.notNull())
    .addColumn('vat', money, (c) => c.notNull())
    .addColumn('gross', money, (c) => c.notNull())
    .addPrimaryKeyConstraint('sales_order_vat_pk', ['order_no', 'vat_bp'])
    .execute();

  // Every accepted move, one row each, with its SCN: the order state feeds read this table.
  await db.schema
    .createTable('order_history')
    .addColumn('id', id, key)
    .addColumn('order_no', 'bigint', (c) => c.notNull().references('sales_order.order_no'))
    .addColumn('from_state', 'text')
    .addColumn('to_state', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('reference', 'text')
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('order_history_scn').on('order_history').columns(['scn', 'id']).execute();
  await db.schema
    .createIndex('order_history_order')
    .on('order_history')
    .columns(['order_no', 'id'])
    .execute();

  await db.schema
    .createTable('delivery')
    .addColumn('delivery_no', id, key)
    .addColumn('order_no', 'bigint', (c) => c.notNull().references('sales_order.order_no'))
    .addColumn('location_code', 'text', (c) => c.notNull())
    .addColumn('reference', 'text')
    .addColumn('cancelled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('delivery_order').on('delivery').columns(['order_no', 'delivery_no']).execute();
  await db.schema.createIndex('delivery_scn').on('delivery').column('scn').execute();
  await db.schema
    .createTable('delivery_line')
    .addColumn('delivery_no', 'bigint', (c) => c.notNull().references('delivery.delivery_no'))
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('delivery_line_pk', ['delivery_no', 'line_no'])
    .addCheckConstraint('delivery_line_quantity', sql`quantity >= 1`)
    .execute();

  // A return authorisation (B2C_GetReturnLocation): its own number, where to send the goods, and the lines.
  await db.schema
    .createTable('order_return')
    .addColumn('return_no', id, key)
    .addColumn('order_no', 'bigint', (c) => c.notNull().references('sales_order.order_no'))
    .addColumn('location_code', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('reference', 'text')
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addCheckConstraint('order_return_state', sql`state in ('AUTHORISED', 'RECEIVED', 'CANCELLED')`)
    .execute();
  await db.schema
    .createIndex('order_return_order')
    .on('order_return')
    .columns(['order_no', 'return_no'])
    .execute();
  await db.schema
    .createTable('order_return_line')
    .addColumn('return_no', 'bigint', (c) => c.notNull().references('order_return.return_no'))
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('received', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('order_return_line_pk', ['return_no', 'line_no'])
    .addCheckConstraint(
      'order_return_line_quantity',
      sql`quantity >= 1 and received >= 0 and received <= quantity`,
    )
    .execute();
}
