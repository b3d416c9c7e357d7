import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENGINE } from '../../../../test/helpers/test-app.ts';
import { runInThreads, THREADS_TEST_TIMEOUT } from '../../../../test/helpers/threads.ts';
import { runImport } from '../../../kernel/import/run-import.ts';
import { FIRST_DEMO_CUSTOMER } from '../../customers/index.ts';
import { BILLING_IMPORT_KINDS } from '../import-kinds.ts';
import { billingContext, delivered } from './billing-context.ts';

/**
 * Payments (docs/billing-issuing.md, "Payments and open items"): registered over the back office and
 * imported in bulk, matched by structured communication or number, allocated once per external id
 * (also from two connections at once), never beyond what is open; and for every customer, after
 * random work, open items = invoices − credit notes − allocated payments.
 */

const ctx = billingContext();
const dir = mkdtempSync(join(tmpdir(), 'tv2-payments-'));
const payments = BILLING_IMPORT_KINDS[0]!;

interface Invoice {
  NUMBER: string;
  GROSS: number;
  DOCUMENT: { paymentReference: string };
}

async function invoice(customerNo: number, pieces: number): Promise<Invoice> {
  await delivered(ctx, customerNo, [[0, pieces]]);
  const res = await ctx.t.send(ctx.admin, 'POST', '/TV2/Admin/billing/invoices', { CUSTOMER: customerNo });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const pay = (body: Record<string, unknown>) =>
  ctx.t.send(ctx.admin, 'POST', '/TV2/Admin/billing/payments', body);

async function openOf(number: string): Promise<number> {
  const row = await ctx.t.database.db
    .selectFrom('billing_open_item as o')
    .innerJoin('billing_document as d', 'd.document_id', 'o.document_id')
    .select('o.open_amount')
    .where('d.number', '=', number)
    .executeTakeFirstOrThrow();
  return Number(row.open_amount);
}

describe(`registering payments (${ENGINE})`, () => {
  it('allocates by structured communication or number, keeps the excess and the unmatched, answers a repeat with the first', async () => {
    const inv = await invoice(FIRST_DEMO_CUSTOMER + 3, 2);
    const first = await pay({
      DATE: '2026-11-20',
      AMOUNT: 20,
      REFERENCE: inv.DOCUMENT.paymentReference.replaceAll('+', '*'),
      EXTERNALID: 'PAY-1',
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({
      PAYMENTID: expect.any(Number),
      EXTERNALID: 'PAY-1',
      REPEATED: false,
      DATE: '2026-11-20',
      AMOUNT: 2000,
      CURRENCY: 'EUR',
      REFERENCE: inv.DOCUMENT.paymentReference,
      CUSTOMER: FIRST_DEMO_CUSTOMER + 3,
      ALLOCATIONS: [{ NUMBER: inv.NUMBER, AMOUNT: 2000 }],
      UNALLOCATED: 0,
      REASON: null,
    });
    // The same payment again (written the other usual way): the first registration, nothing allocated.
    const repeat = await pay({
      DATE: '2026-11-20',
      AMOUNT: '20.00',
      REFERENCE: inv.DOCUMENT.paymentReference,
      EXTERNALID: 'PAY-1',
    });
    expect(repeat.json()).toEqual({ ...first.json(), REPEATED: true });
    // Another payment under the same external id is refused.
    const conflict = await pay({
      DATE: '2026-11-20',
      AMOUNT: 21,
      REFERENCE: inv.NUMBER,
      EXTERNALID: 'PAY-1',
    });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().code).toBe('PAYMENT_CONFLICT');
    expect(conflict.json().detail).toContain('AMOUNT, REFERENCE');
    expect(await openOf(inv.NUMBER)).toBe(inv.GROSS - 2000);

    const over = await pay({
      DATE: '2026-11-21',
      AMOUNT: (inv.GROSS - 2000 + 160) / 100,
      REFERENCE: inv.NUMBER.toLowerCase(),
      EXTERNALID: 'PAY-2',
    });
    expect(over.json()).toMatchObject({
      ALLOCATIONS: [{ NUMBER: inv.NUMBER, AMOUNT: inv.GROSS - 2000 }],
      UNALLOCATED: 160,
      REASON: 'OVERPAYMENT',
    });
    expect(await openOf(inv.NUMBER)).toBe(0);
    const settled = await pay({ DATE: '2026-11-22', AMOUNT: 1, REFERENCE: inv.NUMBER, EXTERNALID: 'PAY-3' });
    expect(settled.json()).toMatchObject({ ALLOCATIONS: [], UNALLOCATED: 100, REASON: 'ALREADY_SETTLED' });

    const unmatched = await pay({
      DATE: '2026-11-22',
      AMOUNT: 5,
      REFERENCE: 'INV-2026-999999',
      EXTERNALID: 'PAY-4',
    });
    expect(unmatched.json()).toMatchObject({
      CUSTOMER: null,
      ALLOCATIONS: [],
      UNALLOCATED: 500,
      REASON: 'NO_MATCH',
    });
    const freeText = await pay({ DATE: '2026-11-22', AMOUNT: 5, REFERENCE: 'thanks!', EXTERNALID: 'PAY-5' });
    expect(freeText.json()).toMatchObject({ UNALLOCATED: 500, REASON: 'NO_MATCH' });
    const wrongCurrency = await pay({
      DATE: '2026-11-22',
      AMOUNT: 5,
      CURRENCY: 'GBP',
      REFERENCE: inv.NUMBER,
      EXTERNALID: 'PAY-6',
    });
    expect(wrongCurrency.json()).toMatchObject({ REASON: 'CURRENCY_MISMATCH', UNALLOCATED: 500 });

    // A credit note is open (to the customer) until a refund paid out with its reference.
    const cn = await ctx.t.send(ctx.admin, 'POST', `/TV2/Admin/billing/invoices/${inv.NUMBER}/credit-notes`, {
      LINES: [{ LINE: 1, QUANTITY: 1 }],
    });
    const cnNo = cn.json().NUMBER as string;
    const wrongWay = await pay({ DATE: '2026-11-23', AMOUNT: 5, REFERENCE: cnNo, EXTERNALID: 'PAY-7' });
    expect(wrongWay.json()).toMatchObject({ REASON: 'WRONG_DIRECTION', UNALLOCATED: 500 });
    const refund = await pay({
      DATE: '2026-11-23',
      AMOUNT: -cn.json().GROSS / 100,
      REFERENCE: cn.json().DOCUMENT.paymentReference,
      EXTERNALID: 'PAY-8',
    });
    expect(refund.json()).toMatchObject({
      AMOUNT: -cn.json().GROSS,
      ALLOCATIONS: [{ NUMBER: cnNo, AMOUNT: cn.json().GROSS }],
      UNALLOCATED: 0,
    });
    expect(await openOf(cnNo)).toBe(0);
  });

  it('refuses a malformed structured communication, amount or date with 400 naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [
        { DATE: '2026-11-20', AMOUNT: 1, REFERENCE: '+++261/0000/00148+++', EXTERNALID: 'BAD-1' },
        '/REFERENCE',
      ],
      [{ DATE: '2026-11-20', AMOUNT: 1, REFERENCE: '261/0000/0014', EXTERNALID: 'BAD-2' }, '/REFERENCE'],
      [{ DATE: '2026-11-20', AMOUNT: '1.005', REFERENCE: 'INV-2026-000001', EXTERNALID: 'BAD-3' }, '/AMOUNT'],
      [{ DATE: '2026-11-20', AMOUNT: 0, REFERENCE: 'INV-2026-000001', EXTERNALID: 'BAD-4' }, '/AMOUNT'],
      [{ DATE: '2026-13-45', AMOUNT: 1, REFERENCE: 'INV-2026-000001', EXTERNALID: 'BAD-5' }, '/DATE'],
      [{ DATE: '2026-11-20', AMOUNT: 1, REFERENCE: 'INV-2026-000001' }, '/EXTERNALID'],
    ];
    for (const [body, name] of cases) {
      const res = await pay(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errors.map((e: { name: string }) => e.name)).toContain(name);
    }
    const written = await ctx.t.database.db
      .selectFrom('billing_payment')
      .select('external_ref')
      .where('external_ref', 'like', 'BAD-%')
      .execute();
    expect(written).toEqual([]);
  });

  it('imports payments from CSV: matched, repeated, unmatched; a malformed communication rejects its row only', async () => {
    const inv = await invoice(FIRST_DEMO_CUSTOMER + 4, 1);
    const file = join(dir, 'bank.csv');
    writeFileSync(
      file,
      [
        'DATE,AMOUNT,REFERENCE,EXTERNALID,CURRENCY',
        `2026-11-20,10.00,${inv.DOCUMENT.paymentReference},IMP-1,`,
        `2026-11-20,10.00,${inv.DOCUMENT.paymentReference},IMP-1,`,
        '2026-11-20,3.00,+++261/0000/00148+++,IMP-2,',
        `2026-11-21,${(inv.GROSS - 1000 + 1580) / 100},${inv.NUMBER},IMP-3,EUR`,
        '2026-11-21,7.00,unknown,IMP-4,',
      ].join('\n'),
    );
    const report = await runImport(ctx.t.services, payments, file);
    expect(report.records).toBe(5);
    expect(report.rejected).toEqual([
      {
        position: 4,
        reasons: [expect.stringMatching(/^\/REFERENCE: is not a valid structured communication/)],
      },
    ]);
    expect(report.written).toBe(3);
    expect(report.unchanged).toBe(1);
    expect(await openOf(inv.NUMBER)).toBe(0);
    const again = await runImport(ctx.t.services, payments, file);
    expect(again).toMatchObject({ written: 0, unchanged: 4 });
    expect(await openOf(inv.NUMBER)).toBe(0);
    const rows = await ctx.t.database.db
      .selectFrom('billing_payment')
      .select(['external_ref', 'unallocated', 'reason'])
      .where('external_ref', 'like', 'IMP-%')
      .orderBy('external_ref')
      .execute();
    expect(rows.map((r) => [r.external_ref, Number(r.unallocated), r.reason])).toEqual([
      ['IMP-1', 0, null],
      ['IMP-3', 1580, 'OVERPAYMENT'],
      ['IMP-4', 700, 'NO_MATCH'],
    ]);
  });
});

