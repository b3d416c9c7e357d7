import type { Area } from '../kernel/area.ts';
import { defineErrors, type ErrorCode, KERNEL_ERRORS } from '../kernel/errors.ts';

/**
 * The codes the HTTP layer answers with itself: Fastify's own failures, requests too malformed to
 * reach a route, unknown paths and methods, database outages, health and server faults.
 */
export const HTTP_ERRORS = defineErrors('http', {
  MALFORMED_JSON: { status: 400, meaning: 'The body is not valid JSON.' },
  EMPTY_BODY: { status: 400, meaning: 'The body is empty where JSON is expected.' },
  INVALID_CONTENT_LENGTH: { status: 400, meaning: 'The Content-Length does not match the body.' },
  BODY_TOO_COMPLEX: {
    status: 400,
    meaning: 'The JSON body nests deeper than 32 levels or has an object of more than 1,000 members.',
  },
  MALFORMED_URL: { status: 400, meaning: 'The path is not validly percent-encoded.' },
  MALFORMED_REQUEST: {
    status: 400,
    meaning: 'The request is not well-formed HTTP; the connection is closed after the answer.',
  },
  BAD_REQUEST: {
    status: 400,
    meaning: 'Another client error found by the web framework, sent with the 4xx status it gives.',
  },
  NOT_FOUND: { status: 404, meaning: 'Nothing is at this path.' },
  UNKNOWN_OPERATION: { status: 404, meaning: 'No operation of this name under /TV2/Execute/.' },
  METHOD_NOT_ALLOWED: {
    status: 405,
    meaning: 'The operation takes another method (the Allow header names it).',
  },
  REQUEST_TIMEOUT: { status: 408, meaning: 'The request did not arrive in time; the connection is closed.' },
  BODY_TOO_LARGE: { status: 413, meaning: 'The body is larger than this operation accepts.' },
  PATH_SEGMENT_TOO_LONG: { status: 414, meaning: 'A key in the path is longer than 100 characters.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, meaning: 'The Content-Type is not one this operation accepts.' },
  HEADERS_TOO_LARGE: {
    status: 431,
    meaning: 'The request headers are too large; the connection is closed.',
  },
  INTERNAL_ERROR: {
    status: 500,
    meaning: 'The server failed; the cause is logged under the request id.',
  },
  DATABASE_UNAVAILABLE: {
    status: 503,
    meaning: 'The database is unreachable, timed out or locked; retry after Retry-After seconds.',
  },
  SHUTTING_DOWN: { status: 503, meaning: 'Readiness: this process is shutting down.' },
  NOT_READY: { status: 503, meaning: 'Readiness: the database check failed.' },
  MIGRATIONS_PENDING: {
    status: 503,
    meaning: 'Readiness: the database lacks migrations this version needs.',
  },
});

/**
 * Every code a problem can carry: the kernel's, the HTTP layer's, then each area's in area order
 * (within a table by status, then name).
 * A code declared twice is refused.
 */
export function errorCodesOf(areas: readonly Area[]): ErrorCode[] {
  const tables = [KERNEL_ERRORS, HTTP_ERRORS, ...areas.map((area) => area.errors ?? {})];
  const codes = new Map<string, ErrorCode>();
  const byStatus = (a: ErrorCode, b: ErrorCode) => a.status - b.status || a.code.localeCompare(b.code);
  for (const entry of tables.flatMap((table) => Object.values(table).sort(byStatus))) {
    const earlier = codes.get(entry.code);
    if (earlier) throw new Error(`error code ${entry.code} is declared by ${earlier.area} and ${entry.area}`);
    codes.set(entry.code, entry);
  }
  return [...codes.values()];
}

/** The "Error codes" table of docs/api-conventions.md (scripts/error-table.ts writes it). */
export function errorCodeTable(codes: readonly ErrorCode[]): string {
  const rows = codes.map(
    (c) => `| \`${c.code}\` | ${c.status} | ${c.area} | ${c.meaning.replaceAll('|', '\\|')} |`,
  );
  return ['| Code | Status | Area | Meaning |', '| --- | --- | --- | --- |', ...rows].join('\n');
}
