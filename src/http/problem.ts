import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import { unavailableReason } from '../kernel/db/unavailable.ts';
import {
  ConflictError,
  DomainError,
  describeFieldErrors,
  type ErrorCode,
  type FieldError,
  KERNEL_ERRORS,
  MAX_LISTED_ERRORS,
  RateLimitedError,
  ValidationError,
} from '../kernel/errors.ts';
import { HTTP_ERRORS } from './errors.ts';

// node:http's own object rather than an ES import of it: making the import's namespace reads every
// export, WebSocket and the other fetch classes too, and that loads Node's bundled undici (2 MB of
// source, ~6 MiB of memory) that nothing here uses (docs/architecture.md, "Start-up and memory").
const { STATUS_CODES } = process.getBuiltinModule('node:http');

/**
 * The problem+json schema of the OpenAPI document; `code` lists every declared code (errorCodesOf in
 * errors.ts: the kernel's, the HTTP layer's and each area's) with its status and meaning.
 */
export function problemSchema(codes: readonly ErrorCode[]) {
  return Type.Object(
    {
      type: Type.String({ description: 'A URI naming the problem type.' }),
      title: Type.String(),
      status: Type.Integer(),
      detail: Type.String(),
      code: Type.String({
        enum: codes.map((c) => c.code),
        description: [
          'Stable machine code, e.g. ARTICLE_NOT_FOUND:',
          '',
          ...codes.map((c) => `- \`${c.code}\` (${c.status}, ${c.area}): ${c.meaning}`),
        ].join('\n'),
      }),
      instance: Type.Optional(Type.String()),
      requestId: Type.String(),
      errors: Type.Optional(
        Type.Array(
          Type.Object({
            name: Type.String({ description: 'Query parameter name or JSON pointer into the body.' }),
            message: Type.String(),
          }),
          { maxItems: MAX_LISTED_ERRORS, description: `The first ${MAX_LISTED_ERRORS} field errors.` },
        ),
      ),
      errorCount: Type.Optional(
        Type.Integer({
          minimum: 1,
          description: `How many field errors the request has in all; \`errors\` lists at most the first ${MAX_LISTED_ERRORS}.`,
        }),
      ),
    },
    { $id: 'Problem', description: 'RFC 9457 problem details.' },
  );
}
export type Problem = Static<ReturnType<typeof problemSchema>>;

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};

/** The one place where an error becomes a status code. */
const STATUS_OF_KIND: Record<DomainError['kind'], number> = {
  validation: 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'rate-limited': 429,
  'not-implemented': 501,
};

/** Fastify's own failures (parsing, content type, size) with the codes our clients see. */
const FASTIFY_CODES: Record<string, { error: ErrorCode; detail?: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { error: HTTP_ERRORS.UNSUPPORTED_MEDIA_TYPE },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { error: HTTP_ERRORS.INVALID_CONTENT_LENGTH },
  FST_ERR_CTP_BODY_TOO_LARGE: { error: HTTP_ERRORS.BODY_TOO_LARGE },
  FST_ERR_CTP_EMPTY_JSON_BODY: { error: HTTP_ERRORS.EMPTY_BODY },
  FST_ERR_CTP_INVALID_JSON_BODY: { error: HTTP_ERRORS.MALFORMED_JSON },
  FST_ERR_CTP_EMPTY_TYPE: { error: HTTP_ERRORS.UNSUPPORTED_MEDIA_TYPE },
  FST_ERR_CTP_INVALID_TYPE: { error: HTTP_ERRORS.UNSUPPORTED_MEDIA_TYPE },
  FST_ERR_BAD_URL: { error: HTTP_ERRORS.MALFORMED_URL, detail: 'The path is not validly percent-encoded.' },
  FST_ERR_MAX_PARAM_LENGTH: {
    error: HTTP_ERRORS.PATH_SEGMENT_TOO_LONG,
    detail: 'A key in the path is longer than 100 characters.',
  },
};

export function problemTypeUri(code: string): string {
  return `https://tv2.dev/problems/${code.toLowerCase().replaceAll('_', '-')}`;
}

