import type { Audience } from '../../kernel/paging.ts';

/**
 * Who sees an article (docs/catalog.md): a module of its own, with no imports of the area, so the
 * repository (which keeps the `seen_retail` flag) and the rules both use it without an import cycle.
 */
export interface ArticleFlags {
  deleted: number;
  active: number;
  retail: number;
}

/** Whether `audience` sees the article: B2B every live one, B2C the live ones active and for retail. */
export function visibleTo(audience: Audience, a: ArticleFlags): boolean {
  if (a.deleted === 1) return false;
  return audience === 'B2B' || (a.retail === 1 && a.active === 1);
}

/**
 * 1 when retail sees the article as written: the repository keeps it as `seen_retail`, set once and
 * never cleared, so the retail feeds know whether retail could ever have seen it (issue 14).
 */
export function seenByRetail(a: ArticleFlags): 0 | 1 {
  return visibleTo('B2C', a) ? 1 : 0;
}
