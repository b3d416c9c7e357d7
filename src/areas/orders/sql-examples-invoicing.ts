import type { RepositorySqlExamples } from '../../kernel/db/sql-examples.ts';
import { sqlExamplesOf } from '../../kernel/db/sql-examples.ts';
import { InvoicingRepository } from './invoicing-repository.ts';

/** Example calls of billing's reads of deliveries (the seed of sql-examples.ts: order 1 of customer 10001). */
export const INVOICING_SQL_EXAMPLES: RepositorySqlExamples[] = [
  sqlExamplesOf(InvoicingRepository, {
    deliveredLines: {
      standing: (r) => r.deliveredLines(10001),
      'with cancelled': (r) => r.deliveredLines(10001, true),
    },
    receivedReturns: (r) => r.receivedReturns([1]),
    customersWithDeliveries: (r) => r.customersWithDeliveries(0, 500),
  }),
];
