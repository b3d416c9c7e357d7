import type { Config } from '../../config.ts';
import type { Database } from '../../kernel/db/database.ts';
import { currentScn } from '../../kernel/db/unit-of-work.ts';
import { NotFoundError } from '../../kernel/errors.ts';
import { splitPage } from '../../kernel/feed-page.ts';
import type { Page } from '../../kernel/paging.ts';
import type { Services } from '../../kernel/services.ts';
import { ORDERS_ERRORS } from './errors.ts';
import {
  historyPosition,
  type OrderParty,
  OrderReadRepository,
  type ReadLineRow,
  type ReadOrderRow,
} from './order-read-repository.ts';
import { OrderTenderRepository } from './order-tender-repository.ts';
import {
  type ArticleTexts,
  articleTextsOf,
  byOrder,
  clientOrder,
  getOrderItem,
  orderHistoryItem,
  orderStateItem,
  reportedState,
  stateChange,
} from './order-wire.ts';
import type { OrderState } from './rules/states.ts';

/** Which orders a list read asks for: one order, or a page of them; and optionally one reported state. */
export interface OrderSelection {
  orderNo?: number;
  page: Page;
  state?: OrderState;
}

/**
 * Reads of orders and the order state feeds (docs/orders.md, "Reading orders and the state feeds").
 * Every read sees one channel and, for a confined token or a named party, one party; an order of
 * another party is not found (404 ORDER_NOT_FOUND: a number tells nothing about other parties).
 */
export class OrderReadService {
  readonly database: Database;
  readonly config: Config;
  readonly all: Services;
  readonly now: () => Date;
  readonly #read: OrderReadRepository;

  constructor(database: Database, config: Config, all: Services, now: () => Date = () => new Date()) {
    this.database = database;
    this.config = config;
    this.all = all;
    this.now = now;
    this.#read = new OrderReadRepository(database.db);
  }

