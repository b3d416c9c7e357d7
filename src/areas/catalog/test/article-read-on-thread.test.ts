import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuildCounter, StatementCounter } from '../../../../test/helpers/statement-counter.ts';
import { ENGINE, startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { sqliteReader } from '../../../kernel/db/sqlite-reader.ts';
import { CatalogService } from '../catalog-service.ts';
import { seedCatalog } from '../demo/seed.ts';

/**
 * The single-article read (B2B_GetArticle, B2C_GetArticle) runs on the SQLite reader thread
 * (decision 49): the article with its document is one row, one string handed back, while the read
 * is the costly part of the request. The serving connection runs only the SCN read. (On PostgreSQL
 * the reads go to the pool as pipelines: pg-reader.test.ts.)
 */

let t: TestApp;
let articleNos: string[];

beforeAll(async () => {
  t = await startTestApp();
  await seedCatalog(t.services, { images: false });
  const page = await t.services.catalog.listArticles('B2C', { sinceScn: 0, offset: 1, limit: 10 });
  articleNos = page.items.map((a) => a.ARTICLE);
}, 120_000);
afterAll(() => t?.close());

describe.runIf(ENGINE === 'sqlite')('the single-article read on SQLite', () => {
  it('reads the article on the reader thread: the serving connection runs the SCN read alone', async () => {
    const counter = new StatementCounter();
    const db = t.database.db.withPlugin(counter);
    // a reader whose serving connection is counted; what its thread reads is not
    const reader = sqliteReader({ path: t.databaseUrl.replace(/^sqlite:/, ''), fallback: db });
    try {
      expect(await reader.whenReady()).toBe(true);
      const served = new CatalogService({ ...t.database, db, reader });
      for (const articleNo of articleNos) {
        counter.count = 0;
        const json = await served.articleJson('B2C', { articleNo });
        expect(json).toBe(await t.services.catalog.articleJson('B2C', { articleNo }));
        expect(counter.count, articleNo).toBe(1);
      }
    } finally {
      await reader.close();
    }
  });
});

describe('the single-article read', () => {
  it('builds no statement after its first: its SQL is kept compiled, by article number and by barcode', async () => {
    const builds = new BuildCounter();
    const served = new CatalogService({ ...t.database, db: t.database.db.withPlugin(builds) });
    const barcodes = (await t.services.catalog.articleJson('B2C', { articleNo: articleNos[0] as string }))
      .match(/"BARCODE":"(\d+)"/g)
      ?.map((m) => m.slice(11, -1));
    expect(barcodes?.length).toBeGreaterThan(0);
    await served.articleJson('B2C', { articleNo: articleNos[0] as string });
    await served.articleJson('B2C', { barcode: barcodes?.[0] as string });
    builds.built = [];
    for (const articleNo of articleNos.slice(1)) {
      const json = await served.articleJson('B2C', { articleNo });
      expect(json).toBe(await t.services.catalog.articleJson('B2C', { articleNo }));
    }
    await served.articleJson('B2C', { barcode: barcodes?.at(-1) as string });
    // Building the statement cost about 13 µs of the serving thread's CPU a request (decision 52).
    expect(builds.built).toEqual([]);
  });
});