const modules = {
  databaseModule: new URL('../../../kernel/db/database.ts', import.meta.url).href,
  configModule: new URL('../../../config.ts', import.meta.url).href,
  servicesModule: new URL('../../../services.ts', import.meta.url).href,
};

/**
 * Each thread registers every payment of `workerData.calls` at once (with `perThread`, under an
 * external id of its own); outcomes "new <allocated>" or "repeat".
 */
const WORKER = `
const { parentPort, workerData, threadId } = require('node:worker_threads');
(async () => {
  (await import('tsx/esm/api')).register();
  const load = (m) => import(m);
  const { openDatabase } = await load(workerData.databaseModule);
  const { loadConfig } = await load(workerData.configModule);
  const { createServices } = await load(workerData.servicesModule);
  const config = loadConfig({}, { databaseUrl: workerData.url, demo: false });
  const database = openDatabase(workerData.url, { poolSize: 5 });
  const services = createServices(config, database);
  parentPort.once('message', async () => {
    const outcomes = await Promise.all(
      workerData.calls.map((input) =>
        services.billing.payments.register(workerData.perThread ? { ...input, externalRef: input.externalRef + '-' + threadId } : input).then(
          (o) => (o.repeated ? 'repeat' : 'new ' + (Math.abs(o.amount) - o.unallocated)),
          (e) => 'error ' + String((e && e.stack) || e),
        ),
      ),
    );
    await database.close();
    parentPort.postMessage(outcomes);
  });
  parentPort.postMessage('ready');
})().catch((e) => parentPort.postMessage(['worker failed: ' + e.stack]));
`;

