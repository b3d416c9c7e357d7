import { type TProperties, Type } from 'typebox';
import type { Principal } from '../../kernel/access/principal.ts';
import { customerScope } from '../../kernel/access.ts';
import { ValidationError } from '../../kernel/errors.ts';
import { MAX_SAFE_INT } from '../../kernel/int-limits.ts';
import { Binary, operation } from '../../kernel/operation.ts';
import { digits, type PageLimits, pageParams, positiveDigits, queryObject } from '../../kernel/params.ts';
import { NextOffsetSchema, rooted, ScnSchema } from '../../kernel/schemas.ts';

/** Page sizes (docs/billing-issuing.md, "The operations"). */
const HISTORY_PAGE: PageLimits = { defaultLimit: 100, maxLimit: 1000 };
const UNSETTLED_PAGE: PageLimits = { defaultLimit: 100, maxLimit: 1000 };

const Obj = (props: TProperties, description?: string) =>
  Type.Object(props, { additionalProperties: false, ...(description ? { description } : {}) });
const Money = (description: string) => Type.Number({ description: `${description} Two decimals.` });

const documentFields = {
  DOCUMENTTYPE: Type.Union([Type.Literal('INVOICE'), Type.Literal('CREDIT_NOTE')]),
  NUMBER: Type.String({ description: 'The document number, e.g. INV-2026-000123 or CN-2026-000007.' }),
  DATE: Type.String({ description: 'Issue date, YYYY-MM-DD.' }),
  DUEDATE: Type.String({ description: 'Due date, YYYY-MM-DD.' }),
  CURRENCY: Type.String(),
  NET: Money('Total without VAT; negative for a credit note.'),
  VAT: Money('VAT; negative for a credit note.'),
  GROSS: Money('Total with VAT; negative for a credit note.'),
  PAYMENTREFERENCE: Type.String({ description: 'The structured communication, +++123/4567/89012+++.' }),
  CORRECTS: Type.Union([Type.String(), Type.Null()], {
    description: 'A credit note: the number of the invoice it corrects; null for an invoice.',
  }),
};

const strcustomer = Type.Optional(
  digits(
    'The customer number; required unless the token is confined to a customer (then its own: 0, absent or its number; another is 403 OUTSIDE_SCOPE).',
  ),
);

/** The customer a read is about: a confined token's own, else the one named (400 when none is). */
function customerOf(principal: Principal | null, requested: string | undefined): number {
  const customerNo = customerScope(principal, requested === undefined ? undefined : Number(requested));
  if (customerNo === undefined)
    throw new ValidationError([{ name: 'strcustomer', message: 'give the customer number' }]);
  return customerNo;
}

const CONFINED =
  'A token confined to a customer sees its own documents only: another customer number is 403 OUTSIDE_SCOPE.';

const B2B_GetInvoiceHistory = operation({
  name: 'B2B_GetInvoiceHistory',
  method: 'GET',
  audience: 'B2B',
  area: 'Invoices',
  summary: 'Invoice history',
  description:
    'A customer’s invoices and credit notes (a credit note’s amounts negative, with the invoice it corrects), ' +
    'in the order they were issued, as a feed: issued documents never change, so each is answered exactly once. ' +
    'Pass the SCN and NEXTOFFSET of the last page as strscn and stroffset; when NEXTOFFSET is null nothing more ' +
    'has committed, and the next sync passes that SCN with stroffset 1 (strscn 0: from the first document). A ' +
    'document is answered only once every document before it has committed, also with concurrent issuers. ' +
    `strlimit default ${HISTORY_PAGE.defaultLimit}, at most ${HISTORY_PAGE.maxLimit}. Open amounts are in ` +
    `B2B_GetUnsettledItems; the PDF in B2B_GetInvoicePDF. ${CONFINED}`,
  query: queryObject({
    strcustomer,
    strscn: digits(
      'The SCN of the last page read (required; 0 for every document).',
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
    strlimit: pageParams(HISTORY_PAGE).strlimit,
  }),
  response: rooted(
    'B2BGETINVOICEHISTORY',
    Obj({
      CUSTOMER: Type.Integer(),
      SCN: ScnSchema,
      NEXTOFFSET: NextOffsetSchema,
      DOCUMENTS: Type.Array(
        Type.Object(
          { ...documentFields, SCN: Type.Integer({ description: 'The SCN of the document’s issue.' }) },
          { additionalProperties: false, title: 'BillingDocument' },
        ),
      ),
    }),
  ),
  async handler({ query, principal, services }) {
    const customerNo = customerOf(principal, query.strcustomer);
    const limit = Number(query.strlimit ?? String(HISTORY_PAGE.defaultLimit));
    const fromId = Number(query.stroffset ?? '1');
    const errors = [];
    if (fromId < 1) errors.push({ name: 'stroffset', message: 'must be 1 or more' });
    if (limit < 1 || limit > HISTORY_PAGE.maxLimit)
      errors.push({ name: 'strlimit', message: `must be from 1 to ${HISTORY_PAGE.maxLimit}` });
    if (errors.length > 0) throw new ValidationError(errors);
    const page = await services.billing.accounts.history(customerNo, {
      sinceScn: Number(query.strscn),
      fromId,
      limit,
    });
    return {
      B2BGETINVOICEHISTORY: {
        CUSTOMER: customerNo,
        SCN: page.scn,
        NEXTOFFSET: page.nextOffset,
        DOCUMENTS: page.items,
      },
    };
  },
});

const B2B_GetInvoicePDF = operation({
  name: 'B2B_GetInvoicePDF',
  method: 'GET',
  audience: 'B2B',
  area: 'Invoices',
  summary: 'Invoice as PDF',
  description:
    'The PDF of one invoice or credit note by its number (application/pdf), rendered from the snapshot frozen ' +
    'at issue. An unknown number, or one of another customer than the token’s (or than strcustomer), is 404 ' +
    'BILLING_DOCUMENT_NOT_FOUND: a number tells nothing about other customers. ' +
    CONFINED,
  query: queryObject({
    strnumber: Type.String({
      pattern: '^(INV|CN)-[0-9]{4}-[0-9]{6,7}$',
      description: 'The document number, e.g. INV-2026-000123 or CN-2026-000007.',
    }),
    strcustomer,
  }),
  binaryTypes: ['application/pdf'],
  async handler({ query, principal, services }) {
    const customerNo = customerScope(
      principal,
      query.strcustomer === undefined ? undefined : Number(query.strcustomer),
    );
    const pdf = await services.billing.accounts.pdf(query.strnumber, customerNo);
    return new Binary('application/pdf', Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength));
  },
});

