import { Type } from 'typebox';
import type { Principal } from '../../kernel/access/principal.ts';
import { clientScope, confinedClient, customerScope } from '../../kernel/access.ts';
import { ValidationError } from '../../kernel/errors.ts';
import { MAX_SAFE_INT } from '../../kernel/int-limits.ts';
import { operation } from '../../kernel/operation.ts';
import {
  digits,
  type PageLimits,
  pageParams,
  positiveDigits,
  queryObject,
  text,
  toPage,
} from '../../kernel/params.ts';
import { rooted } from '../../kernel/schemas.ts';
import {
  ClientOrderStateAnswer,
  GetOrderAnswer,
  OrderHistoryAnswer,
  OrderStateAnswer,
  StateChangesAnswer,
} from './read-schemas.ts';
import { ORDER_STATES, type OrderState } from './rules/states.ts';

/** Page sizes of the order reads (docs/orders.md, "Reading orders and the state feeds"). */
const GET_ORDER_PAGE: PageLimits = { defaultLimit: 10, maxLimit: 100 };
const ORDER_STATE_PAGE: PageLimits = { defaultLimit: 1, maxLimit: 1000 };
const HISTORY_PAGE: PageLimits = { defaultLimit: 20, maxLimit: 200 };
const FEED_PAGE: PageLimits = { defaultLimit: 100, maxLimit: 1000 };

const strcustomer = (mandatory: boolean) => {
  const d = digits(
    '0: the orders of all customers (an unconfined token); >0: that customer only. A token confined to a customer sees its own (0 or its number; another is 403 OUTSIDE_SCOPE).',
  );
  return mandatory ? d : Type.Optional(d);
};
const strorderno = Type.Optional(
  digits(
    'Non-zero: only that order number (404 ORDER_NOT_FOUND when this party has no such order); 0 (default): all, by offset and limit.',
    '0',
    MAX_SAFE_INT,
  ),
);
const strscn = (mandatory: boolean) => {
  const d = digits('Only orders changed after this SCN (0: all).', mandatory ? undefined : '0', MAX_SAFE_INT);
  return mandatory ? d : Type.Optional(d);
};
const optionalNo = (v: string | undefined) => (v === undefined || Number(v) === 0 ? undefined : Number(v));

const ORDER_PAGING =
  'Pages by our order number (orders are never deleted): stroffset is an order number to start from, and ' +
  'NEXTOFFSET the number of the first order not shown (pass it back as it is; null on the last page). ' +
  'SCN is read before the orders: keep the SCN of the first page of a pass and pass it as strscn next time ' +
  '(an order changed during the pass may come again; never one missed).';
const CONFINED =
  'A token confined to a customer sees its own orders only: another customer number is 403 OUTSIDE_SCOPE, ' +
  'an order number of another party 404 ORDER_NOT_FOUND.';

/** The customers a B2B read asks for: a confined token's own, a named one, or all (undefined). */
function customersOf(principal: Principal | null, requested: string | undefined): number | undefined {
  return customerScope(principal, requested === undefined ? undefined : Number(requested));
}

const stateQuery = {
  strcustomer: strcustomer(true),
  stroffset: pageParams(ORDER_STATE_PAGE).stroffset,
  strlimit: pageParams(ORDER_STATE_PAGE).strlimit,
  strscn: strscn(true),
  strorderno,
  strorderstatus: Type.Optional(
    Type.Union(
      ORDER_STATES.map((s) => Type.Literal(s)),
      { description: 'Only orders in this reported state; absent (default null): any state.' },
    ),
  ),
};

const B2B_GetOrderState = operation({
  name: 'B2B_GetOrderState',
  method: 'GET',
  audience: 'B2B',
  area: 'Orders',
  summary: 'State of one order',
  description:
    'The reported state of wholesale orders (derived from the line counters: PARTIALLY_DELIVERED and ' +
    'DELIVERED are read off the deliveries) with the quantities of each order summed over its lines ' +
    '(B2B_GetOrder has them per size). The parameters are the documented table: strcustomer and strscn ' +
    `mandatory, stroffset 1 and strlimit 1 by default (at most ${ORDER_STATE_PAGE.maxLimit}), strorderno 0 ` +
    `for all, strorderstatus for one state. ${ORDER_PAGING} ${CONFINED}`,
  query: queryObject(stateQuery),
  response: rooted('B2BGETORDERSTATE', OrderStateAnswer),
  async handler({ query, principal, services }) {
    const customerNo = customersOf(principal, query.strcustomer);
    const page = await services.orders.reads.orderStates(
      { channel: 'B2B', partyNo: customerNo },
      {
        orderNo: optionalNo(query.strorderno),
        page: toPage(query, ORDER_STATE_PAGE),
        state: query.strorderstatus as OrderState | undefined,
      },
    );
    return { B2BGETORDERSTATE: { SCN: page.scn, NEXTOFFSET: page.nextOffset, ORDERS: page.items } };
  },
});