export function makeProblem(
  request: FastifyRequest,
  status: number,
  code: string,
  detail: string,
  errors?: FieldError[],
  errorCount = errors?.length ?? 0,
): Problem {
  return {
    type: problemTypeUri(code),
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    code,
    // as the client sent it: a package alias routed to its operation is named as sent
    instance: (request.originalUrl || request.url).split('?')[0],
    requestId: String(request.id),
    ...(errors && errors.length > 0
      ? { errors: errors.slice(0, MAX_LISTED_ERRORS), errorCount: Math.max(errorCount, errors.length) }
      : {}),
  };
}

/** A problem with a declared code, sent with the code's status. */
export function problemOf(
  request: FastifyRequest,
  error: ErrorCode,
  detail: string,
  errors?: FieldError[],
  errorCount?: number,
): Problem {
  return makeProblem(request, error.status, error.code, detail, errors, errorCount);
}

export function sendProblem(reply: FastifyReply, problem: Problem): FastifyReply {
  return reply.code(problem.status).type('application/problem+json').send(JSON.stringify(problem));
}

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/**
 * Ajv's errors named the way a client wrote them: a query parameter, or a JSON pointer into the body.
 * Linear in the number of errors, and cheap per error (a 30 KB body can hold 60,000 of them): an
 * error is told apart from the ones before by its instance path and the property it names, with no
 * new strings; names and messages are only made for the first MAX_LISTED_ERRORS, the rest counted.
 */
function fieldErrors(context: string, validation: AjvError[]): { errors: FieldError[]; total: number } {
  const errors: FieldError[] = [];
  // instancePath -> the properties named under it ('' for the path itself).
  const seen = new Map<string, Set<string>>();
  let total = 0;
  for (const e of validation) {
    // An if/then that fails is told by the errors of its `then`; Ajv's own "must match then schema"
    // would name the object itself besides them.
    if (e.keyword === 'if') continue;
    const property =
      e.keyword === 'required'
        ? String(e.params.missingProperty)
        : e.keyword === 'additionalProperties'
          ? String(e.params.additionalProperty)
          : undefined;
    let named = seen.get(e.instancePath);
    if (named === undefined) {
      named = new Set();
      seen.set(e.instancePath, named);
    }
    if (named.has(property ?? '')) continue;
    named.add(property ?? '');
    total++;
    if (errors.length < MAX_LISTED_ERRORS) errors.push(fieldError(context, e, property));
  }
  return { errors, total };
}

