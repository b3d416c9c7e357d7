import fc from 'fast-check';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { assertProperty } from '../../../../test/helpers/seed.ts';
import { ENGINE } from '../../../../test/helpers/test-app.ts';
import { TenderImportService } from '../tender-import-service.ts';
import { expectProblem, tendersContext } from './tenders-context.ts';

// Refused cashings of blocked vouchers are many here: the throttle (vouchers.test.ts) is kept out of the way.
const ctx = tendersContext({ voucherCheckMaxFailures: 1_000_000 });

/** Every tender whose balance is not the sum of its entries (none, when the ledger holds). */
async function ledgerMismatches() {
  const { rows } = await sql<{ id: number; balance: number | string; entries: number | string }>`
    select t.id, t.balance, coalesce(sum(e.amount), 0) as entries
    from tender t left join tender_entry e on e.tender_id = t.id
    group by t.id, t.balance`.execute(ctx.t.database.db);
  return rows.filter((r) => Number(r.balance) !== Number(r.entries));
}

async function liabilityTotal(): Promise<number> {
  const res = await ctx.t.send(ctx.admin, 'GET', '/TV2/Admin/tenderliability');
  const rows = res.json().LIABILITY as { BALANCE: number }[];
  return Math.round(rows.reduce((s, r) => s + r.BALANCE * 100, 0));
}

type Step =
  | { op: 'issue'; amount: number; webId: number }
  | { op: 'cash'; voucher: number; amount: number; reference: number }
  | { op: 'block'; voucher: number; blocked: boolean };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    op: fc.constant('issue' as const),
    amount: fc.integer({ min: 1, max: 20_000 }),
    webId: fc.nat(30),
  }),
  fc.record({
    op: fc.constant('cash' as const),
    voucher: fc.nat(20),
    amount: fc.integer({ min: 1, max: 8_000 }),
    reference: fc.nat(15),
  }),
  fc.record({ op: fc.constant('block' as const), voucher: fc.nat(20), blocked: fc.boolean() }),
);

