import type { RepositorySqlExamples } from '../../kernel/db/sql-examples.ts';
import { sqlExamplesOf } from '../../kernel/db/sql-examples.ts';
import { DeliveryRepository } from './delivery-repository.ts';
import { OrderTenderRepository } from './order-tender-repository.ts';
import { ReturnRepository } from './return-repository.ts';

const AT = '2026-03-03T14:00:00.000Z';

const DELIVERY = {
  order_no: 1,
  customer_no: 10001,
  client_no: null,
  location_code: 'WH1',
  reference: 'DN-1',
  cancelled: 0,
  scn: 9,
  created_at: AT,
  updated_at: AT,
};

const RETURN = {
  order_no: 1,
  location_code: 'WH1',
  state: 'AUTHORISED' as const,
  reason: 'too small',
  reference: null,
  scn: 11,
  created_at: AT,
  updated_at: AT,
};

/** Example calls of the deliveries' and returns' repositories (the seed of sql-examples.ts: order 1 of customer 10001). */
export const AFTER_SALES_SQL_EXAMPLES: RepositorySqlExamples[] = [
  sqlExamplesOf(DeliveryRepository, {
    insertDelivery: (r) => r.insertDelivery(DELIVERY),
    // The delivery first (its lines refer to it): both statements are recorded.
    insertLines: async (r) => {
      const no = await r.insertDelivery(DELIVERY);
      await r.insertLines([{ delivery_no: no, line_no: 1, quantity: 1 }]);
    },
    findDelivery: (r) => r.findDelivery(1),
    linesOf: (r) => r.linesOf(1),
    claimCancel: (r) => r.claimCancel(1, 10, AT),
    page: {
      all: (r) => r.page({}, 1, 101),
      customer: (r) => r.page({ customerNo: 10001 }, 1, 101),
      order: (r) => r.page({ orderNo: 1 }, 1, 101),
    },
    linesOfDeliveries: (r) => r.linesOfDeliveries([1, 2]),
  }),
  sqlExamplesOf(ReturnRepository, {
    insertReturn: (r) => r.insertReturn(RETURN),
    insertLines: async (r) => {
      const no = await r.insertReturn(RETURN);
      await r.insertLines([{ return_no: no, line_no: 1, quantity: 1, received: 0 }]);
    },
    findReturn: (r) => r.findReturn(1),
    linesOf: (r) => r.linesOf(1),
    openAuthorised: (r) => r.openAuthorised(1),
    claimReceipt: (r) => r.claimReceipt(1, 12, AT),
    markLinesReceived: (r) => r.markLinesReceived(1),
  }),
  sqlExamplesOf(OrderTenderRepository, {
    insertTenders: (r) =>
      r.insertTenders([
        {
          order_no: 1,
          line_no: 1,
          kind: 'GIFT_VOUCHER',
          code: '8K2M9QX4P8R3TZ5H4',
          tender_id: 1,
          amount: 1_000,
        },
      ]),
    tendersOf: (r) => r.tendersOf(1),
    tendersOfOrders: (r) => r.tendersOfOrders([1, 2]),
    addRefunded: (r) => r.addRefunded(1, 1, 500),
    setBonusEarned: (r) => r.setBonusEarned(1, 120),
  }),
];
