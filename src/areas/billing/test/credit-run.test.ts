import { describe, expect, it } from 'vitest';
import { ENGINE } from '../../../../test/helpers/test-app.ts';
import { BELGIAN_CUSTOMER, billingContext, CUSTOMER, deliver, PRICE, placeOrder } from './billing-context.ts';

/**
 * The credit run (docs/billing-issuing.md, "Credit notes from returns and cancellations"), over
 * the back office's routes: a return received after invoicing and a delivery cancelled after
 * invoicing are credited in the next run, exactly those pieces, once; a delivery cancelled before
 * invoicing is never invoiced; a return credited is not taken off a later delivery again.
 */
const ctx = billingContext();

const post = (url: string, body: unknown = {}) => ctx.t.send(ctx.admin, 'POST', url, body);

interface RunAnswer {
  CUSTOMERS: number;
  ISSUED: Array<{ NUMBER: string; CUSTOMER: number; CORRECTS: string; GROSS: number; REASONS: string[] }>;
  FAILED: number;
  FAILURES: string[];
}

async function run(customerNo?: number): Promise<RunAnswer> {
  const res = await post('/TV2/Admin/billing/credit-notes/run', customerNo ? { CUSTOMER: customerNo } : {});
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function invoice(customerNo: number, deliveries: number[]) {
  const res = await post('/TV2/Admin/billing/invoices', { CUSTOMER: customerNo, DELIVERIES: deliveries });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    NUMBER: string;
    DOCUMENT: { issueDate: string; lines: Array<{ quantity: number }> };
  };
}

