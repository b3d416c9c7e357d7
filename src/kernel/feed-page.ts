import type { Kysely } from 'kysely';
import { type TArrayOptions, type TSchema, Type } from 'typebox';
import type { DB } from './db/schema.ts';
import { currentScn } from './db/unit-of-work.ts';
import type { Page, PageOf } from './paging.ts';
import { NextOffsetSchema, ScnSchema } from './schemas.ts';

/**
 * The change-feed page, written once (docs/architecture.md, "SCN"): the service side reads the SCN,
 * then the rows after `strscn` in key order, and splits them into live items and the keys of
 * tombstones; the operation side answers `{ ROOT: { SCN, NEXTOFFSET, <LIST>: [...], DELETED: [...] } }`.
 */

/**
 * One page of rows fetched with one row more than the limit: the rows to show and the next offset.
 *
 * Paging is by stable position (docs/architecture.md, "Paging"): every paged record has an indexed
 * `pos` that never changes and is never reused, a page is the records with `pos >= stroffset` in
 * `pos` order, and NEXTOFFSET is the position of the first record not shown (the extra row). With
 * `position` given, that is what is answered; without it (a list that is not stored, such as pickup
 * points sorted by distance) the offset counts records.
 */
export function splitPage<R>(
  rows: R[],
  page: { offset: number; limit: number },
  position?: (row: R) => number,
): { rows: R[]; nextOffset: number | null } {
  const more = rows.length > page.limit;
  const extra = rows[page.limit];
  return {
    rows: more ? rows.slice(0, page.limit) : rows,
    nextOffset: !more || extra === undefined ? null : position ? position(extra) : page.offset + page.limit,
  };
}

export interface FeedSpec<R, T, D> {
  /**
   * The rows with a position of at least `from`, in position order, at most `limit` (the page's
   * limit plus one), changed after `sinceScn` (`changedAfter`, src/kernel/db/feed-sql.ts); with
   * `sinceScn` 0 (a full list) only the live ones, so a page is full whenever enough remain. Called
   * after the SCN was read.
   */
  rows(sinceScn: number, from: number, limit: number): Promise<R[]>;
  /** The row's stable position (its `pos` column): NEXTOFFSET is the position of the extra row. */
  position(row: R): number;
  /** Whether a row is shown; the others are tombstones (deleted or no longer visible). */
  live(row: R): boolean;
  /** The wire items of the live rows of the page, in their order. */
  items(live: R[]): T[] | Promise<T[]>;
  /** The key a tombstone is reported under in DELETED (only in a feed, `sinceScn` > 0). */
  deletedKey(row: R): D;
  /**
   * Which rows of the page are reported under DELETED; by default every row that is not live. A
   * feed that hides some rows without reporting them (neither live nor tombstone) says so here.
   */
  tombstone?(row: R): boolean;
}

/** One page of a change feed: the SCN is read before the rows it bounds, so no commit is missed. */
export async function feedPage<R, T, D>(
  db: Kysely<DB>,
  page: Page,
  spec: FeedSpec<R, T, D>,
): Promise<PageOf<T, D>> {
  const scn = await currentScn(db);
  const rows = await spec.rows(page.sinceScn, page.offset, page.limit + 1);
  return feedOf(scn, page, rows, spec);
}

/** The page of `rows` (fetched with one extra row) read under `scn`. */
export async function feedOf<R, T, D>(
  scn: number,
  page: Page,
  fetched: R[],
  spec: Omit<FeedSpec<R, T, D>, 'rows'>,
): Promise<PageOf<T, D>> {
  const { rows, nextOffset } = splitPage(fetched, page, (row) => spec.position(row));
  return {
    scn,
    nextOffset,
    items: await spec.items(rows.filter((r) => spec.live(r))),
    deleted:
      page.sinceScn > 0
        ? rows
            .filter((r) => (spec.tombstone ? spec.tombstone(r) : !spec.live(r)))
            .map((r) => spec.deletedKey(r))
        : [],
  };
}

export interface FeedSchemaOptions {
  /** Options of the DELETED array (its description, `maxItems`). */
  deleted?: TArrayOptions;
  /** Fields that come before SCN in the answer (e.g. the customer it is about). */
  head?: Record<string, TSchema>;
}

/** `{ ...head, SCN, NEXTOFFSET, <listKey>: [item], DELETED: [deletedKey] }`. */
export function FeedSchema(
  listKey: string,
  item: TSchema,
  deletedKey: TSchema,
  options: FeedSchemaOptions = {},
) {
  return Type.Object({
    ...options.head,
    SCN: ScnSchema,
    NEXTOFFSET: NextOffsetSchema,
    [listKey]: Type.Array(item),
    DELETED: options.deleted ? Type.Array(deletedKey, options.deleted) : Type.Array(deletedKey),
  });
}

/** The answer of a feed operation: `{ rootName: { ...head, SCN, NEXTOFFSET, <listKey>, DELETED } }`. */
export function feedAnswer<T, D>(
  rootName: string,
  listKey: string,
  page: PageOf<T, D>,
  head: Record<string, unknown> = {},
): Record<string, Record<string, unknown>> {
  return {
    [rootName]: {
      ...head,
      SCN: page.scn,
      NEXTOFFSET: page.nextOffset,
      [listKey]: page.items,
      DELETED: page.deleted,
    },
  };
}
