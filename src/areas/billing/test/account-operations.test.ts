import { describe, expect, it } from 'vitest';
import { ENGINE } from '../../../../test/helpers/test-app.ts';
import { FIRST_DEMO_CUSTOMER } from '../../customers/index.ts';
import { BELGIAN_CUSTOMER, billingContext, delivered, PRICE } from './billing-context.ts';

/**
 * The three TV2 operations of billing over HTTP (docs/billing-issuing.md, "The operations"):
 * statuses, bodies, confinement, the PDF's magic; and the history feed giving each document once.
 */

const ctx = billingContext();
const OTHER = FIRST_DEMO_CUSTOMER + 1;

const post = (url: string, body: unknown) => ctx.t.send(ctx.admin, 'POST', url, body);

async function invoice(
  customerNo: number,
  pieces: number,
): Promise<{ NUMBER: string; GROSS: number; DOCUMENT: { paymentReference: string } }> {
  await delivered(ctx, customerNo, [[0, pieces]]);
  const res = await post('/TV2/Admin/billing/invoices', { CUSTOMER: customerNo });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function payment(body: Record<string, unknown>) {
  const res = await post('/TV2/Admin/billing/payments', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe(`B2B_GetInvoiceHistory, B2B_GetUnsettledItems and B2B_GetInvoicePDF over HTTP (${ENGINE})`, () => {
  it('answers a customer’s documents, its open items with age, and a PDF; confined tokens see their own only', async () => {
    const first = await invoice(BELGIAN_CUSTOMER, 2); // 2 × 20.00 + 21 % = 48.40
    const second = await invoice(BELGIAN_CUSTOMER, 1); // 24.20
    const credit = await post(`/TV2/Admin/billing/invoices/${second.NUMBER}/credit-notes`, {});
    expect(credit.statusCode, credit.body).toBe(200);
    const creditNo = credit.json().NUMBER as string;
    const others = await invoice(OTHER, 1);
    await payment({
      DATE: '2026-11-20',
      AMOUNT: '10.00',
      REFERENCE: first.DOCUMENT.paymentReference,
      EXTERNALID: 'OPS-1',
    });

    const own = await ctx.t.tokenFor(['B2B'], { customerNo: BELGIAN_CUSTOMER });

    // History: both invoices and the credit note, in issue order, amounts signed.
    const history = await ctx.t.call('GET', 'B2B_GetInvoiceHistory', { token: own, query: { strscn: '0' } });
    expect(history.statusCode, history.body).toBe(200);
    const h = history.json().B2BGETINVOICEHISTORY;
    expect(h).toMatchObject({ CUSTOMER: BELGIAN_CUSTOMER, NEXTOFFSET: null, SCN: expect.any(Number) });
    expect(h.DOCUMENTS.map((d: { NUMBER: string }) => d.NUMBER)).toEqual([
      first.NUMBER,
      second.NUMBER,
      creditNo,
    ]);
    expect(h.DOCUMENTS[0]).toMatchObject({
      DOCUMENTTYPE: 'INVOICE',
      CURRENCY: 'EUR',
      NET: (2 * PRICE) / 100,
      VAT: 8.4,
      GROSS: 48.4,
      PAYMENTREFERENCE: first.DOCUMENT.paymentReference,
      CORRECTS: null,
      DATE: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    expect(h.DOCUMENTS[2]).toMatchObject({
      DOCUMENTTYPE: 'CREDIT_NOTE',
      GROSS: -24.2,
      CORRECTS: second.NUMBER,
    });
    // Nothing new since: an empty page with the same SCN.
    const after = await ctx.t.call('GET', 'B2B_GetInvoiceHistory', {
      token: own,
      query: { strscn: String(h.SCN) },
    });
    expect(after.json().B2BGETINVOICEHISTORY).toMatchObject({ DOCUMENTS: [], NEXTOFFSET: null, SCN: h.SCN });

    // Open items: the first invoice less the payment, the second and its credit note (negative), oldest first.
    const items = await ctx.t.call('GET', 'B2B_GetUnsettledItems', { token: own });
    expect(items.statusCode, items.body).toBe(200);
    const u = items.json().B2BGETUNSETTLEDITEMS;
    const today = new Date().toISOString().slice(0, 10);
    expect(u).toMatchObject({ CUSTOMER: BELGIAN_CUSTOMER, TODAY: today, NEXTOFFSET: null });
    expect(u.ITEMS.map((i: { NUMBER: string; OPEN: number }) => [i.NUMBER, i.OPEN])).toEqual([
      [first.NUMBER, 38.4],
      [second.NUMBER, 24.2],
      [creditNo, -24.2],
    ]);
    expect(u.ITEMS[0]).toMatchObject({
      AGEDAYS: 0,
      DAYSOVERDUE: 0,
      GROSS: 48.4,
      DUEDATE: expect.any(String),
    });
    // Paged one at a time by stable position.
    const page1 = (
      await ctx.t.call('GET', 'B2B_GetUnsettledItems', { token: own, query: { strlimit: '2' } })
    ).json().B2BGETUNSETTLEDITEMS;
    expect(page1.ITEMS).toHaveLength(2);
    const page2 = (
      await ctx.t.call('GET', 'B2B_GetUnsettledItems', {
        token: own,
        query: { strlimit: '2', stroffset: String(page1.NEXTOFFSET) },
      })
    ).json().B2BGETUNSETTLEDITEMS;
    expect(page2.ITEMS.map((i: { NUMBER: string }) => i.NUMBER)).toEqual([creditNo]);
    expect(page2.NEXTOFFSET).toBeNull();

    // The PDF: its own document, application/pdf, %PDF- magic.
    const pdf = await ctx.t.call('GET', 'B2B_GetInvoicePDF', {
      token: own,
      query: { strnumber: first.NUMBER },
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toMatch(/^application\/pdf/);
    expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    // Confinement: another customer's number is 403 on the lists, its document 404 on the PDF.
    for (const op of ['B2B_GetInvoiceHistory', 'B2B_GetUnsettledItems']) {
      const query = {
        strcustomer: String(OTHER),
        ...(op === 'B2B_GetInvoiceHistory' ? { strscn: '0' } : {}),
      };
      const res = await ctx.t.call('GET', op, { token: own, query });
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().code).toBe('OUTSIDE_SCOPE');
    }
    const foreign = await ctx.t.call('GET', 'B2B_GetInvoicePDF', {
      token: own,
      query: { strnumber: others.NUMBER },
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe('BILLING_DOCUMENT_NOT_FOUND');
    const unknown = await ctx.t.call('GET', 'B2B_GetInvoicePDF', {
      token: ctx.b2b,
      query: { strnumber: 'INV-2026-999999' },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('BILLING_DOCUMENT_NOT_FOUND');
    // An unconfined token: any customer's, and strcustomer narrows it (another's number is then 404).
    const any = await ctx.t.call('GET', 'B2B_GetInvoicePDF', {
      token: ctx.b2b,
      query: { strnumber: others.NUMBER },
    });
    expect(any.statusCode).toBe(200);
    const narrowed = await ctx.t.call('GET', 'B2B_GetInvoicePDF', {
      token: ctx.b2b,
      query: { strnumber: others.NUMBER, strcustomer: String(BELGIAN_CUSTOMER) },
    });
    expect(narrowed.statusCode).toBe(404);
    const otherItems = (
      await ctx.t.call('GET', 'B2B_GetUnsettledItems', {
        token: ctx.b2b,
        query: { strcustomer: String(OTHER) },
      })
    ).json().B2BGETUNSETTLEDITEMS;
    expect(otherItems.ITEMS.map((i: { NUMBER: string }) => i.NUMBER)).toEqual([others.NUMBER]);
  });

  it('refuses what is malformed: a missing customer, a bad number, a bad limit (400 naming it)', async () => {
    const cases: Array<[string, Record<string, string>, string]> = [
      ['B2B_GetInvoiceHistory', { strscn: '0' }, 'strcustomer'],
      ['B2B_GetInvoiceHistory', { strcustomer: String(BELGIAN_CUSTOMER) }, 'strscn'],
      [
        'B2B_GetInvoiceHistory',
        { strcustomer: String(BELGIAN_CUSTOMER), strscn: '0', strlimit: '0' },
        'strlimit',
      ],
      ['B2B_GetUnsettledItems', {}, 'strcustomer'],
      ['B2B_GetUnsettledItems', { strcustomer: '12x' }, 'strcustomer'],
      ['B2B_GetInvoicePDF', { strnumber: 'INV-1' }, 'strnumber'],
      ['B2B_GetInvoicePDF', {}, 'strnumber'],
    ];
    for (const [op, query, name] of cases) {
      const res = await ctx.t.call('GET', op, { token: ctx.b2b, query });
      expect(res.statusCode, `${op} ${JSON.stringify(query)}`).toBe(400);
      expect(res.json().errors.map((e: { name: string }) => e.name)).toContain(name);
    }
  });

  it('gives each document of the history feed exactly once across pages of one, with documents issued between pages', async () => {
    const customerNo = FIRST_DEMO_CUSTOMER + 2;
    const issued: string[] = [(await invoice(customerNo, 1)).NUMBER, (await invoice(customerNo, 1)).NUMBER];
    const seen: string[] = [];
    let scn = '0';
    let offset = '1';
    for (let round = 0; round < 20; round++) {
      const res = await ctx.t.call('GET', 'B2B_GetInvoiceHistory', {
        token: ctx.b2b,
        query: { strcustomer: String(customerNo), strscn: scn, stroffset: offset, strlimit: '1' },
      });
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json().B2BGETINVOICEHISTORY;
      seen.push(...page.DOCUMENTS.map((d: { NUMBER: string }) => d.NUMBER));
      scn = String(page.SCN);
      offset = String(page.NEXTOFFSET ?? 1);
      // Issue more while the feed is being read.
      if (round === 1 || round === 3) issued.push((await invoice(customerNo, 1)).NUMBER);
    }
    expect(seen).toEqual(issued);
  });
});
