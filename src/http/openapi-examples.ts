import { readFileSync } from 'node:fs';
import { KERNEL_ERRORS } from '../kernel/errors.ts';
import { HTTP_ERRORS } from './errors.ts';

/**
 * Examples of requests and answers in the OpenAPI document (issue 14), taken from the demo data:
 * openapi-examples.json, written by `npm run openapi:examples` (scripts/openapi-examples.ts), holds
 * for each route ("METHOD /path" as the document names it) the path and query parameters, the JSON
 * body and the JSON answer of one call on the demo world (and values of the other query parameters
 * from further calls). They go where OpenAPI 3.1 wants them: a parameter's `example`, the
 * `example` of the request body's and the 2xx answer's media type. Every problem answer gets an
 * example of its status (one body, its status and code varied).
 *
 * No example: binary answers (images, PDF, UBL) and bodies (image uploads), 204 answers, and any
 * planned operation (501, none today). test/openapi-examples.test.ts checks each example against
 * the schema it sits next to, so an example that no longer fits fails there.
 *
 * The file is read when the document is made (on its first request), not at start-up.
 */
export interface RouteExample {
  params?: Record<string, string>;
  query?: Record<string, string>;
  /** Values of query parameters the call above did not use, from other calls of the route. */
  otherQuery?: Record<string, string>;
  body?: unknown;
  status: number;
  answer?: unknown;
}

const EXAMPLES_FILE = new URL('./openapi-examples.json', import.meta.url);

/** The examples by route, "GET /TV2/Execute/APIPACK.B2B_GetArticle", "PUT /TV2/Admin/articles/{article}". */
export function routeExamples(): Record<string, RouteExample> {
  return JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8')) as Record<string, RouteExample>;
}

/** The problem body every error answer's example shows, its status and code set per answer. */
const PROBLEMS: Record<number, { title: string; code: string; detail: string; errors?: unknown[] }> = {
  400: {
    title: 'Bad Request',
    code: KERNEL_ERRORS.VALIDATION_FAILED.code,
    detail: 'strlimit: must be a whole number from 1 to 1000',
    errors: [{ name: 'strlimit', message: 'must be a whole number from 1 to 1000' }],
  },
  401: {
    title: 'Unauthorized',
    code: KERNEL_ERRORS.TOKEN_EXPIRED.code,
    detail: 'The token has expired; get a new one.',
  },
  403: {
    title: 'Forbidden',
    code: KERNEL_ERRORS.ROLE_REQUIRED.code,
    detail: 'This operation needs the B2B role.',
  },
  404: { title: 'Not Found', code: '', detail: 'No such object; `code` says which kind.' },
  405: {
    title: 'Method Not Allowed',
    code: HTTP_ERRORS.METHOD_NOT_ALLOWED.code,
    detail: 'This path takes GET, HEAD, not POST.',
  },
  409: {
    title: 'Conflict',
    // The HTTP layer names no area, so no area's code here: the first code the answer declares.
    code: '',
    detail: 'A business rule refused the change; `code` says which.',
  },
  413: {
    title: 'Payload Too Large',
    code: HTTP_ERRORS.BODY_TOO_LARGE.code,
    detail: 'The body is larger than 1048576 bytes.',
  },
  415: {
    title: 'Unsupported Media Type',
    code: HTTP_ERRORS.UNSUPPORTED_MEDIA_TYPE.code,
    detail: 'Send the body as application/json.',
  },
  414: {
    title: 'URI Too Long',
    code: HTTP_ERRORS.PATH_SEGMENT_TOO_LONG.code,
    detail: 'A key in the path is longer than 100 characters.',
  },
  429: {
    title: 'Too Many Requests',
    code: '',
    detail: 'Too many attempts; retry after Retry-After seconds.',
  },
  500: {
    title: 'Internal Server Error',
    code: HTTP_ERRORS.INTERNAL_ERROR.code,
    detail: 'An unexpected error; quote the requestId.',
  },
  501: {
    title: 'Not Implemented',
    code: KERNEL_ERRORS.NOT_IMPLEMENTED.code,
    detail: 'This operation is not built yet.',
  },
  503: {
    title: 'Service Unavailable',
    code: HTTP_ERRORS.DATABASE_UNAVAILABLE.code,
    detail: 'The database is unavailable; retry later.',
  },
};

/** An example problem body of `status` (RFC 9457, as src/http/problem.ts makes them). */
export function problemExample(
  status: number,
  instance = '/TV2/Execute/APIPACK.B2B_GetArticle',
  declared?: string,
): object {
  const p = PROBLEMS[status] ?? PROBLEMS[500]!;
  return {
    type: `https://tv2.dev/problems/${p.code.toLowerCase().replace(/_/g, '-')}`,
    title: p.title,
    status: PROBLEMS[status] ? status : 500,
    detail: p.detail,
    code: p.code || declared || HTTP_ERRORS.INTERNAL_ERROR.code,
    instance,
    requestId: '4f9c2a1e-7d3b-4c8e-9a51-2b6f0d8e7c13',
    ...(p.errors ? { errors: p.errors, errorCount: p.errors.length } : {}),
  };
}

