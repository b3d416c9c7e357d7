import type { Audience } from '../../kernel/paging.ts';
import { locationVisibleTo } from './location-visibility.ts';
import type { LevelFeedRow } from './stock-read-repository.ts';

export { locationVisibleTo } from './location-visibility.ts';

import type { LocationRow } from './stock-repository.ts';

/**
 * Stock as the TV2 interface shows it. Wholesale sees on hand, reserved and available; retail sees
 * only AVAILABLE: on hand and reserved are the trade's internal book-keeping (docs/stock.md).
 */
export interface WholesaleQuantities {
  ONHAND: number;
  RESERVED: number;
  AVAILABLE: number;
}
export interface RetailQuantities {
  AVAILABLE: number;
}
export type QuantitiesWire = WholesaleQuantities | RetailQuantities;

export type StockRowWire = { ARTICLE: string; SIZEX: string; LOCATION: string } & QuantitiesWire & {
    SCN: number;
  };

export interface StockKeyWire {
  ARTICLE: string;
  SIZEX: string;
  LOCATION: string;
}

export interface ArticleStockWire {
  SCN: number;
  ARTICLE: string;
  LOCATIONS: Array<{
    LOCATION: string;
    NAME: string;
    KIND: string;
    SIZES: Array<{ SIZEX: string } & QuantitiesWire>;
  }>;
  TOTALS: Array<{ SIZEX: string } & QuantitiesWire>;
}

type ArticleFlags = { deleted: number; active: number; retail: number };

/** The catalogue's rule (catalog-service.ts): retail sees active articles published for retail. */
export function articleVisibleTo(audience: Audience, a: ArticleFlags): boolean {
  if (a.deleted === 1) return false;
  return audience === 'B2B' || (a.retail === 1 && a.active === 1);
}

export function levelVisibleTo(audience: Audience, row: LevelFeedRow): boolean {
  return (
    locationVisibleTo(audience, {
      deleted: row.location_deleted,
      active: row.location_active,
      serves_wholesale: row.serves_wholesale,
      serves_retail: row.serves_retail,
    }) &&
    articleVisibleTo(audience, {
      deleted: row.article_deleted,
      active: row.article_active,
      retail: row.article_retail,
    })
  );
}

export function quantitiesToWire(audience: Audience, onHand: number, reserved: number): QuantitiesWire {
  const available = onHand - reserved;
  return audience === 'B2B'
    ? { ONHAND: onHand, RESERVED: reserved, AVAILABLE: available }
    : { AVAILABLE: available };
}

export function levelToWire(audience: Audience, row: LevelFeedRow): StockRowWire {
  return {
    ARTICLE: row.article_no,
    SIZEX: row.sizex,
    LOCATION: row.location_code,
    ...quantitiesToWire(audience, row.on_hand, row.reserved),
    SCN: row.scn,
  };
}

export function levelKeyToWire(row: LevelFeedRow): StockKeyWire {
  return { ARTICLE: row.article_no, SIZEX: row.sizex, LOCATION: row.location_code };
}

/**
 * One article's stock per location and size, plus totals per size over the locations shown. Sizes
 * come in size-table order; a size that has stock but is no longer among the article's sizes
 * follows after them, so no stock is ever hidden from the totals.
 */
export function articleStockToWire(
  audience: Audience,
  scn: number,
  articleNo: string,
  sizes: readonly string[],
  locations: ReadonlyArray<Pick<LocationRow, 'code' | 'name' | 'kind'>>,
  levels: ReadonlyArray<{ sizex: string; location_code: string; on_hand: number; reserved: number }>,
): ArticleStockWire {
  const shown = new Set(locations.map((l) => l.code));
  const relevant = levels.filter((l) => shown.has(l.location_code));
  const allSizes = [...sizes];
  for (const l of relevant) if (!allSizes.includes(l.sizex)) allSizes.push(l.sizex);
  const at = new Map(relevant.map((l) => [`${l.location_code}\u0000${l.sizex}`, l]));
  const totals = new Map(allSizes.map((s) => [s, { onHand: 0, reserved: 0 }]));
  const LOCATIONS = locations.map((loc) => ({
    LOCATION: loc.code,
    NAME: loc.name,
    KIND: loc.kind,
    SIZES: allSizes.map((sizex) => {
      const level = at.get(`${loc.code}\u0000${sizex}`);
      const onHand = level?.on_hand ?? 0;
      const reserved = level?.reserved ?? 0;
      const total = totals.get(sizex);
      if (total) {
        total.onHand += onHand;
        total.reserved += reserved;
      }
      return { SIZEX: sizex, ...quantitiesToWire(audience, onHand, reserved) };
    }),
  }));
  return {
    SCN: scn,
    ARTICLE: articleNo,
    LOCATIONS,
    TOTALS: allSizes.map((sizex) => {
      const total = totals.get(sizex) ?? { onHand: 0, reserved: 0 };
      return { SIZEX: sizex, ...quantitiesToWire(audience, total.onHand, total.reserved) };
    }),
  };
}
