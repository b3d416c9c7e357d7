/**
 * Types that name an operation of the interface (`'B2C_GetArticle'`) instead of its path, derived
 * from the generated client/schema.d.ts: the query, body and answer of each operation, and which
 * operations page, follow a feed or answer bytes. Nothing here is written by hand per operation,
 * so a regenerated schema.d.ts retypes the whole client.
 */
import type { components, paths } from './schema.d.ts';

const EXECUTE = '/TV2/Execute/APIPACK.';
export type ExecutePath = Extract<keyof paths, `${typeof EXECUTE}${string}`>;
/** Every operation of the interface under /TV2/Execute/ (GetToken is the client's own business). */
export type OperationName = ExecutePath extends `${typeof EXECUTE}${infer N}` ? N : never;
export type PathOf<N extends OperationName> = `${typeof EXECUTE}${N}`;

export function pathOf<N extends OperationName>(name: N): PathOf<N> {
  return `${EXECUTE}${name}`;
}

/** `get` and `post` are declared on a path only when it takes that method (else `get?: never`). */
type GetOf<N extends OperationName> = paths[PathOf<N>] extends { get: infer O } ? O : never;
type PostOf<N extends OperationName> = paths[PathOf<N>] extends { post: infer O } ? O : never;
type MethodOf<N extends OperationName> = GetOf<N> | PostOf<N>;

export type GetOperation = { [N in OperationName]: [GetOf<N>] extends [never] ? never : N }[OperationName];
export type PostOperation = { [N in OperationName]: [PostOf<N>] extends [never] ? never : N }[OperationName];

/** The query parameters (all strings on the wire: digits for numbers). */
export type Query<N extends OperationName> =
  MethodOf<N> extends { parameters: { query?: infer Q } }
    ? [Q] extends [never | undefined]
      ? Record<string, never>
      : NonNullable<Q>
    : never;

/** The JSON body of a POST operation. */
export type Body<N extends PostOperation> =
  PostOf<N> extends {
    requestBody: { content: { 'application/json': infer B } };
  }
    ? B
    : never;

type SuccessOf<O> = O extends { responses: { 200: { content: infer C } } } ? C : never;

/** The JSON answer of an operation (its root object, e.g. `{ B2CGETARTICLE: { ARTICLES } }`). */
export type Answer<N extends OperationName> =
  SuccessOf<MethodOf<N>> extends { 'application/json': infer A } ? A : never;

/** Operations that answer bytes (images, PDFs): their 200 has no application/json. */
export type BinaryOperation = {
  [N in GetOperation]: [Answer<N>] extends [never] ? N : never;
}[GetOperation];
/** The media types a binary operation declares (`image/png`, ...). */
export type MediaTypeOf<N extends BinaryOperation> = keyof SuccessOf<GetOf<N>> & string;

/** The object under the answer's single root key (`B2CGETALLARTICLES`). */
export type RootOf<N extends OperationName> = Answer<N>[keyof Answer<N>];

/**
 * Operations that page by NEXTOFFSET: their root has `NEXTOFFSET` (the wire conventions give every
 * list one records array beside it, and `DELETED` in the feeds).
 */
export type PagedOperation = {
  [N in GetOperation]: RootOf<N> extends { NEXTOFFSET: number | null } ? N : never;
}[GetOperation];

/** The records key of a paged answer: its one array other than DELETED (`ARTICLES`, `PRICES`). */
export type RecordsKey<N extends PagedOperation> = {
  [K in keyof RootOf<N>]: K extends 'DELETED' ? never : RootOf<N>[K] extends readonly unknown[] ? K : never;
}[keyof RootOf<N>];
export type RecordOf<N extends PagedOperation> =
  RootOf<N>[RecordsKey<N>] extends ReadonlyArray<infer R> ? R : never;
export type DeletedOf<N extends PagedOperation> =
  RootOf<N> extends { DELETED: ReadonlyArray<infer D> } ? D : never;

/** Paged operations that take `strscn` and answer an `SCN`: the change feeds (and lists read as one). */
export type FeedOperation = {
  [N in PagedOperation]: Query<N> extends { strscn?: string }
    ? RootOf<N> extends { SCN: number }
      ? N
      : never
    : never;
}[PagedOperation];

/** The problem+json body of every error answer (the document's `Problem` schema). */
export type Problem = components['schemas']['Problem'];
