import { type Kysely, sql } from 'kysely';
import type { Engine } from '../../../kernel/db/engine.ts';
import { refreshDocuments } from '../article-document.ts';

/** Articles per batch of the backfill. */
const BATCH = 500;

/**
 * Issue 10, the catalog's reads (docs/catalog.md):
 * - `article_document`: each live article's single-article answer as JSON text, written with every
 *   change of the article; filled here for the articles already stored (with the document builder
 *   of this release: a later change of the answer's form comes with a migration that rebuilds them;
 *   until then a read serves an article whose document is missing or stale from its tables).
 * - The image feed asks only the image's own SCN: an image is now stamped when its article's
 *   retail visibility changes. Stamping each image with its article's SCN where that is higher
 *   keeps every feed read from an SCN taken before this migration exactly as it was
 *   (`image.scn > s OR article.scn > s`).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is
export async function up(db: Kysely<any>, _engine: Engine): Promise<void> {
  await db.schema
    .createTable('article_document')
    .addColumn('article_no', 'text', (c) =>
      c.primaryKey().references('article.article_no').onDelete('cascade'),
    )
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addColumn('document', 'text', (c) => c.notNull())
    .execute();

  await stampImagesWithArticleScn(db);
  await fillArticleDocuments(db);
}

/** Each image's SCN raised to its article's where that is higher (the image feed's old condition). */
// biome-ignore lint/suspicious/noExplicitAny: as above
export async function stampImagesWithArticleScn(db: Kysely<any>): Promise<void> {
  await sql`UPDATE article_image SET scn = (SELECT a.scn FROM article a WHERE a.article_no = article_image.article_no)
    WHERE scn < (SELECT a.scn FROM article a WHERE a.article_no = article_image.article_no)`.execute(db);
}

/** The document of every live article, written in batches in position order. */
// biome-ignore lint/suspicious/noExplicitAny: as above
export async function fillArticleDocuments(db: Kysely<any>): Promise<void> {
  let from = 0;
  for (;;) {
    const rows = await db
      .selectFrom('article')
      .select(['article_no', 'pos'])
      .where('pos', '>', from)
      .where('deleted', '=', 0)
      .orderBy('pos')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) break;
    await refreshDocuments(
      db,
      rows.map((r) => r.article_no as string),
    );
    from = Number(rows[rows.length - 1]?.pos);
  }
}