describe(`tenders as ledgers (${ENGINE})`, () => {
  it('keeps balance = Σ entries for every tender, and Σ balances = the liability report, after random work', async () => {
    let run = 0;
    const expected = new Map<string, number>();
    await assertProperty(
      fc.asyncProperty(
        fc.array(fc.array(stepArb, { minLength: 1, maxLength: 4 }), { maxLength: 12 }),
        async (batches) => {
          run++;
          const codes: string[] = [];
          const issued = new Map<number, string>();
          for (const batch of batches) {
            // The steps of a batch run at once, so cashings also meet each other; all of them end
            // before a failure is reported, so none runs on into the next case.
            const settled = await Promise.allSettled(
              batch.map(async (step) => {
                if (step.op === 'issue') {
                  const res = await ctx.issueGift({
                    AMOUNT: step.amount / 100,
                    WEBID: `P${run}-${step.webId}`,
                  });
                  if (res.statusCode === 409) return expect(res.json().code).toBe('TENDER_KEY_REUSED');
                  expect(res.statusCode, res.body).toBe(200);
                  const v = res.json().B2CPOSTNEWGIFTVOUCHER;
                  if (v.CREATED) {
                    expected.set(v.VOUCHER.CODE, step.amount);
                    codes.push(v.VOUCHER.CODE);
                    issued.set(step.webId, v.VOUCHER.CODE);
                  }
                  return;
                }
                const code = codes[step.voucher % Math.max(codes.length, 1)];
                if (!code) return;
                if (step.op === 'block') {
                  await ctx.t.send(ctx.admin, 'PUT', `/TV2/Admin/vouchers/${code}/blocked`, {
                    BLOCKED: step.blocked,
                  });
                  return;
                }
                const res = await ctx.cash(code, step.amount / 100, `P${run}-R${step.reference}`);
                if (res.statusCode === 200) {
                  const c = res.json().B2CPOSTCASHEDVOUCHER;
                  if (c.CREATED) expected.set(code, (expected.get(code) ?? 0) - step.amount);
                  return;
                }
                expect(res.statusCode, res.body).toBe(409);
                expect(['VOUCHER_BALANCE_INSUFFICIENT', 'VOUCHER_NOT_USABLE', 'TENDER_KEY_REUSED']).toContain(
                  res.json().code,
                );
              }),
            );
            for (const s of settled) if (s.status === 'rejected') throw s.reason;
          }
          expect(await ledgerMismatches()).toEqual([]);
          for (const [code, balance] of expected) {
            if (!codes.includes(code)) continue;
            expect(Math.round((await ctx.ledger(code)).balance * 100)).toBe(balance);
          }
          const total = [...expected.values()].reduce((s, b) => s + b, 0);
          expect(await liabilityTotal()).toBe(total + (await otherTendersTotal(expected)));
        },
      ),
      15,
    );
  }, 120_000);

  it('the database refuses a negative balance whatever statement tries (the CHECK behind the debit)', async () => {
    const code = await ctx.gift(5);
    await expect(
      ctx.t.database.db.updateTable('tender').set({ balance: -1 }).where('code', '=', code).execute(),
    ).rejects.toThrow(/check|constraint/i);
    expect((await ctx.ledger(code)).balance).toBe(5);
  });

  it('Odoo #79235: one gift card redeemed again and again pays once per reference and never past its value', async () => {
    const code = await ctx.gift(100);
    const reference = ctx.unique('ORDER');
    for (let i = 0; i < 5; i++) {
      expect((await ctx.cash(code, 20, reference)).json().B2CPOSTCASHEDVOUCHER).toMatchObject({
        BALANCE: 80,
      });
    }
    expectProblem(await ctx.cash(code, 90, ctx.unique('ORDER')), 409, 'VOUCHER_BALANCE_INSUFFICIENT');
    const { balance, entries } = await ctx.ledger(code);
    expect(balance).toBe(80);
    expect(entries.filter((e) => e.KIND === 'REDEEM')).toHaveLength(1);
  });

  it('Odoo PR 273419: a top-up (the sale that issued a voucher) cannot be paid with that same voucher', async () => {
    const sale = ctx.unique('RECEIPT');
    const code = await ctx.gift(50, { WEBID: sale });
    expectProblem(await ctx.cash(code, 50, sale), 409, 'VOUCHER_PAYS_OWN_ISSUE');
    expect((await ctx.ledger(code)).balance).toBe(50);
  });

  it('Odoo #135393: a spent card is not re-applied through a refund: no negative cashing, nothing credited', async () => {
    const code = await ctx.gift(15);
    const order = ctx.unique('ORDER');
    expect((await ctx.cash(code, 15, order)).statusCode).toBe(200);
    expectProblem(await ctx.cash(code, -15, ctx.unique('REFUND')), 400, 'VALIDATION_FAILED');
    expectProblem(await ctx.cash(code, 0, ctx.unique('REFUND')), 400, 'VALIDATION_FAILED');
    // Replaying the spending cashing answers it again and takes nothing (there is nothing left).
    expect((await ctx.cash(code, 15, order)).json().B2CPOSTCASHEDVOUCHER).toMatchObject({
      CREATED: false,
      BALANCE: 0,
    });
    expectProblem(await ctx.cash(code, 0.01, ctx.unique('ORDER')), 409, 'VOUCHER_BALANCE_INSUFFICIENT');
    expectProblem(await ctx.validate(code), 409, 'VOUCHER_NOT_USABLE');
    const { balance, entries } = await ctx.ledger(code);
    expect(balance).toBe(0);
    expect(entries.map((e) => e.AMOUNT)).toEqual([15, -15]);
  });
});

describe(`imported and expired tenders in the ledger (${ENGINE})`, () => {
  it('keep balance = Σ entries and Σ balances = the liability report: imports, cashings and an expiry run', async () => {
    const importer = new TenderImportService(ctx.t.database);
    const imported = async (code: string, amount: number, validUntil: string) =>
      importer.importTender(
        { kind: 'GIFT_VOUCHER', code, clientNo: null, currency: 'EUR', amount, validUntil },
        '/CODE',
      );
    await imported('LEDGERIMP001', 5_000, '2099-12-31');
    await imported('LEDGERIMP002', 1_234, '2021-12-31');
    await importer.importTender(
      { kind: 'BONUS_CARD', code: '70000001', clientNo: null, currency: 'EUR', amount: 990, validUntil: '' },
      '/CARDNO',
    );
    await Promise.all([
      ctx.cash('LEDGERIMP001', 10, 'LEDGER-IMP-A'),
      ctx.cash('LEDGERIMP001', 15, 'LEDGER-IMP-B'),
      ctx.cash('LEDGERIMP001', 10, 'LEDGER-IMP-A'),
      ctx.t.services.tenders.expiry.expireAll(),
    ]);
    expect((await ctx.ledger('LEDGERIMP001')).balance).toBe(25);
    expect((await ctx.ledger('LEDGERIMP002')).balance).toBe(0);
    expect(await ledgerMismatches()).toEqual([]);
    const rows = await ctx.t.database.db.selectFrom('tender').select('balance').execute();
    expect(await liabilityTotal()).toBe(rows.reduce((s, r) => s + Number(r.balance), 0));
  });
});

/** What tenders outside the property's model hold (those of the other tests of this file). */
async function otherTendersTotal(model: Map<string, number>): Promise<number> {
  const rows = await ctx.t.database.db.selectFrom('tender').select(['code', 'balance']).execute();
  return rows.filter((r) => !model.has(r.code)).reduce((s, r) => s + Number(r.balance), 0);
}
