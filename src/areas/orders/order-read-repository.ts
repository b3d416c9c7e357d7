import { type ExpressionBuilder, type Kysely, type Selectable, sql } from 'kysely';
import { changedAfter } from '../../kernel/db/feed-sql.ts';
import type { DB } from '../../kernel/db/schema.ts';
import { MAX_INT32 } from '../../kernel/int-limits.ts';
import type { OrderState } from './rules/states.ts';
import type {
  OrderHistoryTable,
  SalesOrderLineTable,
  SalesOrderTable,
  SalesOrderVatTable,
} from './tables.ts';

export type ReadOrderRow = Selectable<SalesOrderTable>;
export type ReadLineRow = Selectable<SalesOrderLineTable>;
export type ReadVatRow = Selectable<SalesOrderVatTable>;
export type HistoryRow = Selectable<OrderHistoryTable> & {
  weborder: string;
  customer_no: number | null;
  client_no: number | null;
};

/** Whose orders a read sees: a channel, and within it one party or every party (`undefined`). */
export interface OrderParty {
  channel: 'B2B' | 'B2C';
  partyNo?: number;
}

/** A page of orders by number: from order `from` on, changed after `sinceScn`, in a reported state. */
export interface OrderPageQuery extends OrderParty {
  from: number;
  limit: number;
  sinceScn: number;
  state?: OrderState;
}

/** A page of the state feed (docs/orders.md, "The state feeds"). */
export interface HistoryPageQuery extends OrderParty {
  /** Moves with an SCN above this one... */
  sinceScn: number;
  /** ...and in the transaction just after it (SCN sinceScn + 1) from this history id on... */
  fromId: number;
  /** ...up to the reader's SCN (every transaction up to it has ended). */
  upToScn: number;
  limit: number;
}

/** Newest first: an order's position in a party's history (decision 29's way for messages). */
export function historyPosition(orderNo: number): number {
  return MAX_INT32 - orderNo;
}

const partyColumn = (channel: 'B2B' | 'B2C') => (channel === 'B2B' ? 'o.customer_no' : 'o.client_no');

/**
 * The reported state of docs/orders.md as a condition on the order and its lines: the same rule as
 * `derivedState` (rules/line-counters.ts), which the reads test against each other. The delivery
 * states are never stored, so they are asked of the lines (by their primary key).
 */
function reportedStateIs(eb: ExpressionBuilder<DB & { o: SalesOrderTable }, 'o'>, state: OrderState) {
  const lines = () =>
    eb.selectFrom('sales_order_line as l').select('l.line_no').whereRef('l.order_no', '=', 'o.order_no');
  const delivered = eb.exists(lines().where('l.delivered', '>', 0));
  const open = eb.exists(lines().where(sql<number>`l.ordered - l.cancelled - l.delivered`, '>', 0));
  const underDelivery = eb('o.state', 'in', ['CONFIRMED', 'PICKING']);
  switch (state) {
    case 'CONFIRMED':
    case 'PICKING':
      return eb.and([eb('o.state', '=', state), eb.not(delivered)]);
    case 'PARTIALLY_DELIVERED':
      return eb.and([underDelivery, delivered, open]);
    case 'DELIVERED':
      return eb.and([underDelivery, delivered, eb.not(open)]);
    default:
      return eb('o.state', '=', state) as ReturnType<typeof eb.and>;
  }
}

/**
 * The reads of orders and of their state moves (docs/orders.md, "Reading orders and the state
 * feeds"). Orders are never deleted, so their number is their paging position; history rows are
 * never changed, and the feed pages them by (SCN, id) up to the reader's SCN, so a move is answered
 * exactly once.
 */