async function document(number: string) {
  const res = await ctx.t.send(ctx.admin, 'GET', `/TV2/Admin/billing/documents/${number}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** A return of (order line, pieces) authorised and received by the back office; answers its number. */
async function returned(
  customerNo: number,
  orderNo: number,
  lines: Array<[number, number]>,
): Promise<number> {
  const authorised = await ctx.t.services.orders.moves.returns.authorise({
    orderNo,
    party: { customerNo },
    lines: lines.map(([line, quantity]) => ({ line, quantity })),
    reason: 'does not fit',
    pointer: '',
  });
  const received = await post(`/TV2/Admin/returns/${authorised.returnNo}/receive`);
  expect(received.statusCode, received.body).toBe(200);
  return authorised.returnNo;
}

async function cancel(deliveryNo: number): Promise<void> {
  const res = await post(`/TV2/Admin/deliveries/${deliveryNo}/cancel`);
  expect(res.statusCode, res.body).toBe(200);
}

/** Pieces of the invoice's lines (by line) given back by all its credit notes. */
async function creditedOf(invoiceNumber: string): Promise<Record<number, number>> {
  const rows = await ctx.t.database.db
    .selectFrom('billing_credit_line as cl')
    .innerJoin('billing_document as d', 'd.document_id', 'cl.invoice_id')
    .select(['cl.invoice_line_no', (eb) => eb.fn.sum<number>('cl.quantity').as('n')])
    .where('d.number', '=', invoiceNumber)
    .groupBy('cl.invoice_line_no')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.invoice_line_no, Number(r.n)]));
}

describe(`the credit run: returns and cancellations after invoicing (${ENGINE})`, () => {
  it('a return received after invoicing is credited in the next run, exactly those pieces, once', async () => {
    const orderNo = await placeOrder(ctx, BELGIAN_CUSTOMER, [
      [0, 4],
      [1, 2],
    ]);
    const deliveryNo = await deliver(ctx, orderNo);
    const inv = await invoice(BELGIAN_CUSTOMER, [deliveryNo]);
    expect(await run(BELGIAN_CUSTOMER)).toMatchObject({ ISSUED: [] });

    const returnNo = await returned(BELGIAN_CUSTOMER, orderNo, [[1, 3]]);
    const first = await run(BELGIAN_CUSTOMER);
    expect(first.ISSUED).toEqual([
      {
        NUMBER: expect.stringMatching(/^CN-/),
        CUSTOMER: BELGIAN_CUSTOMER,
        CORRECTS: inv.NUMBER,
        GROSS: 3 * PRICE + Math.round((3 * PRICE * 21) / 100),
        REASONS: [`RETURN ${returnNo}`],
      },
    ]);
    const cn = await document(first.ISSUED[0]?.NUMBER as string);
    expect(cn.INTACT).toBe(true);
    expect(cn.DOCUMENT.corrects).toEqual({ number: inv.NUMBER, issueDate: inv.DOCUMENT.issueDate });
    expect(
      cn.DOCUMENT.lines.map((l: { quantity: number; creditReason: string }) => [l.quantity, l.creditReason]),
    ).toEqual([[3, `RETURN ${returnNo}`]]);
    expect(await creditedOf(inv.NUMBER)).toEqual({ 1: 3 });

    // The next runs find nothing owed, by customer and over all customers.
    expect((await run(BELGIAN_CUSTOMER)).ISSUED).toEqual([]);
    expect((await run()).ISSUED).toEqual([]);
    expect(await creditedOf(inv.NUMBER)).toEqual({ 1: 3 });
  });

  it('a delivery cancelled after invoicing is credited in full in the next run, once', async () => {
    const orderNo = await placeOrder(ctx, BELGIAN_CUSTOMER, [
      [0, 2],
      [2, 3],
    ]);
    const kept = await deliver(ctx, orderNo, [[1, 2]]);
    const wrong = await deliver(ctx, orderNo, [[2, 3]]);
    const inv = await invoice(BELGIAN_CUSTOMER, [kept, wrong]);
    await cancel(wrong);
    const first = await run(BELGIAN_CUSTOMER);
    expect(first.ISSUED.map((i) => [i.CORRECTS, i.REASONS])).toEqual([
      [inv.NUMBER, [`DELIVERY ${wrong} CANCELLED`]],
    ]);
    expect(await creditedOf(inv.NUMBER)).toEqual({ 2: 3 });
    expect((await run(BELGIAN_CUSTOMER)).ISSUED).toEqual([]);
    // Redelivered: a new delivery, a new invoice line (the cancelled one stays credited).
    const again = await deliver(ctx, orderNo);
    const second = await invoice(BELGIAN_CUSTOMER, [again]);
    expect(second.DOCUMENT.lines.map((l) => l.quantity)).toEqual([3]);
    expect((await run(BELGIAN_CUSTOMER)).ISSUED).toEqual([]);
  });

  it('a delivery cancelled before invoicing is never invoiced, and nothing is credited for it', async () => {
    const orderNo = await placeOrder(ctx, CUSTOMER, [[1, 2]]);
    const wrong = await deliver(ctx, orderNo);
    await cancel(wrong);
    const refused = await post('/TV2/Admin/billing/invoices', { CUSTOMER: CUSTOMER, DELIVERIES: [wrong] });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().code).toBe('NOTHING_TO_INVOICE');
    const right = await deliver(ctx, orderNo);
    const report = await ctx.t.services.billing.issuing.issueAll();
    expect(report.failed, report.failures.join('\n')).toBe(0);
    const lines = await ctx.t.database.db
      .selectFrom('billing_invoice_line')
      .select(['delivery_no', 'quantity'])
      .where('delivery_no', 'in', [wrong, right])
      .execute();
    expect(lines.map((l) => [Number(l.delivery_no), l.quantity])).toEqual([[right, 2]]);
    expect((await run(CUSTOMER)).ISSUED).toEqual([]);
  });

  it('a return credited is not taken off a later delivery of the same order line again', async () => {
    const orderNo = await placeOrder(ctx, BELGIAN_CUSTOMER, [[2, 8]]);
    const first = await deliver(ctx, orderNo, [[1, 5]]);
    const inv = await invoice(BELGIAN_CUSTOMER, [first]);
    await returned(BELGIAN_CUSTOMER, orderNo, [[1, 2]]);
    expect((await run(BELGIAN_CUSTOMER)).ISSUED.map((i) => i.CORRECTS)).toEqual([inv.NUMBER]);
    const second = await deliver(ctx, orderNo, [[1, 3]]);
    // 8 delivered, 2 returned: 6 billed = 5 − 2 credited + 3 (not 1).
    const later = await invoice(BELGIAN_CUSTOMER, [second]);
    expect(later.DOCUMENT.lines.map((l) => l.quantity)).toEqual([3]);
    expect((await run(BELGIAN_CUSTOMER)).ISSUED).toEqual([]);
  });

  it('a return before invoicing is left off the invoice and not credited; a credit by hand counts as credited', async () => {
    const orderNo = await placeOrder(ctx, BELGIAN_CUSTOMER, [[0, 6]]);
    const first = await deliver(ctx, orderNo, [[1, 4]]);
    await returned(BELGIAN_CUSTOMER, orderNo, [[1, 1]]);
    const inv = await invoice(BELGIAN_CUSTOMER, [first]);
    expect(inv.DOCUMENT.lines.map((l) => l.quantity)).toEqual([3]);
    expect((await run(BELGIAN_CUSTOMER)).ISSUED).toEqual([]);
    // One piece credited by hand, then one piece returned: the piece is given back once.
    const byHand = await post(`/TV2/Admin/billing/invoices/${inv.NUMBER}/credit-notes`, {
      LINES: [{ LINE: 1, QUANTITY: 1 }],
    });
    expect(byHand.statusCode, byHand.body).toBe(200);
    await returned(BELGIAN_CUSTOMER, orderNo, [[1, 1]]);
    expect((await run(BELGIAN_CUSTOMER)).ISSUED).toEqual([]);
    // A second return is credited.
    await returned(BELGIAN_CUSTOMER, orderNo, [[1, 1]]);
    expect((await run(BELGIAN_CUSTOMER)).ISSUED.map((i) => i.CORRECTS)).toEqual([inv.NUMBER]);
    expect(await creditedOf(inv.NUMBER)).toEqual({ 1: 2 });
  });

  it('the batch run (issueAll) invoices and credits; the open items still equal invoices − credit notes', async () => {
    const orderNo = await placeOrder(ctx, CUSTOMER, [
      [0, 3],
      [1, 3],
    ]);
    const one = await deliver(ctx, orderNo, [[1, 3]]);
    const two = await deliver(ctx, orderNo, [[2, 3]]);
    const before = await ctx.t.services.billing.issuing.issueAll();
    expect(before.failed, before.failures.join('\n')).toBe(0);
    await cancel(two);
    await returned(CUSTOMER, orderNo, [[1, 1]]);
    const report = await ctx.t.services.billing.issuing.issueAll();
    expect(report.failed, report.failures.join('\n')).toBe(0);
    expect(report.creditNotes).toBe(1);
    const lines = await ctx.t.database.db
      .selectFrom('billing_credit_line as cl')
      .innerJoin('billing_invoice_line as il', (j) =>
        j.onRef('il.document_id', '=', 'cl.invoice_id').onRef('il.line_no', '=', 'cl.invoice_line_no'),
      )
      .select(['il.delivery_no', 'cl.quantity', 'cl.reason'])
      .where('il.delivery_no', 'in', [one, two])
      .orderBy('il.delivery_no')
      .execute();
    expect(lines.map((l) => [Number(l.delivery_no), l.quantity, l.reason?.split(' ')[0]])).toEqual([
      [one, 1, 'RETURN'],
      [two, 3, 'DELIVERY'],
    ]);
    expect((await ctx.t.services.billing.issuing.issueAll()).creditNotes).toBe(0);

    // The open-items invariant (no payments in this file): per customer, Σ open (credit notes
    // negative) = Σ invoices − Σ credit notes.
    const docs = await ctx.t.database.db
      .selectFrom('billing_document as d')
      .innerJoin('billing_open_item as o', 'o.document_id', 'd.document_id')
      .select(['d.customer_no', 'd.doc_type', 'd.gross', 'o.open_amount'])
      .execute();
    const sums = new Map<number, { issued: number; open: number }>();
    for (const d of docs) {
      const sign = d.doc_type === 'INVOICE' ? 1 : -1;
      const s = sums.get(Number(d.customer_no)) ?? { issued: 0, open: 0 };
      s.issued += sign * Number(d.gross);
      s.open += sign * Number(d.open_amount);
      sums.set(Number(d.customer_no), s);
    }
    expect(sums.size).toBe(2);
    for (const s of sums.values()) expect(s.open).toBe(s.issued);
    // No invoice line is credited beyond what it invoiced.
    const over = await ctx.t.database.db
      .selectFrom('billing_invoice_line as il')
      .innerJoin('billing_credit_line as cl', (j) =>
        j.onRef('cl.invoice_id', '=', 'il.document_id').onRef('cl.invoice_line_no', '=', 'il.line_no'),
      )
      .select([
        'il.document_id',
        'il.line_no',
        'il.quantity',
        (eb) => eb.fn.sum<number>('cl.quantity').as('n'),
      ])
      .groupBy(['il.document_id', 'il.line_no', 'il.quantity'])
      .execute();
    expect(over.filter((r) => Number(r.n) > r.quantity)).toEqual([]);
  });
});
