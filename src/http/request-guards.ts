import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type FieldError, ValidationError } from '../kernel/errors.ts';
import { HTTP_ERRORS } from './errors.ts';
import { pointerToken } from './problem.ts';

/**
 * Guards every request passes before any handler or database call: the request id, U+0000 in any
 * value, and the shape of a JSON body. Each one is linear in the size of the request.
 */

/** A client's X-Request-Id is kept when it is 1 to 64 of these characters; otherwise a UUID is made. */
export const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export function requestIdOf(raw: IncomingMessage): string {
  const given = raw.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/** A JSON body nests at most this deep ... */
export const MAX_JSON_DEPTH = 32;
/** ... and no object in it has more members than this. */
export const MAX_JSON_MEMBERS = 1000;

export class BodyTooComplexError extends ValidationError {
  constructor(message: string) {
    super([{ name: '/', message }], HTTP_ERRORS.BODY_TOO_COMPLEX.code);
  }
}

/**
 * Checks a JSON text's nesting depth and the member count of each object before it is parsed:
 * parsing an object of 100,000 keys, or 500,000 nested arrays, holds the event loop for a tenth of a
 * second or more, and no body of this API comes near either limit. One pass over the text; string
 * contents are skipped with indexOf, so a long base64 string costs next to nothing.
 */
export function jsonShapeProblem(text: string): string | undefined {
  const members = new Int32Array(MAX_JSON_DEPTH + 2);
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      // Skip to the closing quote: one not preceded by an odd number of backslashes.
      let end = text.indexOf('"', i + 1);
      while (end !== -1) {
        let slashes = 0;
        for (let j = end - 1; text.charCodeAt(j) === 92; j--) slashes++;
        if (slashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      if (end === -1) return undefined; // unterminated: the parser reports it
      i = end;
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      depth++;
      if (depth > MAX_JSON_DEPTH) return `nests deeper than ${MAX_JSON_DEPTH} levels`;
      members[depth] = 0;
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      if (depth > 0) depth--;
    } else if (c === 58 /* : */) {
      if (++members[depth]! > MAX_JSON_MEMBERS) {
        return `holds an object with more than ${MAX_JSON_MEMBERS} members`;
      }
    }
  }
  return undefined;
}

/** Replaces Fastify's JSON body parser with one that checks the shape (above) first. */
export function guardJsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const problem = typeof body === 'string' ? jsonShapeProblem(body) : undefined;
    if (problem) {
      done(new BodyTooComplexError(`The JSON body ${problem}.`), undefined);
      return;
    }
    parse(request, body as string, (error, value) => {
      // JSON writes U+0000 only as the escape \u0000 (a raw one is a syntax error): a text without
      // that escape parses to a value with no U+0000 in it, which refuseNulBytes need not walk.
      if (!error && typeof value === 'object' && value !== null && !(body as string).includes('\\u0000')) {
        NUL_FREE.add(value);
      }
      done(error, value);
    });
  });
}

/** JSON bodies parsed from a text that cannot hold U+0000 (guardJsonBodies). */
const NUL_FREE = new WeakSet<object>();

/**
 * The name of the first string (or object key) holding U+0000 in `value`, or undefined. Iterative,
 * so a deeply nested body cannot overflow the stack; the path is only built for the finding.
 */
function nulPointer(value: unknown): string | undefined {
  const stack: Array<{ value: unknown; path: string }> = [{ value, path: '' }];
  while (stack.length > 0) {
    const { value: v, path } = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\0')) return path || '/';
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: `${path}/${i}` });
    } else if (v !== null && typeof v === 'object' && !Buffer.isBuffer(v)) {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        const token = `${path}/${pointerToken(key)}`;
        if (key.includes('\0')) return token;
        stack.push({ value: (v as Record<string, unknown>)[key], path: token });
      }
    }
  }
  return undefined;
}

/** True when some string in `value` (or key) holds U+0000; no paths are built. */
function holdsNul(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.includes('\0')) return true;
    } else if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
    } else if (v !== null && typeof v === 'object' && !Buffer.isBuffer(v)) {
      for (const key in v) {
        if (key.includes('\0')) return true;
        stack.push((v as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

const NUL_MESSAGE = 'must not contain the character U+0000';

/** The query parameters, path parameters and JSON body strings of a request that hold U+0000. */
export function nulFieldErrors(request: Pick<FastifyRequest, 'query' | 'params' | 'body'>): FieldError[] {
  const errors: FieldError[] = [];
  for (const source of [request.params, request.query]) {
    if (source === null || typeof source !== 'object') continue;
    for (const [name, value] of Object.entries(source as Record<string, unknown>)) {
      if (name.includes('\0') || holdsNul(value)) errors.push({ name, message: NUL_MESSAGE });
    }
  }
  const body = request.body;
  const nulFree = typeof body === 'object' && body !== null && NUL_FREE.has(body);
  if (!nulFree && holdsNul(body))
    errors.push({ name: nulPointer(request.body) ?? '/', message: NUL_MESSAGE });
  return errors;
}

/**
 * Refuses U+0000 anywhere in a request's values with 400 VALIDATION_FAILED, before validation, the
 * handler or the database: PostgreSQL cannot store it in text, and no field of this API needs it.
 */
export function refuseNulBytes(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const errors = nulFieldErrors(request);
    done(errors.length > 0 ? new ValidationError(errors) : undefined);
  });
}
