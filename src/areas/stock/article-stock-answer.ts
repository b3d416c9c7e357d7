import type { Audience } from '../../kernel/paging.ts';
import { CATALOG_ERRORS } from '../catalog/index.ts';
import {
  ARTICLE_PART,
  type ArticleStockRow,
  LEVEL_PART,
  LOCATION_PART,
  SIZE_PART,
} from './stock-read-repository.ts';
import type { LocationRow } from './stock-repository.ts';
import { locationNotFound } from './stock-rules.ts';
import { type ArticleStockWire, articleStockToWire, articleVisibleTo } from './stock-wire.ts';

type Level = { sizex: string; location_code: string; on_hand: number; reserved: number };

/**
 * One article's stock answer from the rows of `StockReadRepository.articleStock`, read under `scn`:
 * ARTICLE_NOT_FOUND when the article is missing or `audience` does not see it, LOCATION_NOT_FOUND
 * when `locationCode` names no location it sees; else the sizes in size-table order, the locations
 * in code order and the levels at them (articleStockToWire). Pure: the rows come in any order.
 */
export function articleStockAnswer(
  audience: Audience,
  scn: number,
  articleNo: string,
  rows: readonly ArticleStockRow[],
  locationCode?: string,
): ArticleStockWire {
  let flags: { deleted: number; active: number; retail: number } | undefined;
  const sizes: Array<{ sizex: string; position: number }> = [];
  const locations: Array<Pick<LocationRow, 'code' | 'name' | 'kind'>> = [];
  const levels: Level[] = [];
  for (const r of rows) {
    // numbers as numbers whatever the driver gives (integers on both engines today)
    const n1 = r.n1 === null ? null : Number(r.n1);
    switch (Number(r.part)) {
      case ARTICLE_PART:
        flags = { deleted: n1 ?? 1, active: Number(r.n2 ?? 0), retail: Number(r.n3 ?? 0) };
        break;
      case SIZE_PART:
        if (r.sizex !== null) sizes.push({ sizex: r.sizex, position: n1 ?? 0 });
        break;
      case LOCATION_PART:
        if (r.code !== null) locations.push({ code: r.code, name: r.name ?? '', kind: r.kind ?? 'SHOP' });
        break;
      case LEVEL_PART:
        if (r.sizex !== null && r.code !== null) {
          levels.push({
            sizex: r.sizex,
            location_code: r.code,
            on_hand: n1 ?? 0,
            reserved: Number(r.n2 ?? 0),
          });
        }
        break;
    }
  }
  if (!flags || !articleVisibleTo(audience, flags)) {
    throw CATALOG_ERRORS.ARTICLE_NOT_FOUND(
      `No article "${articleNo}"${audience === 'B2C' ? ' published for retail' : ''}.`,
    );
  }
  if (locationCode !== undefined && locations.length === 0) throw locationNotFound(locationCode);
  // articleStockToWire keeps the levels at the locations given; a size with stock that is no
  // longer the article's comes after its sizes in the order of these levels (size, then location)
  return articleStockToWire(
    audience,
    scn,
    articleNo,
    sizes.sort((a, b) => a.position - b.position).map((s) => s.sizex),
    locations.sort((a, b) => byText(a.code, b.code)),
    levels.sort((a, b) => byText(a.sizex, b.sizex) || byText(a.location_code, b.location_code)),
  );
}

/** Text order as the database's ORDER BY on a key column (code point order, not the locale's). */
function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
