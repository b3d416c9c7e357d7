import type { AreaSqlExamples } from '../../kernel/db/sql-examples.ts';
import { sqlExamplesOf } from '../../kernel/db/sql-examples.ts';
import { DocumentRepository, type NewDocumentRow } from './document-repository.ts';

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
          { document_id: id, line_no: 1, invoice_id: 1, invoice_line_no: 1, quantity: 1 },
        ]);
      },
      invoicedDeliveryLines: (r) => r.invoicedDeliveryLines([1, 2]),
      findByNumber: (r) => r.findByNumber('INV-2026-000001'),
      invoiceLinesOf: (r) => r.invoiceLinesOf(1),
      creditedOf: (r) => r.creditedOf(1),
    }),
  ],
};
