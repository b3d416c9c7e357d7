import type { Kysely } from 'kysely';
import type { DB } from '../../kernel/db/schema.ts';
import { ArticleDocumentRepository } from './article-document-repository.ts';
import { type ArticleWire, articlesToWire } from './article-wire.ts';
import { type ArticleChildren, type ArticleRow, CatalogRepository } from './catalog-repository.ts';

/**
 * The article document (docs/catalog.md, "The article document"): the single-article answer kept
 * as JSON text, so a read is one statement and no text is parsed or serialised to answer it.
 *
 * The text stops before the value of `SCN`, the wire object's last key: the reader appends the
 * article's SCN and the closing brace (`answerOf`), so the document never holds a number kept apart
 * from the `scn` column (one place to stamp, whichever way the engine hands SCNs out) and the answer
 * is byte for byte JSON.stringify of the wire object.
 */
export function documentOf(wire: ArticleWire): string {
  const { SCN: _scn, ...rest } = wire;
  return `${JSON.stringify(rest).slice(0, -1)},"SCN":`;
}

/** The answer of a stored document for the article's SCN. */
export function answerOf(document: string, scn: number): string {
  return `${document}${scn}}`;
}

/** The documents of the given articles (rows as they are written, children complete). */
export function documentsOf(
  rows: ArticleRow[],
  children: ArticleChildren,
): Array<{ article_no: string; scn: number; document: string }> {
  return articlesToWire(rows, children).map((wire) => ({
    article_no: wire.ARTICLE,
    scn: wire.SCN,
    document: documentOf(wire),
  }));
}

/**
 * Rewrites the documents of the given articles from their rows as `db` sees them (a change of
 * images, or a database whose documents are missing); deleted articles get none. `db` is the
 * changing transaction, so the document commits with the change.
 */
export async function refreshDocuments(db: Kysely<DB>, articleNos: string[]): Promise<void> {
  const read = new CatalogRepository(db);
  const rows = (await read.findArticles(articleNos)).filter((a) => a.deleted === 0);
  if (rows.length === 0) return;
  const children = await read.childrenOf(rows.map((a) => a.article_no));
  await new ArticleDocumentRepository(db).write(documentsOf(rows, children));
}
