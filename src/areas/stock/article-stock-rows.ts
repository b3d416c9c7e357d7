import type { LocationKind } from './tables.ts';

/** What a row of one article's stock answer (StockReadRepository.articleStock) carries, by its `part`. */
export const ARTICLE_PART = 0;
/** One of the article's sizes: `sizex`, `n1` its place in the size table. */
export const SIZE_PART = 1;
/** A location the audience sees: `code`, `name`, `kind`. */
export const LOCATION_PART = 2;
/** A level of the article: `sizex` at `code`, `n1` on hand, `n2` reserved. */
export const LEVEL_PART = 3;
/** SQLite: the SCN the rows were read at, `n1` (StockReadRepository.articleStockHasScn). */
export const SCN_PART = 4;

/**
 * A row of one article's stock answer: `part` says which (the constants above); the article's own
 * row carries its flags as `n1` deleted, `n2` active, `n3` retail. Columns a part does not use are
 * null.
 */
export interface ArticleStockRow {
  part: number;
  sizex: string | null;
  code: string | null;
  name: string | null;
  kind: LocationKind | null;
  n1: number | null;
  n2: number | null;
  n3: number | null;
}
