/**
 * Lists and change feeds (docs/api-conventions.md, docs/architecture.md "Paging"). Every list
 * answers one root object holding its records under a plural key, `NEXTOFFSET` (the stroffset of
 * the next page; null on the last) and, with strscn, `SCN` and `DELETED`. A client follows
 * NEXTOFFSET as it is (a position, not a count) and never computes offsets. Within a pass it keeps
 * passing the pass's own strscn, and the *first* page's SCN is the strscn of the next pass: a
 * record changed during the pass has a larger SCN, so the next pass returns it, and none is missed.
 */
import type {
  Answer,
  DeletedOf,
  FeedOperation,
  GetOperation,
  OperationName,
  PagedOperation,
  Query,
  RecordOf,
} from './types.ts';

/** The client's GET, as the helpers call it. */
export type Getter = <N extends GetOperation>(name: N, query?: Query<N>) => Promise<Answer<N>>;

/**
 * The order state feeds are cursors over state moves, not lists by position: each page answers
 * the SCN to pass with its NEXTOFFSET (read-schemas.ts of the orders area: "passed with this
 * page's SCN"), and the last page's SCN is where the next pass starts.
 */
const CURSOR_FEEDS: ReadonlySet<string> = new Set(['B2B_GetOrderStateChanges', 'B2C_GetOrderStateChanges']);

interface PageRoot {
  SCN?: number;
  NEXTOFFSET: number | null;
  DELETED?: unknown[];
  [key: string]: unknown;
}

/** The object under the answer's one root key (B2BGETPRICECHANGES, ...). */
function rootOf(name: OperationName, answer: unknown): PageRoot {
  const root = Object.values(answer as Record<string, unknown>)[0] as PageRoot | undefined;
  if (!root || !('NEXTOFFSET' in root)) throw new Error(`${name}: the answer is not a page (no NEXTOFFSET)`);
  return root;
}

/** The records of a page: its one array other than DELETED (the wire conventions name it per list). */
function recordsOf(root: PageRoot): unknown[] {
  for (const [key, value] of Object.entries(root))
    if (key !== 'DELETED' && Array.isArray(value)) return value;
  return [];
}

/** Query of a paged operation; stroffset is where to start (1 by default). */
export type PageQuery<N extends PagedOperation> = Query<N>;

export async function* pages<N extends PagedOperation>(
  get: Getter,
  name: N,
  query?: PageQuery<N>,
): AsyncGenerator<Answer<N>, void, undefined> {
  let params = { ...query } as Record<string, string | undefined>;
  for (;;) {
    const answer = await get(name, params as Query<N>);
    yield answer;
    const root = rootOf(name, answer);
    if (root.NEXTOFFSET === null) return;
    params = { ...params, stroffset: String(root.NEXTOFFSET) };
    if (CURSOR_FEEDS.has(name) && root.SCN !== undefined) params.strscn = String(root.SCN);
  }
}

export interface ListResult<N extends PagedOperation> {
  records: RecordOf<N>[];
  deleted: DeletedOf<N>[];
  /** The strscn of the next pass (undefined for lists that carry no SCN). */
  scn: number | undefined;
}

export async function listAll<N extends PagedOperation>(
  get: Getter,
  name: N,
  query?: PageQuery<N>,
): Promise<ListResult<N>> {
  const result: ListResult<N> = { records: [], deleted: [], scn: undefined };
  for await (const answer of pages(get, name, query)) {
    const root = rootOf(name, answer);
    result.records.push(...(recordsOf(root) as RecordOf<N>[]));
    result.deleted.push(...((root.DELETED ?? []) as DeletedOf<N>[]));
    result.scn = nextScn(name, result.scn, root);
  }
  return result;
}

/** The first page's SCN, or for a cursor feed the latest page's. */
function nextScn(name: string, held: number | undefined, root: PageRoot): number | undefined {
  return CURSOR_FEEDS.has(name) ? (root.SCN ?? held) : (held ?? root.SCN);
}

export interface FollowOptions<N extends FeedOperation> {
  /** The SCN to follow from: the `scn` of a listAll, or of the last batch handled. */
  scn: number;
  /** The other parameters of the feed (strlocation, strlimit, ...). */
  query?: Omit<Query<N>, 'strscn' | 'stroffset'>;
  /** How long to wait once caught up before asking again (5 s by default). */
  intervalMs?: number;
  /** Ends the iteration (also: `break` out of the loop). */
  signal?: AbortSignal;
}

export interface FeedBatch<N extends FeedOperation> {
  records: RecordOf<N>[];
  deleted: DeletedOf<N>[];
  /**
   * Where to resume after handling this batch: the pass's strscn until its last page (resuming
   * mid-pass reads the pass again, which upserts cannot tell from the first time), then the next
   * pass's.
   */
  scn: number;
  /** The last page of a pass: everything up to `scn` has been seen. */
  caughtUp: boolean;
}

/**
 * Follows a feed from an SCN for ever: each page as one batch (an empty one when nothing changed,
 * so the caller learns it is caught up), then a pause, then the next pass from the new SCN.
 */
export async function* followFeed<N extends FeedOperation>(
  get: Getter,
  name: N,
  options: FollowOptions<N>,
): AsyncGenerator<FeedBatch<N>, void, undefined> {
  let from = options.scn;
  while (!options.signal?.aborted) {
    let next: number | undefined;
    const query = { ...options.query, strscn: String(from) } as unknown as PageQuery<N>;
    for await (const answer of pages(get, name, query)) {
      const root = rootOf(name, answer);
      next = nextScn(name, next, root);
      const caughtUp = root.NEXTOFFSET === null;
      yield {
        records: recordsOf(root) as RecordOf<N>[],
        deleted: (root.DELETED ?? []) as DeletedOf<N>[],
        scn: caughtUp ? (next ?? from) : from,
        caughtUp,
      };
      if (options.signal?.aborted) return;
    }
    from = next ?? from;
    await pause(options.intervalMs ?? 5000, options.signal);
  }
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}
