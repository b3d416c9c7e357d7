import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENGINE } from '../../../../test/helpers/test-app.ts';
import { DocumentRepository } from '../document-repository.ts';
import { BELGIAN_CUSTOMER, billingContext, CUSTOMER, delivered, PRICE } from './billing-context.ts';

const ctx = billingContext();

const post = (url: string, body: unknown, token = ctx.admin) => ctx.t.send(token, 'POST', url, body);
const get = (url: string, token = ctx.admin) => ctx.t.send(token, 'GET', url);

describe(`the billing back office over HTTP (${ENGINE})`, () => {
  it('issues an invoice, reads it back intact, renders its PDF and UBL, credits it: statuses and bodies', async () => {
    const [, deliveryNo] = await delivered(ctx, BELGIAN_CUSTOMER, [
      [0, 4],
      [1, 1],
    ]);
    const issued = await post('/TV2/Admin/billing/invoices', {
      CUSTOMER: BELGIAN_CUSTOMER,
      DELIVERIES: [deliveryNo],
    });
    expect(issued.statusCode, issued.body).toBe(200);
    const answer = issued.json();
    expect(answer).toMatchObject({
      TYPE: 'INVOICE',
      CUSTOMER: BELGIAN_CUSTOMER,
      GROSS: 5 * PRICE + 2100,
      CONTENTHASH: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(answer.NUMBER).toMatch(/^INV-\d{4}-000001$/);
    expect(answer.DOCUMENT).toMatchObject({ number: answer.NUMBER, totals: { gross: 5 * PRICE + 2100 } });

    const again = await post('/TV2/Admin/billing/invoices', { CUSTOMER: BELGIAN_CUSTOMER });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('NOTHING_TO_INVOICE');

    const read = await get(`/TV2/Admin/billing/documents/${answer.NUMBER}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual({ ...answer, INTACT: true });

    const pdf = await get(`/TV2/Admin/billing/documents/${answer.NUMBER}/pdf`);
    expect(pdf.statusCode, pdf.body.slice(0, 300)).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const ubl = await get(`/TV2/Admin/billing/documents/${answer.NUMBER}/ubl`);
    expect(ubl.statusCode, ubl.body.slice(0, 500)).toBe(200);
    expect(ubl.headers['content-type']).toMatch(/^application\/xml/);
    expect(ubl.body).toMatch(/<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/);
    expect(ubl.body).toContain(`<cbc:ID>${answer.NUMBER}</cbc:ID>`);
    expect(ubl.body).toContain('EmbeddedDocumentBinaryObject');

    const tooMuch = await post(`/TV2/Admin/billing/invoices/${answer.NUMBER}/credit-notes`, {
      LINES: [{ LINE: 1, QUANTITY: 5 }],
    });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().code).toBe('CREDIT_EXCEEDS_INVOICED');
    const noLine = await post(`/TV2/Admin/billing/invoices/${answer.NUMBER}/credit-notes`, {
      LINES: [{ LINE: 7, QUANTITY: 1 }],
    });
    expect(noLine.statusCode).toBe(404);
    expect(noLine.json().code).toBe('INVOICE_LINE_NOT_FOUND');

    const credit = await post(`/TV2/Admin/billing/invoices/${answer.NUMBER}/credit-notes`, {
      LINES: [{ LINE: 1, QUANTITY: 3 }],
    });
    expect(credit.statusCode, credit.body).toBe(200);
    const cn = credit.json();
    expect(cn.NUMBER).toMatch(/^CN-\d{4}-000001$/);
    expect(cn.DOCUMENT).toMatchObject({
      type: 'CREDIT_NOTE',
      corrects: { number: answer.NUMBER, issueDate: answer.DOCUMENT.issueDate },
      lines: [{ quantity: 3, unitPrice: PRICE }],
      totals: { net: 3 * PRICE, vat: 1260 },
    });
    // The Belgian mention of a credit note that corrects VAT, in the buyer's language (Flemish: nl).
    expect(cn.DOCUMENT.notes).toEqual([
      'BTW terug te storten aan de Staat in de mate waarin ze oorspronkelijk in aftrek werd gebracht',
    ]);
    const cnUbl = await get(`/TV2/Admin/billing/documents/${cn.NUMBER}/ubl`);
    expect(cnUbl.statusCode, cnUbl.body.slice(0, 500)).toBe(200);
    expect(cnUbl.body).toMatch(
      /<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"/,
    );

    // The rest of the invoice: line 1's one piece and line 2; then nothing is left.
    const rest = await post(`/TV2/Admin/billing/invoices/${answer.NUMBER}/credit-notes`, {});
    expect(rest.statusCode, rest.body).toBe(200);
    expect(rest.json().DOCUMENT.lines.map((l: { quantity: number }) => l.quantity)).toEqual([1, 1]);
    const none = await post(`/TV2/Admin/billing/invoices/${answer.NUMBER}/credit-notes`, {});
    expect(none.statusCode).toBe(409);
    expect(none.json().code).toBe('CREDIT_EXCEEDS_INVOICED');
  });

  it('writes the UBL of an intra-community supply to a Dutch customer and of a credit note in full', async () => {
    const [, deliveryNo] = await delivered(ctx, CUSTOMER, [[1, 2]]);
    const issued = await post('/TV2/Admin/billing/invoices', { CUSTOMER, DELIVERIES: [deliveryNo] });
    expect(issued.statusCode, issued.body).toBe(200);
    const { NUMBER, DOCUMENT } = issued.json();
    expect(DOCUMENT.vat).toMatchObject([{ vatCategory: 'K', vatBp: 0, vat: 0 }]);
    const ubl = await get(`/TV2/Admin/billing/documents/${NUMBER}/ubl`);
    expect(ubl.statusCode, ubl.body.slice(0, 500)).toBe(200);
    expect(ubl.body).toContain('VATEX-EU-IC');
    const credit = await post(`/TV2/Admin/billing/invoices/${NUMBER}/credit-notes`, {});
    expect(credit.statusCode, credit.body).toBe(200);
    // No VAT corrected: no credit note mention.
    expect(credit.json().DOCUMENT.notes).toEqual([]);
    const cnUbl = await get(`/TV2/Admin/billing/documents/${credit.json().NUMBER}/ubl`);
    expect(cnUbl.statusCode, cnUbl.body.slice(0, 500)).toBe(200);
  });

  it('refuses the UBL of a document the Peppol rules would refuse (a buyer without a Peppol address), 409 naming it', async () => {
    const customerNo = CUSTOMER + 2;
    await ctx.t.services.customers.customers.postCustomer({ customerNo, vatNo: '' });
    const [, deliveryNo] = await delivered(ctx, customerNo, [[0, 1]]);
    const { number, snapshot } = await ctx.t.services.billing.issuing.issueInvoice(customerNo, [deliveryNo]);
    // A Dutch buyer without a VAT number pays the home rate.
    expect(snapshot.vat).toMatchObject([{ vatCategory: 'S', vatBp: 2100 }]);
    const ubl = await get(`/TV2/Admin/billing/documents/${number}/ubl`);
    expect(ubl.statusCode).toBe(409);
    expect(ubl.json().code).toBe('UBL_REFUSED');
    expect((await get(`/TV2/Admin/billing/documents/${number}/pdf`)).statusCode).toBe(200);
  });

  it('answers 404, 400 and 401 where it should', async () => {
    expect((await get('/TV2/Admin/billing/documents/INV-2026-999999')).json().code).toBe(
      'BILLING_DOCUMENT_NOT_FOUND',
    );
    expect((await get('/TV2/Admin/billing/documents/INV-2026-999999/pdf')).statusCode).toBe(404);
    expect((await get('/TV2/Admin/billing/documents/nonsense')).statusCode).toBe(400);
    const unknown = await post('/TV2/Admin/billing/invoices', { CUSTOMER: 999_999 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('CUSTOMER_NOT_FOUND');
    expect((await post('/TV2/Admin/billing/invoices', { CUSTOMER: 'x' })).statusCode).toBe(400);
    expect((await post('/TV2/Admin/billing/invoices', { CUSTOMER: CUSTOMER, EXTRA: 1 })).statusCode).toBe(
      400,
    );
    const credit = await post('/TV2/Admin/billing/invoices/INV-2026-999999/credit-notes', {});
    expect(credit.json().code).toBe('BILLING_DOCUMENT_NOT_FOUND');
    expect((await post('/TV2/Admin/billing/invoices', { CUSTOMER }, ctx.b2b)).statusCode).toBe(403);
    const anonymous = await ctx.t.app.inject({
      method: 'GET',
      url: '/TV2/Admin/billing/documents/INV-2026-000001',
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe(`issued documents are immutable (${ENGINE})`, () => {
  it('the repository has no statement that updates or deletes a document', () => {
    const methods = Object.getOwnPropertyNames(DocumentRepository.prototype).filter(
      (m) => m !== 'constructor',
    );
    expect(methods.filter((m) => /update|delete|remove|set|change|replace/i.test(m))).toEqual([]);
    const source = readFileSync(new URL('../document-repository.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/updateTable|deleteFrom|replaceInto/);
    // The two upserts move the series counter and lock a customer (a row of nothing else), never a document.
    expect(source.match(/doUpdateSet/g)).toHaveLength(2);
    expect(source).toMatch(
      /insertInto\('billing_series'\)[\s\S]*?doUpdateSet[\s\S]*?insertInto\('billing_customer_lock'\)[\s\S]*?doUpdateSet/,
    );
  });

  it('the content check finds a snapshot changed after issue', async () => {
    const [, deliveryNo] = await delivered(ctx, BELGIAN_CUSTOMER, [[2, 2]]);
    const { number } = await ctx.t.services.billing.issuing.issueInvoice(BELGIAN_CUSTOMER, [deliveryNo]);
    const documents = ctx.t.services.billing.documents;
    expect(await documents.check(number)).toMatchObject({ intact: true });
    const row = await ctx.t.database.db
      .selectFrom('billing_document')
      .select('snapshot')
      .where('number', '=', number)
      .executeTakeFirstOrThrow();
    // Someone edits the stored document behind the application's back: one cent more on the total.
    const edited = row.snapshot.replace(/"gross":(\d+)/, (_, g) => `"gross":${Number(g) + 1}`);
    expect(edited).not.toBe(row.snapshot);
    await ctx.t.database.db
      .updateTable('billing_document')
      .set({ snapshot: edited })
      .where('number', '=', number)
      .execute();
    const check = await documents.check(number);
    expect(check.intact).toBe(false);
    expect(check.computedHash).not.toBe(check.storedHash);
    const read = await get(`/TV2/Admin/billing/documents/${number}`);
    expect(read.json().INTACT).toBe(false);
  });
});
