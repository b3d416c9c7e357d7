export type Audience = 'B2B' | 'B2C';

/** A page request: `offset` is 1-based as in the TV2 interface; `sinceScn` 0 means everything. */
export interface Page {
  sinceScn: number;
  offset: number;
  limit: number;
}

export interface PageOf<T, D> {
  /** The SCN to pass as `strscn` next time (read before the rows, so nothing committed is missed). */
  scn: number;
  /** The `stroffset` of the next page, or null on the last page. */
  nextOffset: number | null;
  items: T[];
  /** Keys of records deleted (or no longer visible to this audience) since `sinceScn`. */
  deleted: D[];
}