  /** B2B_GetOrder: whole orders (lines per article with the catalog's texts, VAT, addresses). */
  async getOrders(party: OrderParty, selection: OrderSelection) {
    const { scn, nextOffset, orders } = await this.#select(party, selection);
    const nos = orders.map((o) => Number(o.order_no));
    const lines = byOrder(await this.#read.linesOfOrders(nos));
    const vat = byOrder(await this.#read.vatOfOrders(nos));
    const texts = await this.#texts([...lines.values()].flat());
    return {
      scn,
      nextOffset,
      items: orders.map((o) =>
        getOrderItem(o, lines.get(Number(o.order_no)) ?? [], vat.get(Number(o.order_no)) ?? [], texts),
      ),
    };
  }

  /** B2B_GetOrderState: the orders' reported states with their quantities summed. */
  async orderStates(party: OrderParty, selection: OrderSelection) {
    const { scn, nextOffset, orders } = await this.#select(party, selection);
    const lines = byOrder(await this.#read.linesOfOrders(orders.map((o) => Number(o.order_no))));
    return {
      scn,
      nextOffset,
      items: orders.map((o) => orderStateItem(o, lines.get(Number(o.order_no)) ?? [])),
    };
  }

  /** B2B_GetOrderHistory: a customer's orders, newest first (position: historyPosition). */
  async customerHistory(customerNo: number, page: { offset: number; limit: number }) {
    const { orders, nextOffset } = await this.#newestFirst({ channel: 'B2B', partyNo: customerNo }, page);
    const lines = byOrder(await this.#read.linesOfOrders(orders.map((o) => Number(o.order_no))));
    return {
      nextOffset,
      items: orders.map((o) => orderHistoryItem(o, lines.get(Number(o.order_no)) ?? [])),
    };
  }

  /**
   * B2C_GetOrderState: one order of the client (by our number or the client's WEBORDER; 404
   * ORDER_NOT_FOUND when the client has none such), or its orders newest first.
   */
  async clientOrders(
    clientNo: number,
    ask: { orderNo?: number; weborder?: string; page: { offset: number; limit: number } },
  ) {
    const party = { channel: 'B2C' as const, partyNo: clientNo };
    let orders: ReadOrderRow[];
    let nextOffset: number | null = null;
    if (ask.orderNo !== undefined || ask.weborder !== undefined) {
      const found =
        ask.orderNo !== undefined
          ? await this.#read.orderOf(party, ask.orderNo)
          : await this.#read.orderByWeborder(party, ask.weborder!);
      if (!found || (ask.weborder !== undefined && found.weborder !== ask.weborder)) {
        throw notFound(ask.orderNo !== undefined ? `order ${ask.orderNo}` : `WEBORDER "${ask.weborder}"`);
      }
      orders = [found];
    } else {
      ({ orders, nextOffset } = await this.#newestFirst(party, ask.page));
    }
    const lines = byOrder(await this.#read.linesOfOrders(orders.map((o) => Number(o.order_no))));
    const paidWith = orders.filter((o) => Number(o.tenders_paid) > 0).map((o) => Number(o.order_no));
    const tenders = byOrder(await new OrderTenderRepository(this.database.db).tendersOfOrders(paidWith));
    return {
      nextOffset,
      items: orders.map((o) =>
        clientOrder(o, lines.get(Number(o.order_no)) ?? [], tenders.get(Number(o.order_no)) ?? []),
      ),
    };
  }

  /**
   * B2B_/B2C_GetOrderStateChanges: the state moves after the cursor, each exactly once
   * (docs/orders.md, "The state feeds"). The reader's SCN is read first and bounds the page: every
   * move up to it has committed or rolled back, so a later page never meets an earlier move.
   */
  async stateChanges(party: OrderParty, cursor: { sinceScn: number; fromId: number; limit: number }) {
    const upToScn = await currentScn(this.database.db);
    const rows = await this.#read.historyPage({ ...party, ...cursor, upToScn, limit: cursor.limit + 1 });
    const shown = rows.slice(0, cursor.limit);
    const extra = rows[cursor.limit];
    return {
      // More than a page: resume at the first move not shown, inside its transaction.
      scn: extra ? Number(extra.scn) - 1 : Math.max(upToScn, cursor.sinceScn),
      nextOffset: extra ? Number(extra.id) : null,
      items: shown.map((h) => stateChange(h, party.channel)),
    };
  }

  async #select(party: OrderParty, s: OrderSelection) {
    const scn = await currentScn(this.database.db);
    if (s.orderNo !== undefined) {
      const order = await this.#read.orderOf(party, s.orderNo);
      if (!order) throw notFound(`order ${s.orderNo}`);
      const changed = s.page.sinceScn === 0 || Number(order.scn) > s.page.sinceScn;
      const inState =
        s.state === undefined ||
        reportedState(order, await this.#read.linesOfOrders([s.orderNo])) === s.state;
      return { scn, nextOffset: null, orders: changed && inState ? [order] : [] };
    }
    const rows = await this.#read.ordersPage({
      ...party,
      from: s.page.offset,
      limit: s.page.limit + 1,
      sinceScn: s.page.sinceScn,
      state: s.state,
    });
    const { rows: orders, nextOffset } = splitPage(rows, s.page, (o) => Number(o.order_no));
    return { scn, nextOffset, orders };
  }

  async #newestFirst(party: Required<OrderParty>, page: { offset: number; limit: number }) {
    const rows = await this.#read.partyHistory(party, page.offset, page.limit + 1);
    const { rows: orders, nextOffset } = splitPage(rows, page, (o) => historyPosition(Number(o.order_no)));
    return { orders, nextOffset };
  }

  /** The catalog's texts of the lines' articles (empty for an article deleted since the order). */
  async #texts(lines: readonly ReadLineRow[]): Promise<Map<string, ArticleTexts>> {
    const texts = new Map<string, ArticleTexts>();
    for (const articleNo of new Set(lines.map((l) => l.article_no))) {
      let json: string | undefined;
      try {
        json = await this.all.catalog.articleJson('B2B', { articleNo });
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
      }
      texts.set(articleNo, articleTextsOf(json));
    }
    return texts;
  }
}

const notFound = (what: string) => ORDERS_ERRORS.ORDER_NOT_FOUND(`No ${what} (for this party).`);
