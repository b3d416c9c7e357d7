import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budget, tv2 } from '../../../../test/helpers/cli.ts';
import { ENGINE, startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { runInThreads, THREADS_TEST_TIMEOUT } from '../../../../test/helpers/threads.ts';
import { TenderImportService } from '../tender-import-service.ts';

/**
 * Expiry (docs/tenders.md, "Expiry"): one EXPIRE entry per tender past its last valid day, taking
 * its balance to 0, once, also when runs from separate connections overlap; the liability report
 * drops by exactly what was written off.
 */

let t: TestApp;
let admin = '';
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.tokenFor(['ADMIN']);
});
afterAll(() => t.close());

let n = 0;
/** Imports a gift voucher of `cents` whose last valid day is `validUntil`; its code. */
async function voucher(cents: number, validUntil: string, currency = 'EUR'): Promise<string> {
  const code = `EXPTEST${String(++n).padStart(6, '0')}`;
  await new TenderImportService(t.database).importTender(
    { kind: 'GIFT_VOUCHER', code, clientNo: null, currency, amount: cents, validUntil },
    '/CODE',
  );
  return code;
}

async function liability(): Promise<Map<string, number>> {
  const res = await t.send(admin, 'GET', '/TV2/Admin/tenderliability');
  const out = new Map<string, number>();
  for (const r of res.json().LIABILITY as { CURRENCY: string; BALANCE: number }[]) {
    out.set(r.CURRENCY, (out.get(r.CURRENCY) ?? 0) + Math.round(r.BALANCE * 100));
  }
  return out;
}

async function entriesOf(code: string) {
  const res = await t.send(admin, 'GET', `/TV2/Admin/vouchers/${code}`);
  return res.json() as {
    VOUCHER: { BALANCE: number };
    ENTRIES: { KIND: string; AMOUNT: number; REFERENCE: string }[];
  };
}

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const { tsImport } = await import('tsx/esm/api');
  const { openDatabase } = await tsImport(workerData.databaseModule, workerData.databaseModule);
  const { ExpiryService } = await tsImport(workerData.serviceModule, workerData.serviceModule);
  const database = openDatabase(workerData.url, { poolSize: 2 });
  const expiry = new ExpiryService(database);
  parentPort.once('message', async () => {
    const outcome = await expiry.expireAll().then(
      (r) => [r.expired + ' ' + r.amounts.map((a) => a.currency + '=' + a.amount).join(',')],
      (e) => ['error ' + String((e && e.stack) || e)],
    );
    await database.close();
    parentPort.postMessage(outcome);
  });
  parentPort.postMessage('ready');
})().catch((e) => parentPort.postMessage(['worker failed: ' + e.stack]));
`;

describe(`tender expiry (${ENGINE})`, () => {
  it('writes each expired balance off with one EXPIRE entry; valid, empty and future tenders are left; a repeat does nothing', async () => {
    const past = await voucher(2_500, '2020-01-31');
    const pastUsd = await voucher(1_000, '2021-06-30', 'USD');
    const future = await voucher(4_000, '2099-12-31');
    const before = await liability();
    const res = await t.send(admin, 'POST', '/TV2/Admin/tenders/expire');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      EXPIRED: 2,
      AMOUNTS: [
        { CURRENCY: 'EUR', TENDERS: 1, AMOUNT: 25 },
        { CURRENCY: 'USD', TENDERS: 1, AMOUNT: 10 },
      ],
    });
    const after = await liability();
    expect((before.get('EUR') ?? 0) - (after.get('EUR') ?? 0)).toBe(2_500);
    expect((before.get('USD') ?? 0) - (after.get('USD') ?? 0)).toBe(1_000);
    const expired = await entriesOf(past);
    expect(expired.VOUCHER.BALANCE).toBe(0);
    expect(expired.ENTRIES.map((e) => [e.KIND, e.AMOUNT, e.REFERENCE])).toEqual([
      ['ISSUE', 25, `IMPORT:${past}`],
      ['EXPIRE', -25, 'EXPIRED:2020-01-31'],
    ]);
    expect((await entriesOf(pastUsd)).VOUCHER.BALANCE).toBe(0);
    expect((await entriesOf(future)).ENTRIES).toHaveLength(1);
    const again = await t.send(admin, 'POST', '/TV2/Admin/tenders/expire');
    expect(again.json()).toMatchObject({ EXPIRED: 0, AMOUNTS: [] });
    expect(await liability()).toEqual(after);
  });

  it(
    'two runs from separate connections at once expire each tender once',
    async () => {
      const codes: string[] = [];
      for (let i = 0; i < 40; i++) codes.push(await voucher(100 + i, '2022-03-01'));
      const total = codes.reduce((s, _c, i) => s + 100 + i, 0);
      const before = await liability();
      const { outcomes } = await runInThreads<string>(WORKER, 2, {
        url: t.databaseUrl,
        databaseModule: new URL('../../../kernel/db/database.ts', import.meta.url).href,
        serviceModule: new URL('../expiry-service.ts', import.meta.url).href,
      });
      const counts = outcomes.map((o) => {
        expect(o).toMatch(/^\d+ /);
        return Number(o.split(' ')[0]);
      });
      expect(counts.reduce((s, c) => s + c, 0)).toBe(40);
      expect((before.get('EUR') ?? 0) - ((await liability()).get('EUR') ?? 0)).toBe(total);
      for (const code of codes) {
        const { VOUCHER, ENTRIES } = await entriesOf(code);
        expect(VOUCHER.BALANCE).toBe(0);
        expect(ENTRIES.filter((e) => e.KIND === 'EXPIRE')).toHaveLength(1);
      }
    },
    THREADS_TEST_TIMEOUT,
  );

  it('the unique (tender, EXPIRE, reference) key: a balance put back by hand is not expired a second time under the same day', async () => {
    const code = await voucher(900, '2024-05-31');
    expect((await t.services.tenders.expiry.expireAll()).expired).toBeGreaterThanOrEqual(1);
    // A statement outside the ledger (a bug, a hand-written UPDATE) puts the balance back.
    await t.database.db.updateTable('tender').set({ balance: 900 }).where('code', '=', code).execute();
    const again = await t.services.tenders.expiry.expireAll();
    expect(again.expired).toBe(0);
    const { VOUCHER, ENTRIES } = await entriesOf(code);
    expect(VOUCHER.BALANCE).toBe(9);
    expect(ENTRIES.filter((e) => e.KIND === 'EXPIRE')).toHaveLength(1);
  });

  it('tv2 tenders expire does the same from the command line', { timeout: budget(2) }, async () => {
    const code = await voucher(1_250, '2025-02-28');
    const run = await tv2(['tenders', 'expire'], { DATABASE_URL: t.databaseUrl });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/tenders expired: 1 /);
    expect(run.stdout).toMatch(/EUR: 1 tenders, 12\.50 written off/);
    expect((await entriesOf(code)).VOUCHER.BALANCE).toBe(0);
  });

  it('a code past its day is refused by validation and not expired by it (reads write nothing)', async () => {
    const code = await voucher(700, '2023-01-01');
    const shop = await t.tokenFor(['B2C']);
    const res = await t.call('GET', 'B2C_ValidateVoucher', { token: shop, query: { strcode: code } });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('VOUCHER_NOT_USABLE');
    expect((await entriesOf(code)).VOUCHER.BALANCE).toBe(7);
  });
});
