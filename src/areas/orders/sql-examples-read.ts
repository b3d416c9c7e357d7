import type { RepositorySqlExamples } from '../../kernel/db/sql-examples.ts';
import { sqlExamplesOf } from '../../kernel/db/sql-examples.ts';
import { OrderReadRepository } from './order-read-repository.ts';

/** Example calls of the orders' read repositories (the seed of sql-examples.ts: order 1 of customer 10001). */
export const READ_SQL_EXAMPLES: RepositorySqlExamples[] = [
  sqlExamplesOf(OrderReadRepository, {
    orderOf: {
      'any customer': (r) => r.orderOf({ channel: 'B2B' }, 1),
      'one customer': (r) => r.orderOf({ channel: 'B2B', partyNo: 10001 }, 1),
    },
    orderByWeborder: (r) => r.orderByWeborder({ channel: 'B2C', partyNo: 100001 }, 'W-1'),
    ordersPage: {
      'all customers': (r) => r.ordersPage({ channel: 'B2B', from: 1, limit: 11, sinceScn: 0 }),
      'one customer': (r) =>
        r.ordersPage({ channel: 'B2B', partyNo: 10001, from: 1, limit: 11, sinceScn: 0 }),
      'changed after an SCN': (r) => r.ordersPage({ channel: 'B2B', from: 1, limit: 11, sinceScn: 6 }),
      'one customer, changed after an SCN': (r) =>
        r.ordersPage({ channel: 'B2B', partyNo: 10001, from: 1, limit: 2, sinceScn: 6 }),
      'in a stored state': (r) =>
        r.ordersPage({ channel: 'B2B', partyNo: 10001, from: 1, limit: 2, sinceScn: 0, state: 'CONFIRMED' }),
      'in a derived state': (r) =>
        r.ordersPage({ channel: 'B2B', from: 1, limit: 2, sinceScn: 6, state: 'PARTIALLY_DELIVERED' }),
      delivered: (r) => r.ordersPage({ channel: 'B2B', from: 1, limit: 2, sinceScn: 0, state: 'DELIVERED' }),
      new: (r) => r.ordersPage({ channel: 'B2B', from: 1, limit: 2, sinceScn: 0, state: 'NEW' }),
    },
    partyHistory: {
      customer: (r) => r.partyHistory({ channel: 'B2B', partyNo: 10001 }, 1, 21),
      client: (r) => r.partyHistory({ channel: 'B2C', partyNo: 100001 }, 1, 21),
    },
    linesOfOrders: (r) => r.linesOfOrders([1, 2]),
    vatOfOrders: (r) => r.vatOfOrders([1, 2]),
    historyPage: {
      'all customers': (r) =>
        r.historyPage({ channel: 'B2B', sinceScn: 0, fromId: 1, upToScn: 100, limit: 101 }),
      'one client, inside a transaction': (r) =>
        r.historyPage({ channel: 'B2C', partyNo: 100001, sinceScn: 6, fromId: 3, upToScn: 100, limit: 101 }),
    },
  }),
];
