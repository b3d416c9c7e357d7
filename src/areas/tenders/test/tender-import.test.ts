import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectScnStep } from '../../../../test/helpers/scn.ts';
import { ENGINE } from '../../../../test/helpers/test-app.ts';
import { currentScn } from '../../../kernel/db/unit-of-work.ts';
import { runImport } from '../../../kernel/import/run-import.ts';
import { TENDERS_IMPORT_KINDS } from '../import-kinds.ts';
import { expectProblem, tendersContext } from './tenders-context.ts';

/**
 * `tv2 import vouchers` and `tv2 import bonusbalances` (docs/tenders.md, "Import"): once per code,
 * imported codes keep their old form and validate and cash as ours do.
 */
const ctx = tendersContext();
const dir = mkdtempSync(join(tmpdir(), 'tv2-tender-import-'));
const kind = (name: string) => TENDERS_IMPORT_KINDS.find((k) => k.name === name)!;

function file(name: string, lines: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, lines.join('\n'));
  return path;
}

describe(`importing tenders (${ENGINE})`, () => {
  it('imports vouchers once: the same file again changes nothing (not even the SCN)', async () => {
    const client = await ctx.newClient();
    const csv = file('v.csv', [
      'KIND,CODE,CLIENT,CURRENCY,BALANCE,VALIDUNTIL',
      'GIFT_VOUCHER,old-0001-aa,,EUR,25.00,2099-06-30',
      `CREDIT_NOTE_VOUCHER,OLDCN0001,${client},EUR,12.5,2099-01-31`,
      `CLIENT_CHEQUE,OLD CHQ 0001,${client},,7.00,2099-01-31`,
    ]);
    expect(await runImport(ctx.t.services, kind('vouchers'), csv)).toMatchObject({
      records: 3,
      written: 3,
      rejected: [],
    });
    const before = await currentScn(ctx.t.database.db);
    expect(await runImport(ctx.t.services, kind('vouchers'), csv)).toMatchObject({
      written: 0,
      unchanged: 3,
      rejected: [],
    });
    expectScnStep(before, await currentScn(ctx.t.database.db), 0);
    const { balance, entries } = await ctx.ledger('OLD0001AA');
    expect(balance).toBe(25);
    expect(entries).toMatchObject([{ KIND: 'ISSUE', AMOUNT: 25, REFERENCE: 'IMPORT:OLD0001AA' }]);
  });

  it('an imported code keeps its old form: it validates and cashes as typed, a mistyped one is refused', async () => {
    const csv = file('v2.csv', ['KIND,CODE,BALANCE,VALIDUNTIL', 'GIFT_VOUCHER,7731 0042 9981,30,2099-12-31']);
    expect((await runImport(ctx.t.services, kind('vouchers'), csv)).written).toBe(1);
    const ok = await ctx.validate('7731-0042-9981');
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().B2CVALIDATEVOUCHER).toMatchObject({
      CODE: '773100429981',
      BALANCE: 30,
      KIND: 'GIFT_VOUCHER',
    });
    expectProblem(await ctx.validate('773100429982'), 409, 'VOUCHER_NOT_USABLE');
    const cashed = await ctx.cash('773100429981', 10, 'IMP-WEB-1');
    expect(cashed.statusCode, cashed.body).toBe(200);
    expect(cashed.json().B2CPOSTCASHEDVOUCHER).toMatchObject({ BALANCE: 20 });
    // Cashed since: the import again still changes nothing (it compares the imported balance).
    expect(await runImport(ctx.t.services, kind('vouchers'), csv)).toMatchObject({
      written: 0,
      unchanged: 1,
    });
  });

  it('refuses, naming row (its line) and field: another balance for a code imported before, a bad code, a missing client', async () => {
    const csv = file('v3.csv', [
      'KIND,CODE,CLIENT,BALANCE,VALIDUNTIL',
      'GIFT_VOUCHER,OLD-0001-AA,,26.00,2099-06-30',
      'GIFT_VOUCHER,AB1,,5,2099-06-30',
      'GIFT_VOUCHER,ABCDEFGHJKMNPQRST,,5,2099-06-30',
      'CREDIT_NOTE_VOUCHER,OLDCN0099,,5,2099-06-30',
      'CLIENT_CHEQUE,OLDCHQ0099,99999999,5,2099-06-30',
      'GIFT_VOUCHER,OLDGV0099,,0,2099-06-30',
      'GIFT_VOUCHER,OLDGV0100,,5,2099-02-30',
      'GIFT_VOUCHER,OLDGV0101,,5,2099-06-30',
    ]);
    const report = await runImport(ctx.t.services, kind('vouchers'), csv, { batchSize: 10 });
    expect(report.written).toBe(1);
    expect(report.rejected).toEqual([
      {
        position: 2,
        reasons: [expect.stringMatching(/^\/BALANCE: was imported before as 25\.00, not 26\.00/)],
      },
      { position: 3, reasons: [expect.stringMatching(/^\/CODE: must be 6 to 40/)] },
      { position: 4, reasons: [expect.stringMatching(/^\/CODE: /)] },
      { position: 5, reasons: [expect.stringMatching(/^\/CLIENT: /)] },
      { position: 6, reasons: [expect.stringMatching(/CLIENT_NOT_FOUND/)] },
      { position: 7, reasons: [expect.stringMatching(/^\/BALANCE: /)] },
      { position: 8, reasons: [expect.stringMatching(/^\/VALIDUNTIL: /)] },
    ]);
    expect((await ctx.ledger('OLD0001AA')).balance).toBe(25);
  });

  it('imports bonus balances once per card; the card then takes updates and its history adds up', async () => {
    const csv = file('b.csv', ['CARDNO,CLIENT,BALANCE', '60000001,,17.40', '60000002,,3.25']);
    expect(await runImport(ctx.t.services, kind('bonusbalances'), csv)).toMatchObject({ written: 2 });
    expect(await runImport(ctx.t.services, kind('bonusbalances'), csv)).toMatchObject({ unchanged: 2 });
    const other = file('b2.csv', ['CARDNO,CLIENT,BALANCE', '60000001,,20.00']);
    expect((await runImport(ctx.t.services, kind('bonusbalances'), other)).rejected).toEqual([
      { position: 2, reasons: [expect.stringMatching(/^\/BALANCE: /)] },
    ]);
    const up = await ctx.t.call('POST', 'B2C_UpdateBonusCardValue', {
      token: ctx.shop,
      body: { CARDNO: 60000001, CARDVALUE: -2.4, DATE: '2026-11-26', WEBORDER: 'IMP-B-1' },
    });
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json().B2CUPDATEBONUSCARDVALUE.CARDVALUE).toBe(15);
    const history = await ctx.t.call('GET', 'B2C_BonuscardHistory', {
      token: ctx.shop,
      query: { strcardno: '60000001' },
    });
    expect(history.json().B2CBONUSCARDHISTORY.ENTRIES.map((e: { CHANGE: number }) => e.CHANGE)).toEqual([
      17.4, -2.4,
    ]);
    // A card tv2 created by its own updates is not overwritten by an import.
    const native = file('b3.csv', ['CARDNO,BALANCE', '60000009,5']);
    await ctx.t.call('POST', 'B2C_UpdateBonusCardValue', {
      token: ctx.shop,
      body: { CARDNO: 60000009, CARDVALUE: 1, DATE: '2026-11-26', WEBORDER: 'IMP-B-2' },
    });
    expect((await runImport(ctx.t.services, kind('bonusbalances'), native)).rejected).toEqual([
      { position: 2, reasons: [expect.stringMatching(/^\/CARDNO: .*not imported/)] },
    ]);
  });
});
