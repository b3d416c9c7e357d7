import type { Audience } from '../../kernel/paging.ts';
import {
  ARTICLE_PART,
  type ArticleStockRow,
  LEVEL_PART,
  LOCATION_PART,
  SCN_PART,
  SIZE_PART,
} from './article-stock-rows.ts';
import type { LocationRow } from './stock-repository.ts';
import { type ArticleStockWire, articleVisibleTo, type QuantitiesWire } from './stock-wire.ts';

// The reader thread runs this module too (`articleStockText`; kernel/db/sqlite-reader.ts): it
// imports the rows' parts and stock-wire.ts's rules alone, no database, no framework, no error
// classes.

/**
 * What there is no answer for: the article (missing, or not seen by the audience), or the location
 * asked for (not seen). The caller refuses with its error.
 */
export type ArticleStockMissing = 'article' | 'location';

type Location = Pick<LocationRow, 'code' | 'name' | 'kind'>;
type Level = { sizex: string; code: string; onHand: number; reserved: number };

/**
 * One article's stock answer from the rows of `StockReadRepository.articleStock`, read under `scn`
 * (undefined: the SCN the rows carry, SCN_PART): 'article' when the article is missing or
 * `audience` does not see it, 'location' when `locationCode` names no location it sees (the caller
 * refuses); else the sizes in size-table order, the locations in code order and the levels at
 * them. Pure: the rows come in any order.
 *
 * The same answer as stock-wire.ts's `articleStockToWire` (the reference the stock tests compare
 * with), built without its per-cell string keys, maps and sorts of every level: the locations and
 * sizes get numbers and the levels land in a grid of them. It ran on every B2C_GetArticleStock
 * request and took about 8 µs of a request's 100 (decision 31 (h)).
 */
export function articleStockAnswer(
  audience: Audience,
  scn: number | undefined,
  articleNo: string,
  rows: readonly ArticleStockRow[],
  locationCode?: string,
): ArticleStockWire | ArticleStockMissing {
  let readAt = scn;
  let flags: { deleted: number; active: number; retail: number } | undefined;
  const sizes: Array<{ sizex: string; position: number }> = [];
  const locations: Location[] = [];
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
        if (r.sizex !== null && r.code !== null)
          levels.push({ sizex: r.sizex, code: r.code, onHand: n1 ?? 0, reserved: Number(r.n2 ?? 0) });
        break;
      case SCN_PART:
        readAt ??= n1 ?? undefined;
        break;
    }
  }
  if (!flags || !articleVisibleTo(audience, flags)) return 'article';
  if (locationCode !== undefined && locations.length === 0) return 'location';
  if (readAt === undefined) throw new Error('the stock rows carry no SCN and none was given');

  locations.sort((a, b) => byText(a.code, b.code));
  const column = new Map<string, number>();
  const sizeNames: string[] = [];
  for (const s of sizes.sort((a, b) => a.position - b.position)) {
    if (column.has(s.sizex)) continue; // the key (article, size) makes this impossible
    column.set(s.sizex, column.size);
    sizeNames.push(s.sizex);
  }
  const row = new Map<string, number>();
  for (const l of locations) row.set(l.code, row.size);
  // Only the levels at the locations listed count. A size with stock there that is no longer the
  // article's comes after its sizes, in text order (the order of the levels by size, then location).
  const extra: string[] = [];
  for (const l of levels) {
    if (row.has(l.code) && !column.has(l.sizex) && !extra.includes(l.sizex)) extra.push(l.sizex);
  }
  for (const sizex of extra.sort(byText)) {
    column.set(sizex, column.size);
    sizeNames.push(sizex);
  }
  const width = sizeNames.length;
  const onHand = new Array<number>(locations.length * width).fill(0);
  const reserved = new Array<number>(locations.length * width).fill(0);
  for (const l of levels) {
    const r = row.get(l.code);
    const c = column.get(l.sizex);
    if (r === undefined || c === undefined) continue;
    onHand[r * width + c] = l.onHand;
    reserved[r * width + c] = l.reserved;
  }
  const wholesale = audience === 'B2B';
  const cell = (sizex: string, h: number, r: number): { SIZEX: string } & QuantitiesWire =>
    wholesale
      ? { SIZEX: sizex, ONHAND: h, RESERVED: r, AVAILABLE: h - r }
      : { SIZEX: sizex, AVAILABLE: h - r };
  const totalOnHand = new Array<number>(width).fill(0);
  const totalReserved = new Array<number>(width).fill(0);
  const LOCATIONS = locations.map((loc, i) => {
    const SIZES = new Array<{ SIZEX: string } & QuantitiesWire>(width);
    for (let c = 0; c < width; c++) {
      const h = onHand[i * width + c] ?? 0;
      const r = reserved[i * width + c] ?? 0;
      totalOnHand[c] = (totalOnHand[c] ?? 0) + h;
      totalReserved[c] = (totalReserved[c] ?? 0) + r;
      SIZES[c] = cell(sizeNames[c] ?? '', h, r);
    }
    return { LOCATION: loc.code, NAME: loc.name, KIND: loc.kind, SIZES };
  });
  return {
    SCN: readAt,
    ARTICLE: articleNo,
    LOCATIONS,
    TOTALS: sizeNames.map((sizex, c) => cell(sizex, totalOnHand[c] ?? 0, totalReserved[c] ?? 0)),
  };
}

/**
 * The JSON text of the operation's answer, `{"<root>": answer}`, made on the reader thread from the
 * rows of the read (kernel/db/sqlite-reader.ts, `textOnThread`); undefined for a refusal, which the
 * serving thread makes itself. The same bytes as the operation's serializer writes for the answer:
 * the answer has the properties of its schema (stock/schemas.ts) in that order, and JSON.stringify
 * writes them as the serializer does (the stock tests compare the two answers, test/article-stock).
 */
export function articleStockText(
  rows: readonly ArticleStockRow[],
  root: string,
  audience: Audience,
  articleNo: string,
  locationCode?: string,
): string | undefined {
  const answer = articleStockAnswer(audience, undefined, articleNo, rows, locationCode);
  return typeof answer === 'string' ? undefined : `{"${root}":${JSON.stringify(answer)}}`;
}

/** Text order as the database's ORDER BY on a key column (code point order, not the locale's). */
function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
