import { CompiledQuery, type Kysely } from 'kysely';
import { compiledOnce } from '../../kernel/db/compiled-once.ts';
import type { DB } from '../../kernel/db/schema.ts';
import type { HistoryInsert, NewOrderRow, OrderLineRow, OrderVatRow } from './order-repository.ts';

type Values = Record<string, string | number | null>;
type Compiled<R = unknown> = (values: Values) => CompiledQuery<R>;

/** At most this many lines' and VAT rates' inserts are kept compiled (each count is its own SQL). */
const KEPT_COUNTS = 64;

const ORDER_COLUMNS = [
  'channel',
  'customer_no',
  'client_no',
  'weborder',
  'request_hash',
  'state',
  'currency',
  'prices_include_vat',
  'customer_discount_bp',
  'net',
  'vat_total',
  'gross',
  'freight',
  'date_ordered',
  'header_text',
  'bottom_text',
  'delivery_address_no',
  'invoice_address_no',
  'delivery_address',
  'invoice_address',
  'pickup_point',
  'email',
  'payment_reference',
  'tenders_paid',
  'bonus_card',
  'location_code',
  'payment_days',
  'scn',
  'created_at',
  'updated_at',
] as const satisfies ReadonlyArray<keyof NewOrderRow>;

const LINE_COLUMNS = [
  'order_no',
  'line_no',
  'article_no',
  'sizex',
  'barcode',
  'ordered',
  'cancelled',
  'reserved',
  'delivered',
  'returned',
  'list_price',
  'unit_price',
  'price_rule',
  'rule_discount_bp',
  'discount_bp',
  'vat_bp',
  'list_amount',
  'discount',
  'amount',
  'customer_sequence',
  'assortment',
] as const satisfies ReadonlyArray<keyof OrderLineRow>;

const VAT_COLUMNS = ['order_no', 'vat_bp', 'net', 'vat', 'gross'] as const satisfies ReadonlyArray<
  keyof OrderVatRow
>;

const HISTORY_COLUMNS = [
  'order_no',
  'from_state',
  'to_state',
  'action',
  'actor',
  'reference',
  'scn',
  'at',
] as const satisfies ReadonlyArray<keyof HistoryInsert>;

/**
 * A multi-row INSERT of `count` rows compiled once: its SQL, after checking (with a marker in place
 * of each value) that its parameters are the rows' values row by row in `columns` order, so a later
 * call passes `rows.flatMap(row => columns.map(...))` as they are, without building the query or a
 * keyed object of values (what `compiledOnce` would need) for the 20 columns of each line.
 */
function multiRowSql(
  db: Kysely<DB>,
  table: 'sales_order_line' | 'sales_order_vat',
  columns: readonly string[],
  count: number,
): string {
  const markers = Array.from({ length: count }, (_, i) =>
    Object.fromEntries(columns.map((c) => [c, `\u0000multiRow:${c}:${i}`])),
  );
  const { sql, parameters } = db
    .insertInto(table)
    .values(markers as never)
    .compile();
  const expected = markers.flatMap((m) => columns.map((c) => m[c]));
  if (parameters.length !== expected.length || parameters.some((p, i) => p !== expected[i]))
    throw new Error(`multiRowSql: the parameters of the insert into ${table} are not its values in order`);
  return sql;
}

/**
 * The placement's writes (docs/orders.md, "Placement under load"): the claim of the party's
 * reference and the order's lines, VAT rows and first history row, each one statement, and the
 * look-up of a reference a repeat answers. Every statement is built and compiled by Kysely once
 * (`compiledOnce`, per count of rows for the multi-row inserts) and then only run with each
 * placement's values: building and compiling a 28-column insert cost more CPU than SQLite took to
 * run it. Built over the process's database for compiling; each write runs on the transaction
 * given (`db`).
 *
 * The claim is the order row itself, inserted first in the placement's transaction with ON
 * CONFLICT DO NOTHING on the party's unique (party, WEBORDER) key: a repeat, also a concurrent one,
 * inserts nothing and is told so (PostgreSQL waits for the first inserter's transaction to end
 * before it decides), so a reference is placed exactly once without a look-up in front.
 */
