import { CompiledQuery, type Kysely, type KyselyPlugin, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE, startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import type { DB } from '../../../kernel/db/schema.ts';
import { refreshStatistics } from '../../../kernel/db/statistics.ts';
import { currentScn } from '../../../kernel/db/unit-of-work.ts';
import { ArticleDocumentRepository } from '../article-document-repository.ts';
import { CatalogRepository } from '../catalog-repository.ts';
import { seedCatalog } from '../demo/seed.ts';
import { ImageRepository } from '../image-repository.ts';

/**
 * Every catalog list and feed query is an index range read (docs/catalog.md, "Paging"): a feed
 * after a few changes reads the `scn` index, a list the unique `pos` index in its order (no sort).
 * Asserted on the planners' own EXPLAIN output, with planner statistics taken as the server takes
 * them, on a catalogue large enough for a full scan to be the planner's other choice. On PostgreSQL the plans
 * are asked with sequential scans disabled: what is checked is that an index can serve the query
 * (which one the planner takes then still depends on the statistics, as it does in use).
 */

let t: TestApp;
let recentScn = 0;

/** The plan of the first statement `run` makes, as the engine explains it (one line per step). */
async function planOf(run: (db: Kysely<DB>) => Promise<unknown>): Promise<string> {
  const db = t.database.db;
  const captured: CompiledQuery[] = [];
  const capture: KyselyPlugin = {
    transformQuery({ node, queryId }) {
      captured.push(db.getExecutor().compileQuery(node, queryId));
      return node;
    },
    async transformResult({ result }) {
      return result;
    },
  };
  await run(db.withPlugin(capture));
  const query = captured[0];
  if (!query) throw new Error('no statement was run');
  if (ENGINE === 'sqlite') {
    const plan = await db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`EXPLAIN QUERY PLAN ${query.sql}`, [...query.parameters]),
    );
    return plan.rows.map((r) => r.detail).join('\n');
  }
  return db.transaction().execute(async (trx) => {
    await sql`SET LOCAL enable_seqscan = off`.execute(trx);
    const plan = await trx.executeQuery<{ 'QUERY PLAN': string }>(
      CompiledQuery.raw(`EXPLAIN ${query.sql}`, [...query.parameters]),
    );
    return plan.rows.map((r) => r['QUERY PLAN']).join('\n');
  });
}

const articles = (db: Kysely<DB>) => new CatalogRepository(db);
const images = (db: Kysely<DB>) => new ImageRepository(db);
const documents = (db: Kysely<DB>) => new ArticleDocumentRepository(db);

beforeAll(async () => {
  t = await startTestApp();
  await seedCatalog(t.services, { articles: 1500, images: false });
  const db = t.database.db;
  // one image per article, written at once (a swatch per article through the service is slow)
  const scn = await currentScn(db);
  await db
    .insertInto('article_image')
    .columns(['article_no', 'image_no', 'content_type', 'byte_size', 'sha256', 'data', 'deleted', 'scn'])
    .expression((eb) =>
      eb
        .selectFrom('article')
        .select([
          'article_no',
          sql<number>`1`.as('image_no'),
          sql<string>`'image/png'`.as('content_type'),
          sql<number>`1`.as('byte_size'),
          sql<string>`'0'`.as('sha256'),
          eb.val(Buffer.from([0])).as('data'),
          sql<number>`0`.as('deleted'),
          sql<number>`${Number(scn)}`.as('scn'),
        ]),
    )
    .execute();
  // and many size tables, so a full scan of them is a real alternative too
  await db
    .insertInto('size_table')
    .values(
      Array.from({ length: 400 }, (_, i) => ({
        code: `PLAN${i}`,
        description: '{}',
        deleted: 0,
        scn: Number(scn),
      })),
    )
    .execute();
  recentScn = Number(scn);
  // a few changes after recentScn: what a feed from it reads
  const nos = await db.selectFrom('article').select('article_no').where('pos', '<=', 5).execute();
  for (const { article_no } of nos) {
    await t.services.catalog.putImage(
      article_no,
      2,
      Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
        'base64',
      ),
    );
  }
  // planner statistics as the server keeps them (SQLite: statistics.ts; PostgreSQL: autovacuum's)
  if (ENGINE === 'sqlite') expect(await refreshStatistics(t.database)).toContain('article');
  else await sql`ANALYZE`.execute(db);
}, 120_000);
afterAll(() => t.close());

const noSort = (plan: string) => !/TEMP B-TREE|Sort/.test(plan);

describe(`catalog list and feed queries use their index (${ENGINE})`, () => {
  it('articles: the feed reads the scn index, the lists the pos index in order', async () => {
    const feed = await planOf((db) => articles(db).articlesPage('B2B', recentScn, 1, 101));
    expect(feed).toMatch(/article_scn/);
    for (const audience of ['B2B', 'B2C'] as const) {
      const list = await planOf((db) => articles(db).articlesPage(audience, 0, 700, 101));
      expect(list).toMatch(/article_pos/);
      expect(noSort(list), list).toBe(true);
    }
  });

  it('article documents (the lists the operations answer): the same, each document by its key', async () => {
    const feed = await planOf((db) => documents(db).page('B2B', recentScn, 1, 101));
    expect(feed).toMatch(/article_scn/);
    expect(feed).not.toMatch(/SCAN d\b|Seq Scan/);
    for (const audience of ['B2B', 'B2C'] as const) {
      const list = await planOf((db) => documents(db).page(audience, 0, 700, 101));
      expect(list).toMatch(/article_pos/);
      expect(list).toMatch(/article_document_pkey|sqlite_autoindex_article_document_1/);
      expect(noSort(list), list).toBe(true);
    }
  });

  it('images: the feed reads the image scn index, the list the image pos index in order', async () => {
    const feed = await planOf((db) => images(db).imagesPage(recentScn, 1, 501));
    expect(feed).toMatch(/article_image_scn/);
    expect(feed).not.toMatch(/SCAN article\b|Seq Scan/);
    const list = await planOf((db) => images(db).imagesPage(0, 200, 101));
    expect(list).toMatch(/article_image_pos/);
    expect(noSort(list), list).toBe(true);
  });

  it('size tables: the feed reads the scn index, the list the pos index in order', async () => {
    const feed = await planOf((db) => articles(db).sizeTablesPage(recentScn, 1, 101));
    expect(feed).toMatch(/size_table_scn/);
    const list = await planOf((db) => articles(db).sizeTablesPage(0, 100, 101));
    expect(list).toMatch(/size_table_pos/);
    expect(noSort(list), list).toBe(true);
  });
});
