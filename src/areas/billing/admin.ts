import { type TSchema, Type } from 'typebox';
import { type AdminRoute, adminRoute } from '../../kernel/admin-route.ts';
import { MAX_INT32 } from '../../kernel/int-limits.ts';
import type { StoredDocument } from './document-service.ts';
import type { Issued } from './issue-service.ts';
import { PaymentAnswer, PaymentRecord, paymentAnswer, paymentInputOf } from './payment-input.ts';

const NumberParams = Type.Object({
  number: Type.String({
    pattern: '^(INV|CN)-[0-9]{4}-[0-9]{6,7}$',
    description: 'The document number, e.g. INV-2026-000123 or CN-2026-000007.',
  }),
});

/** The frozen snapshot (docs/billing.md, "Documents and their snapshot"), as stored. */
const SnapshotSchema = Type.Object(
  {},
  {
    additionalProperties: true,
    description: 'The DocumentSnapshot as frozen at issue (src/areas/billing/document.ts; docs/billing.md).',
  },
);

const IssuedAnswer = Type.Object({
  NUMBER: Type.String(),
  TYPE: Type.Union([Type.Literal('INVOICE'), Type.Literal('CREDIT_NOTE')]),
  CUSTOMER: Type.Integer(),
  GROSS: Type.Integer({ description: 'Total with VAT, minor units.' }),
  CONTENTHASH: Type.String({ description: 'sha256 (hex) of the stored snapshot JSON.' }),
  DOCUMENT: SnapshotSchema,
});
const issuedAnswer = (i: Issued) => ({
  NUMBER: i.number,
  TYPE: i.snapshot.type,
  CUSTOMER: i.snapshot.buyer.customerNo,
  GROSS: i.snapshot.totals.gross,
  CONTENTHASH: i.contentHash,
  DOCUMENT: i.snapshot,
});

const DocumentAnswer = Type.Object({
  ...IssuedAnswer.properties,
  INTACT: Type.Boolean({ description: 'The stored snapshot still has the hash stored at issue.' }),
});

/** A binary 200 answer of one media type (the OpenAPI document names it; Fastify sends the bytes as they are). */
function bytes(mediaType: string, description: string): TSchema {
  return Type.Unsafe({
    description,
    content: { [mediaType]: { schema: { type: 'string', format: 'binary' } } },
  });
}