export class PlacementRepository {
  readonly db: Kysely<DB>;
  readonly #claims: Record<'B2B' | 'B2C', Compiled<{ order_no: number }>>;
  readonly #lines = new Map<number, string>();
  readonly #vat = new Map<number, string>();
  readonly #history: Compiled;

  constructor(db: Kysely<DB>) {
    this.db = db;
    const claim = (channel: 'B2B' | 'B2C') =>
      compiledOnce<Values, { order_no: number }>([...ORDER_COLUMNS], (v) =>
        this.db
          .insertInto('sales_order')
          .values(v as unknown as NewOrderRow)
          // the party's unique reference: a partial index (migration 0043), named with its condition
          .onConflict((oc) =>
            oc
              .columns(channel === 'B2B' ? ['customer_no', 'weborder'] : ['client_no', 'weborder'])
              .where(channel === 'B2B' ? 'customer_no' : 'client_no', 'is not', null)
              .doNothing(),
          )
          .returning('order_no'),
      );
    this.#claims = { B2B: claim('B2B'), B2C: claim('B2C') };
    this.#history = compiledOnce<Values, unknown>([...HISTORY_COLUMNS], (v) =>
      this.db.insertInto('order_history').values(v as unknown as HistoryInsert),
    );
  }

  /** Inserts the order unless its party has an order with that reference; its number, or undefined. */
  async claimOrder(row: NewOrderRow, db: Kysely<DB> = this.db): Promise<number | undefined> {
    const query = this.#claims[row.channel as 'B2B' | 'B2C']({ ...(row as Values) });
    const inserted = (await db.executeQuery(query)).rows[0];
    return inserted === undefined ? undefined : Number(inserted.order_no);
  }

  /** The number and fingerprint of the party's order with that reference (the channel says which party). */
  referenceOf(
    channel: 'B2B' | 'B2C',
    partyNo: number,
    weborder: string,
    db: Kysely<DB> = this.db,
  ): Promise<{ order_no: number; request_hash: string } | undefined> {
    return db
      .selectFrom('sales_order')
      .select(['order_no', 'request_hash'])
      .where(channel === 'B2B' ? 'customer_no' : 'client_no', '=', partyNo)
      .where('weborder', '=', weborder)
      .executeTakeFirst();
  }

  async insertLines(rows: readonly OrderLineRow[], db: Kysely<DB> = this.db): Promise<void> {
    await this.#insertMany(this.#lines, 'sales_order_line', LINE_COLUMNS, rows, db);
  }

  async insertVat(rows: readonly OrderVatRow[], db: Kysely<DB> = this.db): Promise<void> {
    await this.#insertMany(this.#vat, 'sales_order_vat', VAT_COLUMNS, rows, db);
  }

  async insertHistory(row: HistoryInsert, db: Kysely<DB> = this.db): Promise<void> {
    await db.executeQuery(this.#history({ ...(row as Values) }));
  }

  async #insertMany(
    kept: Map<number, string>,
    table: 'sales_order_line' | 'sales_order_vat',
    columns: readonly string[],
    rows: readonly object[],
    db: Kysely<DB>,
  ): Promise<void> {
    if (rows.length === 0) return;
    const text = kept.get(rows.length);
    if (text === undefined) {
      // The first of each count runs as Kysely builds it, after the compilation with markers (a
      // plugin that keeps the last of equal statements, as the query-plan tests do, gets real values).
      if (rows.length <= KEPT_COUNTS)
        kept.set(rows.length, multiRowSql(this.db, table, columns, rows.length));
      await db
        .insertInto(table)
        .values(rows as never)
        .execute();
      return;
    }
    const parameters = rows.flatMap((row) => columns.map((c) => (row as Values)[c] ?? null));
    await db.executeQuery(CompiledQuery.raw(text, parameters));
  }
}
