/**
 * A typed client of the TV2 trade interface: openapi-fetch over the types that openapi-typescript
 * generates from the served OpenAPI document (client/schema.d.ts, `npm run client:generate`), plus
 * what every client of the interface needs and the document cannot say: a token that renews
 * itself, lists paged to the end, change feeds followed from an SCN, and binary answers with their
 * ETag. docs/client.md shows it in use. It imports nothing of the server (.dependency-cruiser.cjs):
 * a client application can copy client/ and depend on openapi-fetch alone.
 */
import createClient, { type Client } from 'openapi-fetch';
import {
  type FeedBatch,
  type FollowOptions,
  followFeed,
  type Getter,
  type ListResult,
  listAll,
  pages,
} from './paging.ts';
import type { paths } from './schema.d.ts';
import { tokenSource } from './token.ts';
import {
  type Answer,
  type BinaryOperation,
  type Body,
  type FeedOperation,
  type GetOperation,
  type MediaTypeOf,
  type OperationName,
  type PagedOperation,
  type PostOperation,
  type Problem,
  pathOf,
  type Query,
} from './types.ts';

export type { FeedBatch, FollowOptions, ListResult } from './paging.ts';
export { TokenError } from './token.ts';
export type * from './types.ts';

export interface Tv2ClientOptions {
  /** Where the server is, without /TV2 (`http://127.0.0.1:8080`). */
  baseUrl: string;
  /** The API user and its secret (`tv2 user add`). */
  user: string;
  secret: string;
  /** Another fetch (a proxy, a test double); globalThis.fetch by default. */
  fetch?: (request: Request) => Promise<Response>;
  /** The client's clock, in ms (tests); Date.now by default. */
  now?: () => number;
}

/** An answer other than 2xx (or 304 where asked for): its status and problem+json body. */
export class Tv2Error extends Error {
  readonly operation: string;
  readonly status: number;
  readonly problem: Problem | undefined;
  constructor(operation: string, status: number, problem: Problem | undefined) {
    super(`${operation}: ${status} ${problem?.code ?? ''} ${problem?.detail ?? ''}`.trim());
    this.name = 'Tv2Error';
    this.operation = operation;
    this.status = status;
    this.problem = problem;
  }
}

/** The keys a caller must give (`strarticle` of B2C_GetArticleStock). */
type RequiredKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? never : K }[keyof T];
/** A query with nothing required may be left out: `get('APIPing')`, `get('B2C_GetArticle', {...})`. */
type QueryArgs<N extends OperationName> = [Query<N>] extends [Record<string, never>]
  ? [query?: Query<N>]
  : [RequiredKeys<Query<N>>] extends [never]
    ? [query?: Query<N>]
    : [query: Query<N>];

export type Binary<N extends BinaryOperation> =
  | { status: 200; bytes: Uint8Array<ArrayBuffer>; mediaType: MediaTypeOf<N>; etag: string | undefined }
  /** `If-None-Match` matched: the copy the caller holds is current. */
  | { status: 304; etag: string | undefined };

export interface Tv2Client {
  /** The openapi-fetch client, with the token added: admin routes and anything the helpers lack. */
  readonly api: Client<paths>;
  /** Calls a GET operation and answers its JSON; a non-2xx answer throws Tv2Error. */
  get<N extends GetOperation>(name: N, ...query: QueryArgs<N>): Promise<Answer<N>>;
  /** Calls a POST operation; an Idempotency-Key makes it safe to retry (the server acts once). */
  post<N extends PostOperation>(
    name: N,
    body: Body<N>,
    options?: { idempotencyKey?: string },
  ): Promise<Answer<N>>;
  /** Calls an operation that answers bytes; with `ifNoneMatch` (an ETag held) a 304 says "unchanged". */
  binary<N extends BinaryOperation>(
    name: N,
    query: Query<N>,
    options?: { ifNoneMatch?: string },
  ): Promise<Binary<N>>;
  /** Every page of a list, following NEXTOFFSET from `stroffset` (default 1) to the last page. */
  pages<N extends PagedOperation>(
    name: N,
    ...query: QueryArgs<N>
  ): AsyncGenerator<Answer<N>, void, undefined>;
  /** A whole list: its records, its DELETED and the SCN to pass as strscn next time. */
  listAll<N extends PagedOperation>(name: N, ...query: QueryArgs<N>): Promise<ListResult<N>>;
  /** A change feed from an SCN, page by page, polling when caught up (an async iterator). */
  follow<N extends FeedOperation>(
    name: N,
    options: FollowOptions<N>,
  ): AsyncGenerator<FeedBatch<N>, void, undefined>;
  /** The bearer token in use (fetched if there is none yet). */
  token(): Promise<string>;
}

