import type { KyselyPlugin, RootOperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planProblems } from '../../../../scripts/sql-snapshots.ts';
import { ENGINE, startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { OrderReadRepository } from '../order-read-repository.ts';

/**
 * Every list and feed of the order reads is an index range read, whatever the number of orders:
 * checked on the plans (EXPLAIN) of the statements the repository runs, as `npm run sql:snapshot`
 * checks the pages by `pos` and the feeds (it does not see pages by order number, so they are
 * checked here). Empty tables: the planner knows nothing of their size, as on a new database.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const CALLS: Record<string, (r: OrderReadRepository) => Promise<unknown>> = {
  'orders of all customers': (r) => r.ordersPage({ channel: 'B2B', from: 1, limit: 11, sinceScn: 0 }),
  'orders of one customer': (r) =>
    r.ordersPage({ channel: 'B2B', partyNo: 10001, from: 5, limit: 11, sinceScn: 0 }),
  'orders changed after an SCN': (r) => r.ordersPage({ channel: 'B2B', from: 1, limit: 11, sinceScn: 6 }),
  'orders of one customer in a derived state': (r) =>
    r.ordersPage({ channel: 'B2B', partyNo: 10001, from: 1, limit: 11, sinceScn: 0, state: 'DELIVERED' }),
  'orders of all customers in a stored state': (r) =>
    r.ordersPage({ channel: 'B2B', from: 1, limit: 11, sinceScn: 0, state: 'CONFIRMED' }),
  'a customer’s history': (r) => r.partyHistory({ channel: 'B2B', partyNo: 10001 }, 1, 21),
  'a client’s orders': (r) => r.partyHistory({ channel: 'B2C', partyNo: 100001 }, 7, 21),
  'lines of a page': (r) => r.linesOfOrders([1, 2, 3]),
  'VAT of a page': (r) => r.vatOfOrders([1, 2, 3]),
  'state feed': (r) => r.historyPage({ channel: 'B2B', sinceScn: 0, fromId: 1, upToScn: 100, limit: 101 }),
  'state feed of one client': (r) =>
    r.historyPage({ channel: 'B2C', partyNo: 100001, sinceScn: 6, fromId: 3, upToScn: 100, limit: 101 }),
};

describe('order read plans', () => {
  for (const [name, call] of Object.entries(CALLS)) {
    it(`${name}: an index range read (${ENGINE})`, async () => {
      const nodes: RootOperationNode[] = [];
      const capture: KyselyPlugin = {
        transformQuery: (args) => {
          nodes.push(args.node);
          return args.node;
        },
        transformResult: async (args) => args.result,
      };
      const db = t.database.db.withPlugin(capture);
      await call(new OrderReadRepository(db));
      expect(nodes).toHaveLength(1);
      const compiled = db.getExecutor().compileQuery(nodes[0]!, { queryId: name });
      await t.database.db.transaction().execute(async (trx) => {
        const problems = await planProblems(trx, ENGINE, {
          sql: compiled.sql,
          parameters: compiled.parameters,
        });
        expect(problems, compiled.sql).toEqual([]);
      });
    });
  }
});
