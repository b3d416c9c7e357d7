import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINE } from '../../../../test/helpers/test-app.ts';
import {
  type LocatedBundle,
  loadValidator,
  locateBundle,
  type PeppolValidator,
} from '../../../../test/peppol-validator.ts';
import {
  BELGIAN_CUSTOMER,
  billingContext,
  CUSTOMER,
  deliver,
  delivered,
  placeOrder,
} from './billing-context.ts';

/**
 * The documents the issuing path makes (from deliveries, in the database, over the back office's
 * routes) pass the official EN 16931 and Peppol BIS Billing 3.0 rule sets with zero fatal
 * findings, on each engine: the UBL test file (ubl/ubl-document.test.ts) checks hand-made
 * snapshots; this one checks what tv2 itself issues. The rule sets load once for the file.
 */
const ctx = billingContext();
let validator: PeppolValidator;
let bundle: LocatedBundle;

beforeAll(async () => {
  bundle = locateBundle();
  validator = await loadValidator(bundle);
  await validator.preload();
}, 120_000);

const post = (url: string, body: unknown) => ctx.t.send(ctx.admin, 'POST', url, body);

async function expectValidUbl(number: string): Promise<string> {
  const ubl = await ctx.t.send(ctx.admin, 'GET', `/TV2/Admin/billing/documents/${number}/ubl`);
  expect(ubl.statusCode, ubl.body.slice(0, 500)).toBe(200);
  const result = await validator.validate(ubl.body);
  expect(result.fatal, `${number} (bundle: ${bundle.dir}):\n${validator.formatFindings(result)}`).toEqual([]);
  return ubl.body;
}

describe(`issued documents pass the Peppol BIS Billing 3.0 rules (${ENGINE})`, () => {
  it('an invoice to a Belgian customer over two deliveries, a partial and a full credit note', async () => {
    const orderNo = await placeOrder(ctx, BELGIAN_CUSTOMER, [
      [0, 3],
      [1, 2],
      [2, 1],
    ]);
    const first = await deliver(ctx, orderNo, [[1, 2]]);
    const second = await deliver(ctx, orderNo);
    const issued = await post('/TV2/Admin/billing/invoices', {
      CUSTOMER: BELGIAN_CUSTOMER,
      DELIVERIES: [first, second],
    });
    expect(issued.statusCode, issued.body).toBe(200);
    const invoice = issued.json();
    expect(invoice.DOCUMENT.lines.length).toBeGreaterThanOrEqual(3);
    const xml = await expectValidUbl(invoice.NUMBER);
    expect(xml).toContain(`<cbc:PaymentID>${invoice.DOCUMENT.paymentReference}</cbc:PaymentID>`);

    const partial = await post(`/TV2/Admin/billing/invoices/${invoice.NUMBER}/credit-notes`, {
      LINES: [{ LINE: 1, QUANTITY: 1 }],
    });
    expect(partial.statusCode, partial.body).toBe(200);
    const partialXml = await expectValidUbl(partial.json().NUMBER);
    expect(partialXml).toContain(`<cbc:ID>${invoice.NUMBER}</cbc:ID>`); // the invoice it corrects
    const rest = await post(`/TV2/Admin/billing/invoices/${invoice.NUMBER}/credit-notes`, {});
    expect(rest.statusCode, rest.body).toBe(200);
    await expectValidUbl(rest.json().NUMBER);
  });

  it('an intra-community supply, a batch run, and every document the two customers were issued', async () => {
    await delivered(ctx, CUSTOMER, [[0, 1]]);
    await delivered(ctx, BELGIAN_CUSTOMER, [[2, 4]]);
    const report = await ctx.t.services.billing.issuing.issueAll();
    expect(report.failed, report.failures.join('\n')).toBe(0);
    expect(report.issued).toBeGreaterThanOrEqual(2);
    const numbers: string[] = [];
    for (const customerNo of [CUSTOMER, BELGIAN_CUSTOMER]) {
      const page = await ctx.t.services.billing.accounts.history(customerNo, {
        sinceScn: 0,
        fromId: 0,
        limit: 1000,
      });
      numbers.push(...page.items.map((d) => d.NUMBER));
    }
    // the batch's invoices and the first test's invoice and two credit notes
    expect(numbers.length).toBeGreaterThanOrEqual(5);
    for (const number of numbers) await expectValidUbl(number);
  });

  it('the credit notes the credit run makes for a return and a cancelled delivery (their lines name why)', async () => {
    const orderNo = await placeOrder(ctx, BELGIAN_CUSTOMER, [
      [0, 3],
      [1, 2],
    ]);
    const kept = await deliver(ctx, orderNo, [[1, 3]]);
    const wrong = await deliver(ctx, orderNo, [[2, 2]]);
    const issued = await post('/TV2/Admin/billing/invoices', {
      CUSTOMER: BELGIAN_CUSTOMER,
      DELIVERIES: [kept, wrong],
    });
    expect(issued.statusCode, issued.body).toBe(200);
    const cancelled = await post(`/TV2/Admin/deliveries/${wrong}/cancel`, {});
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const authorised = await ctx.t.services.orders.moves.returns.authorise({
      orderNo,
      party: { customerNo: BELGIAN_CUSTOMER },
      lines: [{ line: 1, quantity: 1 }],
      reason: 'damaged',
      pointer: '',
    });
    const received = await post(`/TV2/Admin/returns/${authorised.returnNo}/receive`, {});
    expect(received.statusCode, received.body).toBe(200);
    const run = await post('/TV2/Admin/billing/credit-notes/run', { CUSTOMER: BELGIAN_CUSTOMER });
    expect(run.statusCode, run.body).toBe(200);
    const [note] = run.json().ISSUED as Array<{ NUMBER: string; CORRECTS: string }>;
    expect(note?.CORRECTS).toBe(issued.json().NUMBER);
    const xml = await expectValidUbl(note?.NUMBER as string);
    expect(xml).toContain(`<cbc:Note>RETURN ${authorised.returnNo}</cbc:Note>`);
    expect(xml).toContain(`<cbc:Note>DELIVERY ${wrong} CANCELLED</cbc:Note>`);
  });
});