const B2B_GetOrder = operation({
  name: 'B2B_GetOrder',
  method: 'GET',
  audience: 'B2B',
  area: 'Orders',
  summary: 'One order',
  description:
    'Wholesale orders whole, in the documented B2BGETORDER shape: header (AFTERTERM the payment days, the ' +
    'customer discount, freight, the delivery and invoice addresses as they were at placement, MYSQLODERNO ' +
    'our order number), ORDERDETAILS per article with the catalog’s texts and ORDERSIZES per size (prices ' +
    'and the rule that made them, the line counters), then WEBORDER, the derived STATE, totals, the VAT ' +
    'breakdown and SCN. strorderno gives one order; otherwise strcustomer (0: all customers, for an ' +
    `unconfined token) by stroffset/strlimit (default ${GET_ORDER_PAGE.defaultLimit}, at most ` +
    `${GET_ORDER_PAGE.maxLimit}), strscn for orders changed after it. ${ORDER_PAGING} ${CONFINED}`,
  query: queryObject({
    strcustomer: strcustomer(false),
    strorderno,
    ...pageParams(GET_ORDER_PAGE),
    strscn: strscn(false),
  }),
  response: rooted('B2BGETORDER', GetOrderAnswer),
  async handler({ query, principal, services }) {
    const customerNo = customersOf(principal, query.strcustomer);
    const page = await services.orders.reads.getOrders(
      { channel: 'B2B', partyNo: customerNo },
      { orderNo: optionalNo(query.strorderno), page: toPage(query, GET_ORDER_PAGE) },
    );
    return { B2BGETORDER: { SCN: page.scn, NEXTOFFSET: page.nextOffset, ORDERS: page.items } };
  },
});

const B2B_GetOrderHistory = operation({
  name: 'B2B_GetOrderHistory',
  method: 'GET',
  audience: 'B2B',
  area: 'Orders',
  summary: 'Order history',
  description:
    'A customer’s orders, newest first, with the derived state, the quantities summed over the lines and ' +
    'the totals. strcustomer is required unless the token is confined to a customer (then its own). Pages ' +
    'by stable position: stroffset 1 starts at the newest, NEXTOFFSET is the position of the next (older) ' +
    `order, passed back as it is (default ${HISTORY_PAGE.defaultLimit}, at most ${HISTORY_PAGE.maxLimit}); ` +
    `orders placed during a pass come first in the next one. ${CONFINED}`,
  query: queryObject({
    strcustomer: strcustomer(false),
    stroffset: pageParams(HISTORY_PAGE).stroffset,
    strlimit: pageParams(HISTORY_PAGE).strlimit,
  }),
  response: rooted('B2BGETORDERHISTORY', OrderHistoryAnswer),
  async handler({ query, principal, services }) {
    const customerNo = customersOf(principal, query.strcustomer);
    if (customerNo === undefined) {
      throw new ValidationError([{ name: 'strcustomer', message: 'give the customer number' }]);
    }
    const { offset, limit } = toPage(query, HISTORY_PAGE);
    const page = await services.orders.reads.customerHistory(customerNo, { offset, limit });
    return {
      B2BGETORDERHISTORY: { CUSTOMER: customerNo, NEXTOFFSET: page.nextOffset, ORDERS: page.items },
    };
  },
});

const B2C_GetOrderState = operation({
  name: 'B2C_GetOrderState',
  method: 'GET',
  audience: 'B2C',
  area: 'Orders',
  summary: 'State of one order',
  description:
    'A retail client’s web orders with their derived state and their lines (ordered, cancelled, delivered, ' +
    'returned and open per size): one order by strorderno (our number) or strweborder (the client’s ' +
    'reference), 404 ORDER_NOT_FOUND when the client has none such; without either the client’s orders ' +
    'newest first, paged by stable position (stroffset 1 the newest, NEXTOFFSET passed back as it is; ' +
    `default ${HISTORY_PAGE.defaultLimit}, at most ${HISTORY_PAGE.maxLimit}). strclient is required unless ` +
    'the token is confined to a client (then its own; another client is 403 OUTSIDE_SCOPE).',
  query: queryObject({
    strclient: Type.Optional(digits('Client number (a confined token: its own, 0 or absent).')),
    strorderno,
    strweborder: Type.Optional(text('The client’s reference of the order (WEBORDER).', 50)),
    stroffset: pageParams(HISTORY_PAGE).stroffset,
    strlimit: pageParams(HISTORY_PAGE).strlimit,
  }),
  response: rooted('B2CGETORDERSTATE', ClientOrderStateAnswer),
  async handler({ query, principal, services }) {
    const clientNo = clientScope(principal, optionalNo(query.strclient));
    const { offset, limit } = toPage(query, HISTORY_PAGE);
    const page = await services.orders.reads.clientOrders(clientNo, {
      orderNo: optionalNo(query.strorderno),
      weborder: query.strweborder,
      page: { offset, limit },
    });
    return { B2CGETORDERSTATE: { CLIENT: clientNo, NEXTOFFSET: page.nextOffset, ORDERS: page.items } };
  },
});

