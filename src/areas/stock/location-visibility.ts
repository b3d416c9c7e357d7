import type { Audience } from '../../kernel/paging.ts';

/**
 * Who sees a location (docs/stock.md): a module of its own, with no imports of the area, so the
 * repository (which keeps the `seen_*` flags) and the wire mapping both use it without a cycle.
 */
export interface LocationFlags {
  deleted: number;
  active: number;
  serves_wholesale: number;
  serves_retail: number;
}

/** Wholesale sees the active locations that serve wholesale; retail those that serve retail. */
export function locationVisibleTo(audience: Audience, l: LocationFlags): boolean {
  if (l.deleted === 1 || l.active !== 1) return false;
  return audience === 'B2B' ? l.serves_wholesale === 1 : l.serves_retail === 1;
}

/**
 * Which audiences see a location as written: the repository keeps these as its `seen_*` flags, set
 * once and never cleared, so the feeds know who could ever have seen its levels (issue 14).
 */
export function seenBy(l: LocationFlags & { kind: string }): {
  wholesale: 0 | 1;
  retail: 0 | 1;
  shop: 0 | 1;
} {
  const retail = locationVisibleTo('B2C', l);
  return {
    wholesale: locationVisibleTo('B2B', l) ? 1 : 0,
    retail: retail ? 1 : 0,
    shop: retail && l.kind === 'SHOP' ? 1 : 0,
  };
}
