import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_KINDS } from '../src/import/kinds.ts';
import { runImport } from '../src/import/run-import.ts';
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
    expect(await scn()).toBe(before);
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

  it('tells success from partial failure by its exit code', async () => {
    const run = (args: string[]) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
        env: { ...process.env, DATABASE_URL: t.databaseUrl },
      }).then(
        (r) => ({ code: 0, stdout: r.stdout }),
        (e: { code: number; stdout: string }) => ({ code: e.code, stdout: e.stdout }),
      );
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