/** The back office of billing: issuing, and reading issued documents (docs/billing-issuing.md). */
export const BILLING_ADMIN_ROUTES: AdminRoute[] = [
  adminRoute({
    method: 'POST',
    url: '/TV2/Admin/billing/invoices',
    summary:
      'Issue an invoice for a customer: its delivered pieces not returned or invoiced (or of the deliveries given)',
    description:
      'One invoice with the next number of the year’s invoice series (gapless), its snapshot stored with its ' +
      'sha256. Nothing to invoice is 409 NOTHING_TO_INVOICE and uses no number; a customer without an invoice ' +
      'address 409 BUYER_INCOMPLETE; an unknown customer 404 CUSTOMER_NOT_FOUND.',
    body: Type.Object(
      {
        CUSTOMER: Type.Integer({ minimum: 1, maximum: MAX_INT32 }),
        DELIVERIES: Type.Optional(
          Type.Array(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }), {
            minItems: 1,
            maxItems: 1000,
            description: 'Only these deliveries (default: all of the customer’s).',
          }),
        ),
      },
      { additionalProperties: false },
    ),
    response: IssuedAnswer,
    async handler({ body, services }) {
      return issuedAnswer(await services.billing.issuing.issueInvoice(body.CUSTOMER, body.DELIVERIES));
    },
  }),
  adminRoute({
    method: 'POST',
    url: '/TV2/Admin/billing/invoices/:number/credit-notes',
    summary: 'Issue a credit note for an invoice: the lines given, or everything not credited yet',
    description:
      'Refers to the invoice (number and date), with its parties, prices and texts. More pieces of a line than ' +
      'invoiced less earlier credit notes is 409 CREDIT_EXCEEDS_INVOICED (and nothing left at all too); a line ' +
      'the invoice does not have 404 INVOICE_LINE_NOT_FOUND.',
    params: NumberParams,
    body: Type.Object(
      {
        LINES: Type.Optional(
          Type.Array(
            Type.Object(
              {
                LINE: Type.Integer({ minimum: 1, maximum: 100_000, description: 'The invoice line.' }),
                QUANTITY: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
              },
              { additionalProperties: false },
            ),
            { minItems: 1, maxItems: 5000 },
          ),
        ),
      },
      { additionalProperties: false },
    ),
    response: IssuedAnswer,
    async handler({ params, body, services }) {
      const lines = body.LINES?.map((l) => ({ lineNo: l.LINE, quantity: l.QUANTITY }));
      return issuedAnswer(await services.billing.issuing.issueCreditNote(params.number, lines));
    },
  }),
  adminRoute({
    method: 'POST',
    url: '/TV2/Admin/billing/credit-notes/run',
    summary:
      'The credit run: issue the credit notes owed for returns and deliveries cancelled after invoicing',
    description:
      'For every invoiced delivery line of the customer (or of every customer with invoices): pieces invoiced − ' +
      'pieces still out with the customer (none of a cancelled delivery; returned pieces counted per order line) − ' +
      'pieces credited already, one credit note per invoice, each line naming why (RETURN <no>, DELIVERY <no> ' +
      'CANCELLED). Each piece is credited once, also when runs overlap; nothing owed issues nothing.',
    body: Type.Object(
      {
        CUSTOMER: Type.Optional(
          Type.Integer({ minimum: 1, maximum: MAX_INT32, description: 'Only this customer (default: all).' }),
        ),
      },
      { additionalProperties: false },
    ),
    response: Type.Object({
      CUSTOMERS: Type.Integer({ description: 'Customers with invoices looked at.' }),
      ISSUED: Type.Array(
        Type.Object({
          NUMBER: Type.String(),
          CUSTOMER: Type.Integer(),
          CORRECTS: Type.String({ description: 'The invoice it corrects.' }),
          GROSS: Type.Integer({ description: 'Total with VAT, minor units.' }),
          REASONS: Type.Array(Type.String()),
        }),
      ),
      FAILED: Type.Integer(),
      FAILURES: Type.Array(Type.String()),
    }),
    async handler({ body, services }) {
      const { credits } = services.billing;
      const issued: Issued[] = [];
      const report = { creditCustomers: 0, creditNotes: 0, failed: 0, failures: [] as string[] };
      if (body.CUSTOMER !== undefined) {
        issued.push(...(await credits.issueOwed(body.CUSTOMER)));
        report.creditCustomers = 1;
      } else {
        await credits.issueAllOwed(report, undefined, (one) => issued.push(one));
      }
      return {
        CUSTOMERS: report.creditCustomers,
        ISSUED: issued.map((i) => ({
          NUMBER: i.number,
          CUSTOMER: i.snapshot.buyer.customerNo,
          CORRECTS: i.snapshot.corrects?.number ?? '',
          GROSS: i.snapshot.totals.gross,
          REASONS: [...new Set(i.snapshot.lines.flatMap((l) => (l.creditReason ? [l.creditReason] : [])))],
        })),
        FAILED: report.failed,
        FAILURES: report.failures,
      };
    },
  }),
  adminRoute({
    method: 'GET',
    url: '/TV2/Admin/billing/documents/:number',
    summary: 'An issued invoice or credit note: its snapshot, and whether it is intact',
    description: 'The document is named by its number in the path.',
    params: NumberParams,
    response: DocumentAnswer,
    async handler({ params, services }) {
      const { documents } = services.billing;
      const doc: StoredDocument = await documents.get(params.number);
      const check = await documents.check(params.number);
      return {
        ...issuedAnswer({ ...doc, contentHash: doc.contentHash }),
        INTACT: check.intact,
      };
    },
  }),
  adminRoute({
    method: 'GET',
    url: '/TV2/Admin/billing/documents/:number/pdf',
    summary: 'The PDF of an issued invoice or credit note',
    description: 'The document is named by its number in the path; the answer is application/pdf.',
    params: NumberParams,
    response: bytes('application/pdf', 'The PDF, rendered from the stored snapshot.'),
    async handler({ params, services, reply }) {
      const pdf = await services.billing.documents.pdf(params.number);
      reply.type('application/pdf').header('content-disposition', `inline; filename="${params.number}.pdf"`);
      return Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
    },
  }),
  adminRoute({
    method: 'GET',
    url: '/TV2/Admin/billing/documents/:number/ubl',
    summary: 'The Peppol BIS Billing 3.0 UBL of an issued invoice or credit note, its PDF embedded',
    description:
      'A document the Peppol rules would refuse (e.g. a buyer without a Peppol address) is 409 UBL_REFUSED naming every problem.',
    params: NumberParams,
    response: bytes('application/xml', 'The UBL 2.1 Invoice or CreditNote.'),
    async handler({ params, services, reply }) {
      const xml = await services.billing.documents.ubl(params.number);
      reply.type('application/xml; charset=utf-8');
      return Buffer.from(xml, 'utf8');
    },
  }),
  adminRoute({
    method: 'POST',
    url: '/TV2/Admin/billing/payments',
    summary: 'Register a payment: matched by its reference and allocated to the document it names, once',
    description:
      'Matched by structured communication (the document’s payment reference) or document number and allocated ' +
      'up to what is open; the rest stays unallocated with the reason (NO_MATCH, CURRENCY_MISMATCH, ' +
      'WRONG_DIRECTION, ALREADY_SETTLED, OVERPAYMENT). The same EXTERNALID again answers the first registration ' +
      'with REPEATED true and allocates nothing. A malformed structured communication is 400 naming /REFERENCE.',
    body: PaymentRecord,
    response: PaymentAnswer,
    async handler({ body, services }) {
      return paymentAnswer(await services.billing.payments.register(paymentInputOf(body)));
    },
  }),
];
