import type { AreaSqlExamples } from '../../kernel/db/sql-examples.ts';
import { sqlExamplesOf } from '../../kernel/db/sql-examples.ts';
import { AccountRepository } from './account-repository.ts';
import { DocumentRepository, type NewDocumentRow } from './document-repository.ts';
import { PaymentRepository } from './payment-repository.ts';

// Example calls of billing's repository for the SQL snapshots (scripts/sql-snapshots.ts): invoice
// INV-2026-000001 (document 1) of customer 10001, one line billing delivery 1's line 1.

const AT = '2026-03-04T10:00:00.000Z';

function exampleDocument(overrides: Partial<NewDocumentRow> = {}): NewDocumentRow {
  return {
    doc_type: 'INVOICE',
    company: 'MAIN',
    year: 2026,
    seq: 1,
    number: 'INV-2026-000001',
    issue_date: '2026-03-04',
    due_date: '2026-04-03',
    customer_no: 10001,
    currency: 'EUR',
    net: 4000,
    vat: 840,
    gross: 4840,
    payment_reference: '+++261/0000/00149+++',
    corrects_document_id: null,
    snapshot: '{}',
    content_hash: '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a',
    scn: 20,
    created_at: AT,
    ...overrides,
  };
}

export const sqlExamples: AreaSqlExamples = {
  async seed(db) {
    await db
      .insertInto('billing_series')
      .values({ doc_type: 'INVOICE', company: 'MAIN', year: 2026, last_number: 1 })
      .execute();
    await db.insertInto('billing_document').values(exampleDocument()).execute();
    await db
      .insertInto('billing_invoice_line')
      .values({
        document_id: 1,
        line_no: 1,
        delivery_no: 1,
        delivery_line_no: 1,
        order_no: 1,
        delivered: 2,
        quantity: 2,
      })
      .execute();
    await db
      .insertInto('billing_open_item')
      .values({ document_id: 1, customer_no: 10001, open_amount: 4840, scn: 20 })
      .execute();
    await db
      .insertInto('billing_payment')
      .values({
        external_ref: 'BANK-2026-0001',
        payment_date: '2026-03-10',
        amount: 1000,
        currency: 'EUR',
        reference: '+++261/0000/00149+++',
        customer_no: 10001,
        unallocated: 0,
        reason: null,
        scn: 21,
        created_at: AT,
      })
      .execute();
    await db
      .insertInto('billing_allocation')
      .values({ payment_id: 1, document_id: 1, amount: 1000, scn: 21 })
      .execute();
  },
  repositories: [
    sqlExamplesOf(DocumentRepository, {
      takeNumber: {
        next: (r) => r.takeNumber('INVOICE', 'MAIN', 2026),
        first: (r) => r.takeNumber('CREDIT_NOTE', 'MAIN', 2026),
      },
      insertDocument: (r) =>
        r.insertDocument(
          exampleDocument({ seq: 2, number: 'INV-2026-000002', payment_reference: '+++261/0000/00250+++' }),
        ),
      insertInvoiceLines: (r) =>
        r.insertInvoiceLines([
          {
            document_id: 1,
            line_no: 2,
            delivery_no: 2,
            delivery_line_no: 1,
            order_no: 1,
            delivered: 1,
            quantity: 1,
          },
        ]),
      insertCreditLines: async (r) => {
        const id = await r.insertDocument(
          exampleDocument({
            doc_type: 'CREDIT_NOTE',
            number: 'CN-2026-000001',
            payment_reference: '+++262/0000/00128+++',
            corrects_document_id: 1,
          }),
        );
        await r.insertCreditLines([
          { document_id: id, line_no: 1, invoice_id: 1, invoice_line_no: 1, quantity: 1, reason: 'RETURN 1' },
        ]);
      },
      lockCustomer: (r) => r.lockCustomer(10001),
      invoicedDeliveryLines: (r) => r.invoicedDeliveryLines([1, 2]),
      billedLinesOf: (r) => r.billedLinesOf(10001),
      customersWithInvoices: (r) => r.customersWithInvoices(0, 500),
      findById: (r) => r.findById(1),
      findByNumber: (r) => r.findByNumber('INV-2026-000001'),
      invoiceLinesOf: (r) => r.invoiceLinesOf(1),
      creditedOf: (r) => r.creditedOf(1),
      insertOpenItem: async (r) => {
        const id = await r.insertDocument(
          exampleDocument({ seq: 3, number: 'INV-2026-000003', payment_reference: '+++261/0000/00351+++' }),
        );
        await r.insertOpenItem({ document_id: id, customer_no: 10001, open_amount: 4840, scn: 20 });
      },
    }),
    sqlExamplesOf(PaymentRepository, {
      claim: (r) =>
        r.claim({
          external_ref: 'BANK-2026-0002',
          payment_date: '2026-03-11',
          amount: 500,
          currency: 'EUR',
          reference: 'INV-2026-000001',
          customer_no: null,
          unallocated: 500,
          reason: null,
          scn: 22,
          created_at: AT,
        }),
      paymentByExternalRef: (r) => r.paymentByExternalRef('BANK-2026-0001'),
      match: {
        byReference: (r) => r.match({ paymentReference: '+++261/0000/00149+++' }),
        byNumber: (r) => r.match({ number: 'INV-2026-000001' }),
      },
      openOf: (r) => r.openOf(1),
      takeOpen: (r) => r.takeOpen(1, 500, 22),
      insertAllocation: async (r) => {
        const id = await r.claim({
          external_ref: 'BANK-2026-0003',
          payment_date: '2026-03-11',
          amount: 100,
          currency: 'EUR',
          reference: 'INV-2026-000001',
          customer_no: null,
          unallocated: 100,
          reason: null,
          scn: 23,
          created_at: AT,
        });
        await r.insertAllocation({ payment_id: id!, document_id: 1, amount: 100, scn: 23 });
      },
      settle: (r) => r.settle(1, { customer_no: 10001, unallocated: 0, reason: null }),
      allocationsOf: (r) => r.allocationsOf(1),
    }),
    sqlExamplesOf(AccountRepository, {
      historyPage: {
        first: (r) => r.historyPage({ customerNo: 10001, sinceScn: 0, fromId: 1, upToScn: 100, limit: 101 }),
        resumed: (r) =>
          r.historyPage({ customerNo: 10001, sinceScn: 19, fromId: 2, upToScn: 100, limit: 101 }),
      },
      openItemsPage: (r) => r.openItemsPage(10001, 1, 101),
      documentIdOf: {
        any: (r) => r.documentIdOf('INV-2026-000001', undefined),
        customers: (r) => r.documentIdOf('INV-2026-000001', 10001),
      },
    }),
  ],
};