export class OrderReadRepository {
  readonly db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.db = db;
  }

  /** One order of a channel (of one party when `partyNo` is given), or undefined. */
  orderOf(party: OrderParty, orderNo: number): Promise<ReadOrderRow | undefined> {
    return this.db
      .selectFrom('sales_order as o')
      .selectAll('o')
      .where('o.order_no', '=', orderNo)
      .where('o.channel', '=', party.channel)
      .$if(party.partyNo !== undefined, (q) => q.where(partyColumn(party.channel), '=', party.partyNo!))
      .executeTakeFirst();
  }

  /** The order of a party with that reference of its own, or undefined. */
  orderByWeborder(party: Required<OrderParty>, weborder: string): Promise<ReadOrderRow | undefined> {
    return this.db
      .selectFrom('sales_order as o')
      .selectAll('o')
      .where(partyColumn(party.channel), '=', party.partyNo)
      .where('o.weborder', '=', weborder)
      .executeTakeFirst();
  }

  /**
   * Orders by number from `from` on (`limit` rows: the caller asks one more than it shows), of the
   * channel and party, changed after `sinceScn` (0: all), in the reported `state` when given.
   */
  ordersPage(q: OrderPageQuery): Promise<ReadOrderRow[]> {
    return this.db
      .selectFrom('sales_order as o')
      .selectAll('o')
      .where('o.order_no', '>=', q.from)
      .where('o.channel', '=', q.channel)
      .$if(q.partyNo !== undefined, (b) => b.where(partyColumn(q.channel), '=', q.partyNo!))
      .$if(q.sinceScn > 0, (b) => b.where(changedAfter('o.scn', q.sinceScn)))
      .$if(q.state !== undefined, (b) => b.where((eb) => reportedStateIs(eb, q.state!)))
      .orderBy('o.order_no')
      .limit(q.limit)
      .execute();
  }

  /** A party's orders newest first, from position `from` (historyPosition) on, `limit` rows. */
  partyHistory(party: Required<OrderParty>, from: number, limit: number): Promise<ReadOrderRow[]> {
    return this.db
      .selectFrom('sales_order as o')
      .selectAll('o')
      .where(partyColumn(party.channel), '=', party.partyNo)
      .where('o.order_no', '<=', MAX_INT32 - from)
      .where('o.channel', '=', party.channel)
      .orderBy('o.order_no', 'desc')
      .limit(limit)
      .execute();
  }

  /** The lines of the given orders, by order and line number. */
  async linesOfOrders(orderNos: readonly number[]): Promise<ReadLineRow[]> {
    if (orderNos.length === 0) return [];
    return this.db
      .selectFrom('sales_order_line')
      .selectAll()
      .where('order_no', 'in', [...orderNos])
      .orderBy('order_no')
      .orderBy('line_no')
      .execute();
  }

  /** The VAT rows of the given orders, by order and rate. */
  async vatOfOrders(orderNos: readonly number[]): Promise<ReadVatRow[]> {
    if (orderNos.length === 0) return [];
    return this.db
      .selectFrom('sales_order_vat')
      .selectAll()
      .where('order_no', 'in', [...orderNos])
      .orderBy('order_no')
      .orderBy('vat_bp')
      .execute();
  }

  /**
   * State moves of the channel (and party) after the cursor (`sinceScn`, `fromId`) up to
   * `upToScn`, in (SCN, id) order, `limit` rows. Rows of one transaction share its SCN; the cursor
   * resumes inside the transaction just after `sinceScn` at history id `fromId`.
   */
  historyPage(q: HistoryPageQuery): Promise<HistoryRow[]> {
    const next = q.sinceScn + 1;
    return this.db
      .selectFrom('order_history as h')
      .innerJoin('sales_order as o', 'o.order_no', 'h.order_no')
      .selectAll('h')
      .select(['o.weborder', 'o.customer_no', 'o.client_no'])
      .where(changedAfter('h.scn', q.sinceScn))
      .where('h.scn', '<=', q.upToScn)
      .where((eb) => eb.or([eb('h.scn', '<>', next), eb('h.id', '>=', q.fromId)]))
      .where('o.channel', '=', q.channel)
      .$if(q.partyNo !== undefined, (b) => b.where(partyColumn(q.channel), '=', q.partyNo!))
      .orderBy('h.scn')
      .orderBy('h.id')
      .limit(q.limit)
      .execute();
  }
}