/** A client's retry key: any unique string, a UUID for example. */
const IDEMPOTENCY_KEY = '9b2f6c1e-3a4d-4e8f-b5c7-0d1e2f3a4b5c';

/** The paging and feed parameters every list has, where the route's calls did not use them. */
const PAGING_EXAMPLES: Record<string, string> = { strscn: '0', stroffset: '1', strlimit: '2' };

// biome-ignore lint/suspicious/noExplicitAny: the document is walked as plain JSON
type Node = any;

const JSON_TYPE = 'application/json';
const PROBLEM_TYPE = 'application/problem+json';

/** The route's key with the package alias left out, so examples fit whatever alias is first. */
function keyOf(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/^\/TV2\/Execute\/[^./]+\./, '/TV2/Execute/*.')}`;
}

/**
 * Puts the examples into the document (a fresh one: objects it shares between routes are copied
 * before they are changed, never changed in place).
 */
export function applyExamples<T>(document: T): T {
  const doc = document as Node;
  const examples = new Map(Object.entries(routeExamples()).map(([key, ex]) => [keyOf(...split(key)), ex]));
  /** components.responses entries by name, and the status that refers to them. */
  const referred = new Map<string, number>();
  for (const [path, item] of Object.entries<Node>(doc.paths ?? {})) {
    for (const [method, op] of Object.entries<Node>(item)) {
      if (typeof op !== 'object' || op === null || !op.responses) continue;
      if (op['x-tv2-status'] === 'planned') continue;
      const ex = examples.get(keyOf(method, path));
      if (ex) withRouteExample(op, ex);
      for (const [status, response] of Object.entries<Node>(op.responses)) {
        const code = Number(status);
        if (code < 400) continue;
        const ref = typeof response?.$ref === 'string' ? response.$ref : undefined;
        if (ref?.startsWith('#/components/responses/'))
          referred.set(ref.slice('#/components/responses/'.length), code);
        else if (response?.content?.[PROBLEM_TYPE]) op.responses[status] = withProblemExample(response, code);
      }
    }
  }
  // The retry key of the writing operations (a header parameter of the components).
  for (const [name, p] of Object.entries<Node>(doc.components?.parameters ?? {})) {
    if (String(p?.name).toLowerCase() === 'idempotency-key' && p.example === undefined) {
      doc.components.parameters[name] = { ...p, example: IDEMPOTENCY_KEY };
    }
  }
  const named = doc.components?.responses ?? {};
  for (const [name, status] of referred) {
    if (named[name]?.content?.[PROBLEM_TYPE]) named[name] = withProblemExample(named[name], status);
  }
  return document;
}

function split(key: string): [string, string] {
  const space = key.indexOf(' ');
  return [key.slice(0, space), key.slice(space + 1)];
}

function withRouteExample(op: Node, ex: RouteExample): void {
  if (Array.isArray(op.parameters)) {
    op.parameters = op.parameters.map((p: Node) => {
      const value =
        p.in === 'path'
          ? ex.params?.[p.name]
          : p.in === 'query'
            ? (ex.query?.[p.name] ?? ex.otherQuery?.[p.name] ?? PAGING_EXAMPLES[p.name])
            : undefined;
      return value === undefined || p.$ref ? p : { ...p, example: value };
    });
  }
  const body = op.requestBody?.content?.[JSON_TYPE];
  if (body && ex.body !== undefined) {
    op.requestBody = {
      ...op.requestBody,
      content: { ...op.requestBody.content, [JSON_TYPE]: { ...body, example: ex.body } },
    };
  }
  const status = String(ex.status);
  const answer = op.responses[status]?.content?.[JSON_TYPE];
  if (answer && ex.answer !== undefined) {
    const response = op.responses[status];
    op.responses[status] = {
      ...response,
      content: { ...response.content, [JSON_TYPE]: { ...answer, example: ex.answer } },
    };
  }
}

function withProblemExample(response: Node, status: number): Node {
  const media = response.content[PROBLEM_TYPE];
  // The codes this status can give, as openapi-responses.ts narrows them: the first is the example's
  // where no kernel or HTTP code fits (409, 429).
  const declared: string | undefined = media.schema?.allOf?.[1]?.properties?.code?.enum?.[0];
  return {
    ...response,
    content: {
      ...response.content,
      [PROBLEM_TYPE]: { ...media, example: problemExample(status, undefined, declared) },
    },
  };
}
