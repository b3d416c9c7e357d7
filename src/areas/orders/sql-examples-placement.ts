import { type RepositorySqlExamples, sqlExamplesOf } from '../../kernel/db/sql-examples.ts';
import type { NewOrderRow, OrderLineRow } from './order-repository.ts';
import { PlacementRepository } from './placement-repository.ts';

/**
 * Example calls of the placement's repository (the seed of sql-examples.ts: order 1 of customer
 * 10001, reference PO-2026-0042, one line). `order` and `line` are sql-examples.ts's own examples.
 */
export function placementSqlExamples(
  order: (overrides?: Partial<NewOrderRow>) => NewOrderRow,
  line: (orderNo: number, lineNo: number) => OrderLineRow,
): RepositorySqlExamples[] {
  return [
    sqlExamplesOf(PlacementRepository, {
      claimOrder: {
        wholesale: (r) => r.claimOrder(order({ weborder: 'PO-2026-0043' })),
        retail: (r) =>
          r.claimOrder(order({ channel: 'B2C', customer_no: null, client_no: 100001, weborder: 'W-1' })),
      },
      referenceOf: {
        wholesale: (r) => r.referenceOf('B2B', 10001, 'PO-2026-0042'),
        retail: (r) => r.referenceOf('B2C', 100001, 'W-1'),
      },
      insertLines: {
        'one line': (r) => r.insertLines([line(1, 2)]),
        'two lines': (r) => r.insertLines([line(1, 3), line(1, 4)]),
      },
      insertVat: (r) => r.insertVat([{ order_no: 1, vat_bp: 600, net: 1000, vat: 60, gross: 1060 }]),
      insertHistory: (r) =>
        r.insertHistory({
          order_no: 1,
          from_state: null,
          to_state: 'NEW',
          action: 'place',
          actor: 'CUSTOMER',
          reference: null,
          scn: 8,
          at: '2026-03-02T09:30:00.000Z',
        }),
    }),
  ];
}