function fieldError(context: string, e: AjvError, property: string | undefined): FieldError {
  const path = property === undefined ? e.instancePath : `${e.instancePath}/${pointerToken(property)}`;
  let message = e.message ?? 'is invalid';
  if (e.keyword === 'required') {
    message = 'is required';
  } else if (e.keyword === 'additionalProperties') {
    message =
      context === 'querystring' ? 'is not a parameter of this operation' : 'is not a field of this object';
  } else if (e.keyword === 'pattern' && typeof e.params.pattern === 'string') {
    message = patternMessage(e.params.pattern) ?? message;
  }
  const name = context === 'body' ? path || '/' : path.replace(/^\//, '') || context;
  return { name, message };
}

/** A property name as one JSON pointer token (RFC 6901). */
export function pointerToken(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

const PATTERN_MESSAGES: Record<string, string> = {
  '^[0-9]+$': 'must be a whole number written with digits only',
  '^0*[1-9][0-9]*$': 'must be a whole number of 1 or more written with digits only',
  '^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])$': 'must be a date YYYY-MM-DD',
};

function patternMessage(pattern: string): string | undefined {
  return PATTERN_MESSAGES[pattern];
}

/** Seconds a client is asked to wait before retrying when the database is unavailable. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * A database outage (unreachable, timed out, shut down, locked by another process past the busy
 * timeout) is the server's temporary condition, not a fault of the request: 503
 * DATABASE_UNAVAILABLE with Retry-After instead of a 500.
 */
export function databaseProblem(
  error: unknown,
  request: FastifyRequest,
): { problem: Problem; retryAfter: number } | undefined {
  const reason = unavailableReason(error);
  if (reason === undefined) return undefined;
  return {
    problem: problemOf(
      request,
      HTTP_ERRORS.DATABASE_UNAVAILABLE,
      `The database is unavailable: ${reason}. Try again in ${DATABASE_RETRY_AFTER_SECONDS} s.`,
    ),
    retryAfter: DATABASE_RETRY_AFTER_SECONDS,
  };
}

export function problemFromError(
  error: unknown,
  request: FastifyRequest,
): { problem: Problem; retryAfter?: number } {
  if (error instanceof DomainError) {
    const status = STATUS_OF_KIND[error.kind];
    const errors = error instanceof ValidationError ? error.errors : undefined;
    const retryAfter =
      error instanceof RateLimitedError || error instanceof ConflictError
        ? error.retryAfterSeconds
        : undefined;
    return { problem: makeProblem(request, status, error.code, error.message, errors), retryAfter };
  }
  const unavailable = databaseProblem(error, request);
  if (unavailable) return unavailable;
  const fe = error as FastifyError & { validation?: AjvError[]; validationContext?: string };
  if (fe.validation) {
    const { errors, total } = fieldErrors(fe.validationContext ?? 'body', fe.validation);
    const detail = `Invalid ${fe.validationContext ?? 'request'}: ${describeFieldErrors(errors, total)}`;
    return { problem: problemOf(request, KERNEL_ERRORS.VALIDATION_FAILED, detail, errors, total) };
  }
  const known = fe.code ? FASTIFY_CODES[fe.code] : undefined;
  if (known) return { problem: problemOf(request, known.error, known.detail ?? fe.message) };
  if (error instanceof SyntaxError && fe.statusCode === 400) {
    return {
      problem: problemOf(request, HTTP_ERRORS.MALFORMED_JSON, `The body is not valid JSON: ${error.message}`),
    };
  }
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return { problem: makeProblem(request, fe.statusCode, HTTP_ERRORS.BAD_REQUEST.code, fe.message) };
  }
  return {
    problem: problemOf(
      request,
      HTTP_ERRORS.INTERNAL_ERROR,
      'The server failed to answer this request. It has been logged under the request id.',
    ),
  };
}

/** Headers every answer carries, also those made outside the routes (below). */
export function commonHeaders(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id).header('x-content-type-options', 'nosniff');
}

/**
 * Fastify's `frameworkErrors`: a path that is not valid percent-encoding, or a path key over the
 * router's length limit, found before any route (so before the onRequest hooks) runs.
 */
export function frameworkErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  commonHeaders(request, reply);
  sendProblem(reply, problemFromError(error, request).problem);
}

const CLIENT_ERRORS: Record<string, { error: ErrorCode; detail: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    error: HTTP_ERRORS.REQUEST_TIMEOUT,
    detail: 'The request did not arrive in time.',
  },
  HPE_HEADER_OVERFLOW: {
    error: HTTP_ERRORS.HEADERS_TOO_LARGE,
    detail: 'The request headers are too large.',
  },
};

/**
 * Node's `clientError`: a request so malformed that no Fastify request exists (bad request line,
 * headers or framing), a header overflow or a timeout. Answered as problem+json with a fresh
 * request id on the raw socket, which is then closed.
 */
export function clientErrorHandler(
  this: { log: { debug(obj: object, msg: string): void } },
  error: NodeJS.ErrnoException,
  socket: Socket,
): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const known = (error.code && CLIENT_ERRORS[error.code]) || {
    error: HTTP_ERRORS.MALFORMED_REQUEST,
    detail: 'The request is not well-formed HTTP.',
  };
  const { status, code } = known.error;
  const requestId = randomUUID();
  this.log.debug({ err: error, requestId }, 'malformed request');
  const body = JSON.stringify({
    type: problemTypeUri(code),
    title: TITLES[status] ?? 'Error',
    status,
    detail: known.detail,
    code,
    requestId,
  } satisfies Problem);
  // Write only when no answer has begun on this connection (as Node's own handler does).
  const pending = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !pending?.headersSent) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/problem+json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        'X-Content-Type-Options: nosniff\r\n' +
        `Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