async function allocatedTo(number: string): Promise<number> {
  const row = await ctx.t.database.db
    .selectFrom('billing_allocation as a')
    .innerJoin('billing_document as d', 'd.document_id', 'a.document_id')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('a.amount'), eb.val(0)).as('sum'))
    .where('d.number', '=', number)
    .executeTakeFirstOrThrow();
  return Number(row.sum);
}

describe(`payments from two connections at once (${ENGINE})`, () => {
  it(
    'the same payments imported twice at once are allocated once',
    async () => {
      const inv = await invoice(FIRST_DEMO_CUSTOMER + 5, 2);
      const calls = Array.from({ length: 10 }, (_, i) => ({
        date: '2026-11-24',
        amount: 100,
        currency: 'EUR',
        reference: { kind: 'number', value: inv.NUMBER },
        externalRef: `TWICE-${i}`,
      }));
      // Two threads, each with its own connection (or pool), each registering all ten.
      const { outcomes } = await runInThreads(WORKER, 2, { ...modules, url: ctx.t.databaseUrl, calls });
      expect(outcomes.filter((o) => o.startsWith('error'))).toEqual([]);
      expect(outcomes.filter((o) => o === 'new 100')).toHaveLength(10);
      expect(outcomes.filter((o) => o === 'repeat')).toHaveLength(10);
      expect(await allocatedTo(inv.NUMBER)).toBe(1000);
      expect(await openOf(inv.NUMBER)).toBe(inv.GROSS - 1000);
    },
    THREADS_TEST_TIMEOUT,
  );

  it(
    'twenty different payments at once (ten from each thread) never allocate more than is open',
    async () => {
      const inv = await invoice(FIRST_DEMO_CUSTOMER + 6, 3);
      const calls = Array.from({ length: 10 }, (_, i) => ({
        date: '2026-11-24',
        amount: 800,
        currency: 'EUR',
        reference: { kind: 'number', value: inv.NUMBER },
        externalRef: `RACE-${i}`,
      }));
      const { outcomes } = await runInThreads(WORKER, 2, {
        ...modules,
        url: ctx.t.databaseUrl,
        calls,
        perThread: true,
      });
      expect(outcomes.filter((o) => o.startsWith('error'))).toEqual([]);
      expect(outcomes.filter((o) => o.startsWith('new '))).toHaveLength(20);
      const allocated = outcomes.reduce((sum, o) => sum + Number(o.split(' ')[1] ?? 0), 0);
      expect(allocated).toBe(inv.GROSS);
      expect(await allocatedTo(inv.NUMBER)).toBe(inv.GROSS);
      expect(await openOf(inv.NUMBER)).toBe(0);
    },
    THREADS_TEST_TIMEOUT,
  );
});