const B2B_GetUnsettledItems = operation({
  name: 'B2B_GetUnsettledItems',
  method: 'GET',
  audience: 'B2B',
  area: 'Invoices',
  summary: 'Unsettled items',
  description:
    'A customer’s open invoices and credit notes, oldest first (in the order they were issued): OPEN what is ' +
    'still to pay (a credit note’s negative: owed to the customer until refunded), AGEDAYS the days since the ' +
    'issue date and DAYSOVERDUE the days past the due date (0 when not due), both as of TODAY (UTC). Pages by ' +
    'stable position: stroffset 1 starts at the oldest, NEXTOFFSET is the position of the next item, passed ' +
    `back as it is (default ${UNSETTLED_PAGE.defaultLimit}, at most ${UNSETTLED_PAGE.maxLimit}). Σ OPEN over ` +
    `all pages = invoices − credit notes − allocated payments. ${CONFINED}`,
  query: queryObject({
    strcustomer,
    stroffset: pageParams(UNSETTLED_PAGE).stroffset,
    strlimit: pageParams(UNSETTLED_PAGE).strlimit,
  }),
  response: rooted(
    'B2BGETUNSETTLEDITEMS',
    Obj({
      CUSTOMER: Type.Integer(),
      TODAY: Type.String({ description: 'The date the ages are counted to, YYYY-MM-DD (UTC).' }),
      NEXTOFFSET: NextOffsetSchema,
      ITEMS: Type.Array(
        Obj({
          ...documentFields,
          OPEN: Money('Still open; negative for a credit note.'),
          AGEDAYS: Type.Integer({ description: 'Days since the issue date.' }),
          DAYSOVERDUE: Type.Integer({ description: 'Days past the due date; 0 when not yet due.' }),
        }),
      ),
    }),
  ),
  async handler({ query, principal, services }) {
    const customerNo = customerOf(principal, query.strcustomer);
    const from = Number(query.stroffset ?? '1');
    const limit = Number(query.strlimit ?? String(UNSETTLED_PAGE.defaultLimit));
    const errors = [];
    if (from < 1) errors.push({ name: 'stroffset', message: 'must be 1 or more' });
    if (limit < 1 || limit > UNSETTLED_PAGE.maxLimit)
      errors.push({ name: 'strlimit', message: `must be from 1 to ${UNSETTLED_PAGE.maxLimit}` });
    if (errors.length > 0) throw new ValidationError(errors);
    const page = await services.billing.accounts.unsettled(customerNo, from, limit);
    return {
      B2BGETUNSETTLEDITEMS: {
        CUSTOMER: customerNo,
        TODAY: page.today,
        NEXTOFFSET: page.nextOffset,
        ITEMS: page.items,
      },
    };
  },
});

/** The billing area's TV2 operations (issue 12). */
export const BILLING_OPERATIONS = [B2B_GetInvoicePDF, B2B_GetInvoiceHistory, B2B_GetUnsettledItems];
