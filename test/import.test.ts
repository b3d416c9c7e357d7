import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toEan13 } from '../src/areas/catalog/ean.ts';
import { IMPORT_KINDS } from '../src/areas.ts';
import { currentScn } from '../src/kernel/db/unit-of-work.ts';
import { runImport } from '../src/kernel/import/run-import.ts';
import { budget, tv2 } from './helpers/cli.ts';
import { expectScnStep } from './helpers/scn.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
let token: string;
const dir = mkdtempSync(join(tmpdir(), 'tv2-import-'));
const kind = (name: string) => IMPORT_KINDS[name]!;

beforeAll(async () => {
  t = await startTestApp();
  token = await t.tokenFor(['B2B']);
});
afterAll(() => t.close());

const scn = async () =>
  (await t.call('GET', 'B2B_GetAllArticles', { token, query: { strlimit: '1' } })).json().B2BGETALLARTICLES
    .SCN;

/** Places wholesale order `n` (WEBORDER IMP-n) of the example customer 20001 and confirms it. */
async function confirmedOrder(n: number): Promise<void> {
  const res = await t.call('POST', 'B2B_PostOrdCus', {
    token,
    body: {
      ORDERREQUEST: {
        ORDERHEADER: { CUSTOMER: '20001', WEBORDER: `IMP-${n}` },
        ORDERLINES: [
          { BARCODE: '8700000000025', QUANTITY: '10' },
          { BARCODE: '8700000000032', QUANTITY: '10' },
        ],
      },
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().B2BPOSTORDCUS.ORDERNO).toBe(n);
  await t.services.orders.moves.move(n, { name: 'confirm' }, 'BACK_OFFICE');
}

describe('tv2 import', () => {
  it('imports the example files, and a second import of the same file changes nothing', async () => {
    const tables = await runImport(t.services, kind('sizetables'), 'examples/sizetables.csv');
    expect(tables).toMatchObject({ records: 2, written: 2, rejected: [] });
    const csv = await runImport(t.services, kind('articles'), 'examples/articles.csv');
    expect(csv).toMatchObject({ records: 3, written: 3, unchanged: 0, rejected: [] });
    const json = await runImport(t.services, kind('articles'), 'examples/articles.json');
    expect(json).toMatchObject({ records: 1, written: 1, rejected: [] });

    const res = await t.call('GET', 'B2B_GetArticle', { token, query: { strarticle: 'T2001-900' } });
    const a = res.json().B2BGETARTICLE.ARTICLES[0];
    expect(a.SIZES.map((s: { SIZEX: string }) => s.SIZEX)).toEqual(['S', 'M', 'L', 'XL']);
    expect(a.ARTICLEDESCRIPTION.LANGUAGE_2).toBe('T-shirt black');

    const before = await scn();
    const again = await runImport(t.services, kind('articles'), 'examples/articles.csv');
    expect(again).toMatchObject({ written: 0, unchanged: 3 });
    expectScnStep(before, await scn(), 0);
  });

  it('has an example file of every kind, and they import in order without a rejection', async () => {
    const order = ['sizetables', 'articles', 'locations', 'stock', 'customers', 'prices', 'agreements'];
    order.push(
      'clients',
      'shops',
      'representatives',
      'customerdetails',
      'customerarticlelinks',
      'deliveries',
      'payments',
      'vouchers',
      'bonusbalances',
    );
    expect([...order].sort()).toEqual(Object.keys(IMPORT_KINDS).sort());
    for (const name of order) {
      // Deliveries deliver orders: four confirmed orders of customer 20001 (1 and 2 for the example
      // file, 3 and 4 for the batches below), two lines of 10 each.
      if (name === 'deliveries') for (const n of [1, 2, 3, 4]) await confirmedOrder(n);
      const report = await runImport(t.services, kind(name), `examples/${name}.csv`);
      expect(report.rejected, name).toEqual([]);
      expect(report.records, name).toBeGreaterThan(0);
    }
  });

  it('rejects bad records with their line and reason and imports the rest of the batch', async () => {
    const file = join(dir, 'mixed.csv');
    writeFileSync(
      file,
      [
        'ARTICLE,MODEL,COLOUR,SIZETABLE,PERCVAT,RETAIL,SIZES',
        'G1-1,G1,1,TOPS,21,1,S=8700000100015',
        'G1-2,G1,2,NOPE,21,1,',
        'G1-3,G1,3,TOPS,twenty,1,',
        'G1-4,G1,4,TOPS,21,1,S=8700000100015',
        'G1-5,G1,5,TOPS,9.5,0,M=8700000100022',
      ].join('\n'),
    );
    const report = await runImport(t.services, kind('articles'), file, { batchSize: 10 });
    expect(report.records).toBe(5);
    expect(report.written).toBe(2);
    expect(report.rejected).toEqual([
      { position: 3, reasons: ['/SIZETABLE: no size table "NOPE"'] },
      { position: 4, reasons: ['/PERCVAT: must be an amount with at most two decimals'] },
      { position: 5, reasons: ['BARCODE_TAKEN: Barcode 8700000100015 belongs to article G1-1.'] },
    ]);
    const g5 = (await t.call('GET', 'B2B_GetArticle', { token, query: { strarticle: 'G1-5' } })).json();
    expect(g5.B2BGETARTICLE.ARTICLES[0]).toMatchObject({ PERCVAT: 9.5, RETAIL: false });
  });

  it('reads JSON lines and reports a malformed line without stopping', async () => {
    const file = join(dir, 'articles.jsonl');
    const good = { ARTICLE: 'H1-1', MODEL: 'H1', COLOUR: '1', SIZETABLE: 'TOPS', PERCVAT: '21', SIZES: [] };
    writeFileSync(
      file,
      `${JSON.stringify(good)}\n{"ARTICLE": \n\n${JSON.stringify({ ...good, ARTICLE: 'H1-2' })}\n`,
    );
    const report = await runImport(t.services, kind('articles'), file);
    expect(report.written).toBe(2);
    expect(report.rejected).toEqual([{ position: 2, reasons: [expect.stringMatching(/^not valid JSON/)] }]);
  });

  it('tells success from partial failure by its exit code', { timeout: budget(4) }, async () => {
    const run = (args: string[]) => tv2(args, { DATABASE_URL: t.databaseUrl });
    const ok = await run(['import', 'articles', 'examples/articles.csv']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/3 records, 0 written, 3 unchanged, 0 rejected/);
    const partial = await run(['import', 'articles', join(dir, 'mixed.csv')]);
    expect(partial.code).toBe(3);
    expect(partial.stdout).toMatch(/mixed\.csv:3: \/SIZETABLE: no size table "NOPE"/);
    expect((await run(['import', 'nonsense', 'examples/articles.csv'])).code).toBe(1);
    expect((await run(['import', 'articles', join(dir, 'missing.csv')])).code).toBe(1);
  });
});

/**
 * Every kind saves a batch (--batch-size) as one transaction: importing 4 new records in batches of
 * 2 moves the SCN by exactly 2 (one per transaction; saved one record a transaction it would move
 * by 4). And a record the database refuses is rejected alone: the other records of its batch are
 * saved. In dependency order, each kind on the data of the ones before; `mixed` has a bad record
 * (refused when saved, not when read) between two good ones.
 */
const ean = (n: number) => toEan13(`87000003${String(n).padStart(4, '0')}`);
const BATCHED: Array<{ kind: string; good: string[]; mixed: string[]; refused: RegExp }> = [
  {
    kind: 'sizetables',
    good: [
      'SIZETABLE,SIZES,DESCRIPTION_LANGUAGE_2',
      'BT1,S|M|L,One',
      'BT2,S|M,Two',
      'BT3,38|39,Three',
      'BT4,XS,Four',
    ],
    mixed: ['SIZETABLE,SIZES', 'BT5,S', 'BT6,S|S', 'BT7,M'],
    refused: /sizes repeat/,
  },
  {
    kind: 'articles',
    good: [
      'ARTICLE,MODEL,COLOUR,SIZETABLE,PERCVAT,RETAIL,SIZES',
      ...[1, 2, 3, 4].map((i) => `BA1-${i},BA1,${i},BT1,21,1,S=${ean(i * 10)}|M=${ean(i * 10 + 1)}`),
    ],
    mixed: [
      'ARTICLE,MODEL,COLOUR,SIZETABLE,PERCVAT,RETAIL,SIZES',
      `BA2-1,BA2,1,BT1,21,1,S=${ean(101)}`,
      'BA2-2,BA2,2,NOPE,21,1,',
      `BA2-3,BA2,3,BT1,21,1,S=${ean(103)}`,
    ],
    refused: /no size table "NOPE"/,
  },
  {
    kind: 'locations',
    good: [
      'LOCATION,NAME,KIND,WHOLESALE,RETAIL,ACTIVE,ADDRESS,HOUSENUMBER,POSTALCODE,CITY,COUNTRY',
      ...[1, 2, 3, 4].map((i) => `BL${i},Shop ${i},SHOP,0,1,1,Street,${i},1012 AB,Amsterdam,NL`),
    ],
    mixed: [
      'LOCATION,NAME,KIND,WHOLESALE,RETAIL,ACTIVE',
      'BL5,Warehouse,WAREHOUSE,1,0,1',
      'BL 6,Bad code,SHOP,0,1,1',
      'BL7,Shop 7,SHOP,0,1,1',
    ],
    refused: /^\/LOCATION: use 1 to 20 letters/,
  },
  {
    kind: 'stock',
    good: [
      'LOCATION,ARTICLE,SIZEX,ONHAND',
      'BL1,BA1-1,S,5',
      'BL1,BA1-1,M,6',
      'BL1,BA1-2,S,7',
      'BL1,BA1-2,M,8',
    ],
    mixed: ['LOCATION,ARTICLE,SIZEX,ONHAND', 'BL2,BA1-1,S,1', 'BL2,NOPE-1,S,2', 'BL2,BA1-2,S,3'],
    refused: /no article "NOPE-1"/,
  },
  {
    kind: 'customers',
    good: [
      'CUSTOMER,NAME,PRICEGROUP,CUSTOMERGROUP,CURRENCY,DISCOUNTPERC,ACTIVE',
      ...[1, 2, 3, 4].map((i) => `3000${i},Customer ${i},2,,EUR,0,1`),
    ],
    mixed: [
      'CUSTOMER,NAME,PRICEGROUP,CURRENCY,DISCOUNTPERC',
      '30005,Five,2,EUR,0',
      '30006,Six,2,EUR,150',
      '30007,Seven,2,EUR,0',
    ],
    refused: /DISCOUNTPERC: must be 0 to 10000 basis points/,
  },
  {
    kind: 'prices',
    good: [
      'ARTICLE,PRICETYPE,PRICEGROUP,CURRENCY,SIZEX,PRICE',
      'BA1-1,SELLING,2,EUR,S,9.95',
      'BA1-1,SELLING,2,EUR,M,9.95',
      'BA1-2,SELLING,2,EUR,S,12.50',
      'BA1-2,SELLING,2,EUR,M,12.50',
    ],
    mixed: [
      'ARTICLE,PRICETYPE,PRICEGROUP,CURRENCY,SIZEX,PRICE',
      'BA1-3,SELLING,2,EUR,S,5',
      'NOPE-1,SELLING,2,EUR,S,5',
      'BA1-3,SELLING,2,EUR,M,5',
    ],
    refused: /no article "NOPE-1"/,
  },
  {
    kind: 'agreements',
    good: [
      'CUSTOMER,ARTICLE,MINQUANTITY,VALIDFROM,DISCOUNTPERC',
      ...[1, 2, 3, 4].map((i) => `3000${i},BA1-1,1,2026-01-01,10`),
    ],
    mixed: [
      'CUSTOMER,ARTICLE,MINQUANTITY,VALIDFROM,DISCOUNTPERC',
      '30005,BA1-1,1,2026-01-01,5',
      '39999,BA1-1,1,2026-01-01,5',
      '30007,BA1-1,1,2026-01-01,5',
    ],
    refused: /CUSTOMER_NOT_FOUND/,
  },
  {
    kind: 'clients',
    good: [
      'CLIENT,EMAIL,LASTNAME,COUNTRY',
      ...[1, 2, 3, 4].map((i) => `30000${i},c${i}@example.nl,Client ${i},NL`),
    ],
    mixed: [
      'CLIENT,EMAIL,LASTNAME,COUNTRY',
      '300005,c5@example.nl,Five,NL',
      '300006,c1@example.nl,Six,NL',
      '300007,c7@example.nl,Seven,NL',
    ],
    refused: /EMAIL_TAKEN/,
  },
  {
    kind: 'shops',
    good: [
      'LOCATION,PHONE,LATITUDE,LONGITUDE,PICKUP',
      ...[1, 2, 3, 4].map((i) => `BL${i},+31 20 123456${i},52.37,4.89,1`),
    ],
    mixed: [
      'LOCATION,PHONE,LATITUDE,LONGITUDE,PICKUP',
      'BL7,+31 20 1234567,52.37,4.89,1',
      'BL5,+31 20 1234567,52.37,4.89,1',
      'BL1,+31 20 7654321,52.37,4.89,0',
    ],
    refused: /SHOP_NOT_FOUND/,
  },
  {
    kind: 'representatives',
    good: ['REPRESENTATIVE,NAME,EMAIL', ...[1, 2, 3, 4].map((i) => `R${i},Rep ${i},r${i}@example.nl`)],
    mixed: [
      'REPRESENTATIVE,NAME,EMAIL',
      'R5,Rep 5,r5@example.nl',
      'R6,Rep 6,not-an-email',
      'R7,Rep 7,r7@example.nl',
    ],
    refused: /EMAIL: must be one address/,
  },
  {
    kind: 'customerarticlelinks',
    good: [
      'CUSTOMER,ARTICLE,CUSTOMERARTICLE',
      '30001,BA1-1,X-1',
      '30001,BA1-2,X-2',
      '30002,BA1-1,X-3',
      '30002,BA1-2,X-4',
    ],
    mixed: ['CUSTOMER,ARTICLE,CUSTOMERARTICLE', '30003,BA1-1,X-5', '39999,BA1-1,X-6', '30003,BA1-2,X-7'],
    refused: /no customer 39999/,
  },
  {
    kind: 'customerdetails',
    good: [
      'CUSTOMER,NAME,PRICEGROUP,CURRENCY,REPRESENTATIVE',
      ...[1, 2, 3, 4].map((i) => `3001${i},Details ${i},2,EUR,R1`),
    ],
    mixed: [
      'CUSTOMER,NAME,PRICEGROUP,CURRENCY,REPRESENTATIVE',
      '30015,Details 5,2,EUR,R1',
      '30016,Details 6,2,EUR,R99',
      '30017,Details 7,2,EUR,R2',
    ],
    refused: /R99/,
  },
  {
    // Orders 3 and 4 of the example-file test above (confirmed, two lines of 10 each).
    kind: 'deliveries',
    good: ['ORDERNO,LINE,QUANTITY,REFERENCE', '3,1,1,DN-A', '3,2,1,DN-A', '4,1,1,DN-B', '4,2,1,DN-B'],
    mixed: ['ORDERNO,LINE,QUANTITY,REFERENCE', '3,1,1,DN-C', '3,1,99,DN-D', '4,1,1,DN-E'],
    refused: /open, not 99/,
  },
  {
    // Payments without a document to match (kept unallocated); BATCH-1 again with another amount is refused.
    kind: 'payments',
    good: [
      'DATE,AMOUNT,REFERENCE,EXTERNALID',
      ...[1, 2, 3, 4].map((i) => `2026-11-20,1${i}.00,rent ${i},BATCH-${i}`),
    ],
    mixed: [
      'DATE,AMOUNT,REFERENCE,EXTERNALID',
      '2026-11-20,15.00,rent 5,BATCH-5',
      '2026-11-20,99.00,rent 1,BATCH-1',
      '2026-11-20,17.00,rent 7,BATCH-7',
    ],
    refused: /PAYMENT_CONFLICT/,
  },
  {
    // Legacy codes as the old system printed them; BATCH-GV-1 again with another balance is refused.
    kind: 'vouchers',
    good: [
      'KIND,CODE,CLIENT,BALANCE,VALIDUNTIL',
      ...[1, 2, 3, 4].map((i) => `GIFT_VOUCHER,BATCH-GV-${i},,1${i}.00,2099-12-31`),
    ],
    mixed: [
      'KIND,CODE,CLIENT,BALANCE,VALIDUNTIL',
      'GIFT_VOUCHER,BATCH-GV-5,,15.00,2099-12-31',
      'GIFT_VOUCHER,BATCH-GV-1,,99.00,2099-12-31',
      'GIFT_VOUCHER,BATCH-GV-7,,17.00,2099-12-31',
    ],
    refused: /^\/BALANCE: was imported before/,
  },
  {
    kind: 'bonusbalances',
    good: ['CARDNO,BALANCE', ...[1, 2, 3, 4].map((i) => `5100000${i},${i}.50`)],
    mixed: ['CARDNO,BALANCE', '51000005,5.50', '51000001,9.99', '51000007,7.50'],
    refused: /^\/BALANCE: was imported before/,
  },
];

describe('tv2 import batches, for every kind', () => {
  it('covers every import kind', () => {
    expect(BATCHED.map((b) => b.kind).sort()).toEqual(Object.keys(IMPORT_KINDS).sort());
  });

  it.each(BATCHED)('$kind: a batch is one transaction; a refused record is rejected alone', async (b) => {
    const good = join(dir, `batch-${b.kind}.csv`);
    writeFileSync(good, b.good.join('\n'));
    const before = await currentScn(t.database.db);
    const report = await runImport(t.services, kind(b.kind), good, { batchSize: 2 });
    expect(report, JSON.stringify(report.rejected)).toMatchObject({ records: 4, written: 4, rejected: [] });
    expectScnStep(before, await currentScn(t.database.db), 2);

    const mixed = join(dir, `batch-${b.kind}-mixed.csv`);
    writeFileSync(mixed, b.mixed.join('\n'));
    const header = Object.fromEntries(
      (b.mixed[0] ?? '').split(',').map((c, i) => [c, (b.mixed[2] ?? '').split(',')[i] ?? '']),
    );
    expect(() => kind(b.kind).parse(header, 'csv')).not.toThrow(); // refused when saved, not when read
    const partly = await runImport(t.services, kind(b.kind), mixed, { batchSize: 3 });
    expect(partly.written).toBe(2);
    expect(partly.rejected).toEqual([{ position: 3, reasons: [expect.stringMatching(b.refused)] }]);
  });
});
