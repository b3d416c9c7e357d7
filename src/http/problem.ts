import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import {
  ConflictError,
  DomainError,
  type FieldError,
  RateLimitedError,
  ValidationError,
} from '../domain/errors.ts';

export const ProblemSchema = Type.Object(
  {
    type: Type.String({ description: 'A URI naming the problem type.' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String({ description: 'Stable machine code, e.g. ARTICLE_NOT_FOUND.' }),
    instance: Type.Optional(Type.String()),
    requestId: Type.String(),
    errors: Type.Optional(
      Type.Array(
        Type.Object({
          name: Type.String({ description: 'Query parameter name or JSON pointer into the body.' }),
          message: Type.String(),
        }),
      ),
    ),
  },
  { $id: 'Problem', description: 'RFC 9457 problem details.' },
);
export type Problem = Static<typeof ProblemSchema>;

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
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
const FASTIFY_CODES: Record<string, { status: number; code: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'INVALID_CONTENT_LENGTH' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'BODY_TOO_LARGE' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'EMPTY_BODY' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'MALFORMED_JSON' },
  FST_ERR_CTP_EMPTY_TYPE: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
  FST_ERR_CTP_INVALID_TYPE: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
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
): Problem {
  return {
    type: problemTypeUri(code),
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    code,
    instance: request.url.split('?')[0],
    requestId: String(request.id),
    ...(errors && errors.length > 0 ? { errors } : {}),
  };
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

/** Ajv's errors named the way a client wrote them: a query parameter, or a JSON pointer into the body. */
function fieldErrors(context: string, validation: AjvError[]): FieldError[] {
  const out: FieldError[] = [];
  for (const e of validation) {
    let path = e.instancePath;
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'required') {
      path = `${path}/${String(e.params.missingProperty)}`;
      message = 'is required';
    } else if (e.keyword === 'additionalProperties') {
      path = `${path}/${String(e.params.additionalProperty)}`;
      message =
        context === 'querystring' ? 'is not a parameter of this operation' : 'is not a field of this object';
    } else if (e.keyword === 'pattern' && typeof e.params.pattern === 'string') {
      message = patternMessage(e.params.pattern) ?? message;
    }
    const name = context === 'body' ? path || '/' : path.replace(/^\//, '') || context;
    if (!out.some((o) => o.name === name)) out.push({ name, message });
  }
  return out;
}

const PATTERN_MESSAGES: Record<string, string> = {
  '^[0-9]+$': 'must be a whole number written with digits only',
};

function patternMessage(pattern: string): string | undefined {
  return PATTERN_MESSAGES[pattern];
}

export function problemFromError(
  error: unknown,
  request: FastifyRequest,
): { problem: Problem; retryAfter?: number } {
  if (error instanceof DomainError) {
    const status = STATUS_OF_KIND[error.kind];
    const errors = error instanceof ValidationError ? error.errors : undefined;
    const retryAfter =
      error instanceof RateLimitedError || error instanceof ConflictError ? error.retryAfterSeconds : undefined;
    return { problem: makeProblem(request, status, error.code, error.message, errors), retryAfter };
  }
  const fe = error as FastifyError & { validation?: AjvError[]; validationContext?: string };
  if (fe.validation) {
    const errors = fieldErrors(fe.validationContext ?? 'body', fe.validation);
    const detail = `Invalid ${fe.validationContext ?? 'request'}: ${errors.map((e) => `${e.name} ${e.message}`).join('; ')}`;
    return { problem: makeProblem(request, 400, 'VALIDATION_FAILED', detail, errors) };
  }
  const known = fe.code ? FASTIFY_CODES[fe.code] : undefined;
  if (known) return { problem: makeProblem(request, known.status, known.code, fe.message) };
  if (error instanceof SyntaxError && fe.statusCode === 400) {
    return {
      problem: makeProblem(request, 400, 'MALFORMED_JSON', `The body is not valid JSON: ${error.message}`),
    };
  }
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return { problem: makeProblem(request, fe.statusCode, 'BAD_REQUEST', fe.message) };
  }
  return {
    problem: makeProblem(
      request,
      500,
      'INTERNAL_ERROR',
      'The server failed to answer this request. It has been logged under the request id.',
    ),
  };
}
