import type { Kysely } from 'kysely';
import type { DB } from '../../kernel/db/schema.ts';
import { BarcodeRepository, type BarcodeSize } from './barcode-repository.ts';
import { type ArticleState, CatalogRepository } from './catalog-repository.ts';

/**
 * What other areas read of the catalogue's tables, exported by catalog/index.ts (each table has one
 * owner: docs/architecture.md, "Boundaries"). `db` is the caller's connection (`database.db`) or
 * its unit of work's transaction (`uow.db`): the read joins the caller's transaction.
 *
 * Where another area's statement must join an article's rows to stay one statement (a feed ordered
 * or filtered by the article), it uses the query fragments `articleFlags` and
 * `articleSizePositions` from the catalogue's repository instead.
 */

/** The state of the given articles that exist, deleted ones included, by article number. */
export function articleStatesIn(
  db: Kysely<DB>,
  articleNos: readonly string[],
): Promise<Map<string, ArticleState>> {
  return new CatalogRepository(db).articleStates(articleNos);
}

/** The live (not deleted) articles among `articleNos`. */
export function liveArticlesIn(db: Kysely<DB>, articleNos: readonly string[]): Promise<Set<string>> {
  return new CatalogRepository(db).liveArticles(articleNos);
}

/** The sizes of the given articles in size-table order (an article without sizes is absent). */
export function articleSizesIn(
  db: Kysely<DB>,
  articleNos: readonly string[],
): Promise<Map<string, string[]>> {
  return new CatalogRepository(db).sizesOfArticles(articleNos);
}

export { articleFlags, articleSizePositions } from './catalog-repository.ts';
export type { ArticleState };

/**
 * The live sizes behind the given barcodes (an unknown barcode, or one of a deleted article, is
 * absent), with the article's VAT rate, flags and description: what an order line is made of.
 */
export function sizesByBarcodeIn(
  db: Kysely<DB>,
  barcodes: readonly string[],
): Promise<Map<string, BarcodeSize>> {
  return new BarcodeRepository(db).sizesByBarcode(barcodes);
}

export type { BarcodeSize };