export function createTv2Client(options: Tv2ClientOptions): Tv2Client {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const tokens = tokenSource({ ...options, baseUrl, fetch: send });

  // Every call carries the token; a 401 renews it once and sends the same request again. The
  // request is cloned before it is sent because a sent body cannot be read twice; a refused call
  // did nothing on the server, so sending it again is safe (POSTs too).
  const authorised = async (request: Request): Promise<Response> => {
    const again = request.clone();
    const token = await tokens.current();
    request.headers.set('authorization', `Bearer ${token}`);
    const response = await send(request);
    if (response.status !== 401) return response;
    await response.body?.cancel();
    again.headers.set('authorization', `Bearer ${await tokens.renew(token)}`);
    return send(again);
  };
  // Bytes (an image upload) go as they are, with the content-type the caller names; the rest is JSON.
  const bodySerializer = (body: unknown) =>
    body instanceof Blob || body instanceof ArrayBuffer || ArrayBuffer.isView(body)
      ? body
      : JSON.stringify(body);
  const api = createClient<paths>({ baseUrl, fetch: authorised, bodySerializer });

  // openapi-fetch types each call by a literal path; an operation name makes the path, so the call
  // is made through this untyped view and the public signatures above carry the types.
  const loose = api as unknown as {
    GET(path: string, init: object): Promise<{ data?: unknown; error?: unknown; response: Response }>;
    POST(path: string, init: object): Promise<{ data?: unknown; error?: unknown; response: Response }>;
  };
  const failure = (name: string, response: Response, error: unknown) =>
    new Tv2Error(name, response.status, typeof error === 'object' && error ? (error as Problem) : undefined);

  const get = async <N extends GetOperation>(name: N, ...[query]: QueryArgs<N>): Promise<Answer<N>> => {
    const { data, error, response } = await loose.GET(pathOf(name), { params: { query } });
    if (!response.ok) throw failure(name, response, error);
    return data as Answer<N>;
  };

  const client: Tv2Client = {
    api,
    get,
    async post(name, body, postOptions = {}) {
      const headers = postOptions.idempotencyKey ? { 'idempotency-key': postOptions.idempotencyKey } : {};
      const { data, error, response } = await loose.POST(pathOf(name), { body, headers });
      if (!response.ok) throw failure(name, response, error);
      return data as never;
    },
    async binary(name, query, binaryOptions = {}) {
      const headers = binaryOptions.ifNoneMatch ? { 'if-none-match': binaryOptions.ifNoneMatch } : {};
      const { data, error, response } = await loose.GET(pathOf(name), {
        params: { query },
        headers,
        parseAs: 'arrayBuffer',
      });
      const etag = response.headers.get('etag') ?? undefined;
      if (response.status === 304) return { status: 304, etag };
      if (!response.ok) throw failure(name, response, error);
      // The media type is the one the server sniffed from the bytes (never a guess from a name).
      const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
      return { status: 200, bytes: new Uint8Array(data as ArrayBuffer), mediaType: mediaType as never, etag };
    },
    pages: (name, ...[query]) => pages(get as Getter, name, query),
    listAll: (name, ...[query]) => listAll(get as Getter, name, query),
    follow: (name, followOptions) => followFeed(get as Getter, name, followOptions),
    token: () => tokens.current(),
  };
  return client;
}