const FEED_NOTE =
  'Every state move of an order (its placement included), each exactly once, in the order of their SCN: ' +
  'pass the SCN and NEXTOFFSET of the last page as strscn and stroffset; when NEXTOFFSET is null nothing ' +
  'more has committed, and the next sync passes that SCN with stroffset 1. A move is answered only once ' +
  'every move before it has committed, so none is ever missed or answered twice, also with concurrent ' +
  `writers. strlimit default ${FEED_PAGE.defaultLimit}, at most ${FEED_PAGE.maxLimit}.`;

function stateChanges(name: 'B2B_GetOrderStateChanges' | 'B2C_GetOrderStateChanges') {
  const b2b = name.startsWith('B2B');
  return operation({
    name,
    method: 'GET',
    audience: b2b ? 'B2B' : 'B2C',
    area: 'Orders',
    summary: 'Order state changes',
    description: b2b
      ? `The state moves of wholesale orders. ${FEED_NOTE} strcustomer 0 (default): all customers; a token ` +
        'confined to a customer sees its own (another is 403 OUTSIDE_SCOPE).'
      : `The state moves of retail web orders. ${FEED_NOTE} strclient 0 (default): all clients; a token ` +
        'confined to a client sees its own (another is 403 OUTSIDE_SCOPE).',
    query: queryObject({
      ...(b2b
        ? { strcustomer: strcustomer(false) }
        : { strclient: Type.Optional(digits('0 (default): all clients; >0: that client only.')) }),
      strscn: digits(
        'The SCN of the last page read (required; 0 for every move ever).',
        undefined,
        MAX_SAFE_INT,
      ),
      stroffset: Type.Optional(
        positiveDigits(
          'The NEXTOFFSET of the last page, with its SCN; 1 (default) after a page whose NEXTOFFSET was null.',
          '1',
          MAX_SAFE_INT,
        ),
      ),
      strlimit: pageParams(FEED_PAGE).strlimit,
    }),
    response: rooted(b2b ? 'B2BGETORDERSTATECHANGES' : 'B2CGETORDERSTATECHANGES', StateChangesAnswer),
    async handler({ query, principal, services }) {
      const q = query as { strcustomer?: string; strclient?: string; strscn: string; stroffset?: string };
      const partyNo = b2b ? customersOf(principal, q.strcustomer) : clientsOf(principal, q.strclient);
      const page = toPage({ strscn: q.strscn, strlimit: query.strlimit }, FEED_PAGE);
      const fromId = Number(q.stroffset ?? '1');
      if (fromId < 1) throw new ValidationError([{ name: 'stroffset', message: 'must be 1 or more' }]);
      const changes = await services.orders.reads.stateChanges(
        { channel: b2b ? 'B2B' : 'B2C', partyNo },
        { sinceScn: page.sinceScn, fromId, limit: page.limit },
      );
      return {
        [b2b ? 'B2BGETORDERSTATECHANGES' : 'B2CGETORDERSTATECHANGES']: {
          SCN: changes.scn,
          NEXTOFFSET: changes.nextOffset,
          CHANGES: changes.items,
        },
      };
    },
  });
}

/** The clients a B2C feed reads: a confined token's own, a named one, or all (undefined). */
function clientsOf(principal: Principal | null, requested: string | undefined): number | undefined {
  const asked = optionalNo(requested);
  if (asked === undefined && confinedClient(principal) === null) return undefined;
  return clientScope(principal, asked);
}

const B2B_GetOrderStateChanges = stateChanges('B2B_GetOrderStateChanges');
const B2C_GetOrderStateChanges = stateChanges('B2C_GetOrderStateChanges');

/** The order reads and the order state feeds (built by issue 11's read part). */
export const ORDER_READ_OPERATIONS = [
  B2C_GetOrderStateChanges,
  B2C_GetOrderState,
  B2B_GetOrderHistory,
  B2B_GetOrderStateChanges,
  B2B_GetOrderState,
  B2B_GetOrder,
];
