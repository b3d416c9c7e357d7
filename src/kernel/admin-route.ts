import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Static, type TSchema, Type } from 'typebox';
import { ValidationError } from './errors.ts';
import { DIGITS_MAX } from './int-limits.ts';
import type { Services } from './services.ts';

/**
 * The back-office area: `/TV2/Admin/...`, outside the TV2 operations, for users with the ADMIN
 * role. It is where articles, prices, stock and the rest are created and changed; every write is one
 * transaction and moves the SCN, so the TV2 change feeds see it.
 */
export interface AdminRoute {
  method: 'GET' | 'PUT' | 'POST' | 'DELETE';
  url: string;
  summary: string;
  description?: string;
  params?: TSchema;
  body?: TSchema;
  /** Media types of a raw body (e.g. images); the handler gets a Buffer. */
  rawBodyTypes?: string[];
  /** The 200 answer; a route without one answers 204. */
  response?: TSchema;
  // biome-ignore lint/suspicious/noExplicitAny: each route is typed by `adminRoute()`
  handler(ctx: AdminContext<any, any>): Promise<unknown>;
}

export interface AdminContext<P, B> {
  params: P;
  body: B;
  services: Services;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * A numeric key in the path: digits only, at most `max` (the column's range; checked by the
 * `x-digits-max` keyword, so a longer number is a 400 naming the key, not a database error).
 */
export function pathNumber(max: number, description?: string) {
  return Type.String({
    pattern: `^[0-9]{1,${String(max).length}}$`,
    [DIGITS_MAX]: max,
    ...(description ? { description } : {}),
  });
}

/**
 * A record's key is in the path and in the body; they must agree (compared as given, or with
 * `normalise`, e.g. Number for numeric keys). A null path value means the path lacks the key.
 */
export function samePathKey(
  pathValue: string | number | null,
  bodyValue: string | number | null,
  field: string,
  normalise: (v: string | number | null) => string | number | null = (v) => v,
): void {
  if (normalise(pathValue) !== normalise(bodyValue)) {
    const message = pathValue === null ? 'give it in the path' : `must equal the path's "${pathValue}"`;
    throw new ValidationError([{ name: `/${field}`, message }]);
  }
}

/** The raw bytes of an upload route and the media type the client declared for them. */
export function uploadedBytes(
  body: unknown,
  request: FastifyRequest,
): { data: Buffer; declaredType?: string } {
  if (!Buffer.isBuffer(body)) throw new ValidationError([{ name: 'body', message: 'send the image bytes' }]);
  const declaredType =
    String(request.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim() || undefined;
  return { data: body, declaredType };
}

export function adminRoute<P extends TSchema, B extends TSchema>(
  def: Omit<AdminRoute, 'params' | 'body' | 'handler'> & {
    params?: P;
    body?: B;
    handler: (ctx: AdminContext<Static<P>, Static<B>>) => Promise<unknown>;
  },
): AdminRoute {
  return def as AdminRoute;
}
