import type { AreaSqlExamples } from '../../kernel/db/sql-examples.ts';
import { sqlExamplesOf } from '../../kernel/db/sql-examples.ts';
import { type NewOrderRow, type OrderLineRow, OrderRepository } from './order-repository.ts';
import { AFTER_SALES_SQL_EXAMPLES } from './sql-examples-after-sales.ts';
import { INVOICING_SQL_EXAMPLES } from './sql-examples-invoicing.ts';
import { placementSqlExamples } from './sql-examples-placement.ts';
import { READ_SQL_EXAMPLES } from './sql-examples-read.ts';

// Example calls of the orders' repositories for the SQL snapshots (scripts/sql-snapshots.ts): order
// 1 of customer 10001 (reference PO-2026-0042) with one line of 10001-100 size S.

const AT = '2026-03-02T09:30:00.000Z';

export function exampleOrder(overrides: Partial<NewOrderRow> = {}): NewOrderRow {
  return {
    channel: 'B2B',
    customer_no: 10001,
    client_no: null,
    weborder: 'PO-2026-0042',
    request_hash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    state: 'NEW',
    currency: 'EUR',
    prices_include_vat: 0,
    customer_discount_bp: 0,
    net: 4000,
    vat_total: 840,
    gross: 4840,
    freight: 0,
    date_ordered: '2026-03-02',
    header_text: '',
    bottom_text: '',
    delivery_address_no: 1,
    invoice_address_no: 0,
    delivery_address: null,
    invoice_address: null,
    pickup_point: null,
    email: null,
    payment_reference: null,
    tenders_paid: 0,
    bonus_card: null,
    location_code: 'WH1',
    payment_days: 30,
    scn: 7,
    created_at: AT,
    updated_at: AT,
    ...overrides,
  };
}

export function exampleLine(orderNo: number, lineNo: number): OrderLineRow {
  return {
    order_no: orderNo,
    line_no: lineNo,
    article_no: '10001-100',
    sizex: 'S',
    barcode: '8710000100011',
    ordered: 2,
    cancelled: 0,
    reserved: 2,
    delivered: 0,
    returned: 0,
    list_price: 2000,
    unit_price: 2000,
    price_rule: 'LIST_PRICE',
    rule_discount_bp: null,
    discount_bp: 0,
    vat_bp: 2100,
    list_amount: 4000,
    discount: 0,
    amount: 4000,
    customer_sequence: '',
    assortment: 0,
  };
}

export const sqlExamples: AreaSqlExamples = {
  async seed(db) {
    await db.insertInto('sales_order').values(exampleOrder()).execute();
    await db.insertInto('sales_order_line').values(exampleLine(1, 1)).execute();
    await db
      .insertInto('sales_order_vat')
      .values({ order_no: 1, vat_bp: 2100, net: 4000, vat: 840, gross: 4840 })
      .execute();
  },
  repositories: [
    sqlExamplesOf(OrderRepository, {
      findOrder: (r) => r.findOrder(1),
      lockOrder: (r) => r.lockOrder(1),
      linesOf: (r) => r.linesOf(1),
      vatOf: (r) => r.vatOf(1),
      insertHistory: (r) =>
        r.insertHistory({
          order_no: 1,
          from_state: 'NEW',
          to_state: 'CONFIRMED',
          action: 'confirm',
          actor: 'BACK_OFFICE',
          reference: null,
          scn: 8,
          at: AT,
        }),
      setState: (r) => r.setState(1, 'CONFIRMED', 8, AT),
      updateCounters: (r) =>
        r.updateCounters(1, [{ line_no: 1, cancelled: 0, reserved: 1, delivered: 1, returned: 0 }]),
    }),
    ...placementSqlExamples(exampleOrder, exampleLine),
    ...READ_SQL_EXAMPLES,
    ...AFTER_SALES_SQL_EXAMPLES,
    ...INVOICING_SQL_EXAMPLES,
  ],
};