/** Σ OPEN of a customer's unsettled items over HTTP (all pages), in minor units. */
async function openItemsTotal(customerNo: number): Promise<number> {
  let total = 0;
  let offset: number | null = 1;
  while (offset !== null) {
    const res = await ctx.t.call('GET', 'B2B_GetUnsettledItems', {
      token: ctx.b2b,
      query: { strcustomer: String(customerNo), stroffset: String(offset), strlimit: '3' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const page: { NEXTOFFSET: number | null; ITEMS: Array<{ OPEN: number }> } =
      res.json().B2BGETUNSETTLEDITEMS;
    for (const item of page.ITEMS) total += Math.round(item.OPEN * 100);
    offset = page.NEXTOFFSET;
  }
  return total;
}

/** Σ invoices − Σ credit notes − Σ allocated payments (refunds to credit notes counted negative), minor units. */
async function ledgerTotal(customerNo: number): Promise<number> {
  const db = ctx.t.database.db;
  const docs = await db
    .selectFrom('billing_document')
    .select(['document_id', 'doc_type', 'gross'])
    .where('customer_no', '=', customerNo)
    .execute();
  const sign = new Map(docs.map((d) => [Number(d.document_id), d.doc_type === 'INVOICE' ? 1 : -1]));
  const allocations = await db
    .selectFrom('billing_allocation')
    .select(['document_id', 'amount'])
    .where('document_id', 'in', [0, ...sign.keys()])
    .execute();
  const documents = docs.reduce((s, d) => s + (d.doc_type === 'INVOICE' ? 1 : -1) * Number(d.gross), 0);
  const allocated = allocations.reduce(
    (s, a) => s + (sign.get(Number(a.document_id)) ?? 0) * Number(a.amount),
    0,
  );
  return documents - allocated;
}

describe(`open items after random work (${ENGINE})`, () => {
  const CUSTOMERS = [FIRST_DEMO_CUSTOMER + 3, FIRST_DEMO_CUSTOMER + 4, FIRST_DEMO_CUSTOMER + 7];
  type Step =
    | { kind: 'invoice'; customer: number; pieces: number }
    | { kind: 'credit'; pick: number }
    | { kind: 'pay'; pick: number; cents: number; repeat: boolean; byNumber: boolean };
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({
      kind: fc.constant('invoice' as const),
      customer: fc.constantFrom(...CUSTOMERS),
      pieces: fc.integer({ min: 1, max: 3 }),
    }),
    fc.record({ kind: fc.constant('credit' as const), pick: fc.nat() }),
    fc.record({
      kind: fc.constant('pay' as const),
      pick: fc.nat(),
      cents: fc.integer({ min: 1, max: 8000 }),
      repeat: fc.boolean(),
      byNumber: fc.boolean(),
    }),
  );
  let paymentNo = 0;

  it('for every customer, open items = invoices − credit notes − allocated payments', async () => {
    const documents: Array<{ number: string; reference: string; type: 'INVOICE' | 'CREDIT_NOTE' }> = [];
    const sent: Array<Record<string, unknown>> = [];
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 5 }), async (steps) => {
        for (const s of steps) {
          if (s.kind === 'invoice') {
            const inv = await invoice(s.customer, s.pieces);
            documents.push({ number: inv.NUMBER, reference: inv.DOCUMENT.paymentReference, type: 'INVOICE' });
          } else if (documents.length > 0) {
            const doc = documents[s.pick % documents.length]!;
            if (s.kind === 'credit') {
              if (doc.type !== 'INVOICE') continue;
              const cn = await ctx.t.send(
                ctx.admin,
                'POST',
                `/TV2/Admin/billing/invoices/${doc.number}/credit-notes`,
                {
                  LINES: [{ LINE: 1, QUANTITY: 1 }],
                },
              );
              expect([200, 409], cn.body).toContain(cn.statusCode);
              if (cn.statusCode === 200)
                documents.push({
                  number: cn.json().NUMBER,
                  reference: cn.json().DOCUMENT.paymentReference,
                  type: 'CREDIT_NOTE',
                });
            } else {
              // A repeat sends an earlier payment again exactly as it was.
              const body =
                s.repeat && sent.length > 0
                  ? sent[s.pick % sent.length]!
                  : {
                      DATE: '2026-11-25',
                      AMOUNT: ((doc.type === 'INVOICE' ? 1 : -1) * s.cents) / 100,
                      REFERENCE: s.byNumber ? doc.number : doc.reference,
                      EXTERNALID: `PROP-${++paymentNo}`,
                    };
              sent.push(body);
              const res = await pay(body);
              expect(res.statusCode, res.body).toBe(200);
            }
          }
        }
        for (const customerNo of CUSTOMERS)
          expect(await openItemsTotal(customerNo)).toBe(await ledgerTotal(customerNo));
        const negative = await ctx.t.database.db
          .selectFrom('billing_open_item')
          .select('document_id')
          .where('open_amount', '<', 0)
          .execute();
        expect(negative).toEqual([]);
      }),
      { numRuns: 25 },
    );
    // The runs did work: documents issued and credited, payments registered.
    expect(documents.filter((d) => d.type === 'INVOICE').length).toBeGreaterThan(5);
    expect(paymentNo).toBeGreaterThan(5);
  }, 180_000);
});
