import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Static, TSchema } from 'typebox';
import type { Principal } from './access/principal.ts';
import type { Services } from './services.ts';

/**
 * Who may call an operation: B2B needs the wholesale role, B2C the retail role, GENERAL any valid
 * token, PUBLIC no token at all.
 */
export type OperationAudience = 'B2B' | 'B2C' | 'GENERAL' | 'PUBLIC';
export type HttpMethod = 'GET' | 'POST';

export interface HandlerContext<Q, B> {
  query: Q;
  body: B;
  /** Null only on PUBLIC operations. */
  principal: Principal | null;
  services: Services;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * A JSON text made elsewhere (e.g. from a cache) that is sent as it is; or its UTF-8 bytes, when
 * it was put together from bytes (a list of stored documents), so it is not encoded again.
 */
export class JsonText {
  readonly text: string | Buffer;

  constructor(text: string | Buffer) {
    this.text = text;
  }
}

/** Bytes sent with their own media type. */
export class Binary {
  readonly contentType: string;
  readonly data: Buffer;
  readonly etag?: string;

  constructor(contentType: string, data: Buffer, etag?: string) {
    this.contentType = contentType;
    this.data = data;
    this.etag = etag;
  }
}

export interface Operation {
  name: string;
  method: HttpMethod;
  audience: OperationAudience;
  /** Groups operations in the reference documentation. */
  area: string;
  summary: string;
  description?: string;
  query?: TSchema;
  body?: TSchema;
  /** The 200 answer, for JSON operations. */
  response?: TSchema;
  /** The largest body this operation takes, when it differs from the server's TV2_BODY_LIMIT_BYTES. */
  bodyLimit?: number;
  /** Media types of a binary 200 answer, for operations that send bytes. */
  binaryTypes?: string[];
  /** Absent while the operation's area is not built: it answers 501 NOT_IMPLEMENTED. */
  // biome-ignore lint/suspicious/noExplicitAny: each handler is typed by `operation()` below
  handler?: (ctx: HandlerContext<any, any>) => Promise<unknown>;
}

/** Declares a built operation; the handler's query and body types come from the schemas. */
export function operation<Q extends TSchema, B extends TSchema>(
  def: Omit<Operation, 'query' | 'body' | 'handler'> & {
    query?: Q;
    body?: B;
    handler: (ctx: HandlerContext<Static<Q>, Static<B>>) => Promise<unknown>;
  },
): Operation {
  return def as Operation;
}

/** An operation of the listing whose area is not built yet. */
export function planned(method: HttpMethod, name: string, area: string, summary: string): Operation {
  const audience: OperationAudience = name.startsWith('B2B_')
    ? 'B2B'
    : name.startsWith('B2C_')
      ? 'B2C'
      : 'GENERAL';
  return { name, method, audience, area, summary };
}

/** The response root of an operation: its name in upper case without underscores (B2B_GetOrder -> B2BGETORDER). */
export function rootOf(name: string): string {
  return name.replaceAll('_', '').toUpperCase();
}
