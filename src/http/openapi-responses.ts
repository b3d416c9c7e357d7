import type { ErrorCode } from '../kernel/errors.ts';
import { HTTP_ERRORS } from './errors.ts';
import { childObject, operationsOf, SCHEMA_REF_PREFIX } from './openapi-components.ts';

/**
 * Every status an operation of the document can answer, and the headers of each answer, declared
 * once in `components.responses` and `components.headers` and referenced by `$ref` from each
 * operation (the document stays small; a generated client gets one type per status).
 *
 * What an operation can answer is read from what the server does for it (src/http/server.ts,
 * admin-routes.ts, problem.ts, request-guards.ts, auth.ts), as the document shows it:
 *  - every route: 400 (query, path or body invalid; U+0000; malformed path), 500, and 503
 *    DATABASE_UNAVAILABLE (every route reads the database: the token, the data, GetToken's user);
 *  - an operation or back-office path: 405 with `Allow` for the other methods;
 *  - a bearer token: 401 with `WWW-Authenticate`, 403 (role, confinement);
 *  - a body: 413 (over the operation's limit) and 415 (another media type);
 *  - a key in the path: 414 (over 100 characters);
 *  - a throttled operation (`THROTTLED`): 429 with `Retry-After`;
 *  - a planned operation: 501;
 *  - an image answer: `ETag`, and 304 for `If-None-Match` (the Binary answer of server.ts);
 *  - a POST taking an Idempotency-Key: `Idempotent-Replayed` on its answer.
 * Statuses the route declares itself (404, 409, ...) are kept, as references.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/**
 * Operations whose answer can be 429: GetToken (failed logins, src/areas/general/login-throttle.ts)
 * and every operation that checks a voucher or cheque code (refused checks per API user,
 * src/areas/tenders/voucher-service.ts), also when an order is paid with one.
 */
export const THROTTLED = new Set([
  'GetToken',
  'B2C_ValidateVoucher',
  'B2C_PostCashedVoucher',
  'B2C_PostCashedClientCheque',
  'B2B_PostOrdCus',
  'B2C_PostWebOrder',
]);

interface StatusSpec {
  name: string;
  description: string;
  headers: string[];
}

const STATUSES: Record<number, StatusSpec> = {
  400: {
    name: 'BadRequest',
    description: 'The request is invalid; `errors` names each bad query parameter, path key or body field.',
    headers: [],
  },
  401: {
    name: 'Unauthorized',
    description: 'No token, or an unknown, expired or revoked one (GetToken: no or wrong credentials).',
    headers: ['WWW-Authenticate'],
  },
  403: {
    name: 'Forbidden',
    description: 'The token lacks the role for this operation, or the object is outside its confinement.',
    headers: [],
  },
  404: { name: 'NotFound', description: 'No such object.', headers: [] },
  405: {
    name: 'MethodNotAllowed',
    description: 'The path takes another method; `Allow` names the methods it takes.',
    headers: ['Allow'],
  },
  409: {
    name: 'Conflict',
    description:
      'A business rule refused the request; for a conflict that passes by itself (an Idempotency-Key in use) `Retry-After` says when to retry.',
    headers: ['Retry-After'],
  },
  413: { name: 'ContentTooLarge', description: 'The body is larger than this operation takes.', headers: [] },
  414: { name: 'UriTooLong', description: 'A key in the path is longer than 100 characters.', headers: [] },
  415: {
    name: 'UnsupportedMediaType',
    description: 'The Content-Type is not one this operation takes.',
    headers: [],
  },
  429: {
    name: 'TooManyRequests',
    description: 'Too many refused attempts; retry after `Retry-After` seconds.',
    headers: ['Retry-After'],
  },
  500: {
    name: 'InternalServerError',
    description: 'A fault of the server; quote the requestId.',
    headers: [],
  },
  501: {
    name: 'NotImplemented',
    description: 'The operation is part of the TV2 interface, but its area is not built yet.',
    headers: [],
  },
  503: {
    name: 'ServiceUnavailable',
    description:
      'The database (or the login check) is busy or unavailable; retry after `Retry-After` seconds.',
    headers: ['Retry-After'],
  },
};

const SUCCESS: Record<string, string> = { 200: 'The answer.', 204: 'Done; no body.' };

const HEADERS: Record<string, JsonObject> = {
  'X-Request-Id': {
    description:
      'The request id: the client’s own X-Request-Id when it is 1 to 64 of `A-Z a-z 0-9 . _ : -`, else a UUID. Also in every problem (`requestId`) and log line.',
    schema: { type: 'string' },
  },
  ETag: {
    description: 'The entity tag of the bytes; send it as If-None-Match to get 304 while they are unchanged.',
    schema: { type: 'string' },
  },
  'Idempotent-Replayed': {
    description: '`true` when this is the stored answer of an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
  Allow: { description: 'The methods this path takes.', schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } },
  'WWW-Authenticate': {
    description: 'The scheme to authenticate with: `Bearer realm="TV2"` (GetToken: `Basic realm="TV2"`).',
    schema: { type: 'string' },
  },
};

/** The codes that no operation or back-office route answers with: unknown paths and readiness. */
const NOT_OF_OPERATIONS = new Set<string>(
  [
    HTTP_ERRORS.NOT_FOUND,
    HTTP_ERRORS.UNKNOWN_OPERATION,
    HTTP_ERRORS.SHUTTING_DOWN,
    HTTP_ERRORS.NOT_READY,
    HTTP_ERRORS.MIGRATIONS_PENDING,
  ].map((c) => c.code),
);

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
const responseRef = (status: number) => ({ $ref: `#/components/responses/${STATUSES[status]!.name}` });

/** The component responses and headers, one per status; each lists the codes it can carry. */
export function statusComponents(codes: readonly ErrorCode[]): {
  responses: JsonObject;
  headers: JsonObject;
} {
  const responses: JsonObject = {};
  for (const [key, spec] of Object.entries(STATUSES)) {
    const status = Number(key);
    const carried = codes.filter((c) => c.status === status && !NOT_OF_OPERATIONS.has(c.code));
    const headers: JsonObject = { 'X-Request-Id': headerRef('X-Request-Id') };
    for (const name of spec.headers) headers[name] = headerRef(name);
    const problem: JsonObject = { $ref: `${SCHEMA_REF_PREFIX}Problem` };
    const schema: JsonObject =
      carried.length > 0
        ? {
            allOf: [
              problem,
              {
                type: 'object',
                required: ['code'],
                properties: { code: { type: 'string', enum: carried.map((c) => c.code) } },
              },
            ],
          }
        : problem;
    const list = carried.map((c) => `- \`${c.code}\`: ${c.meaning}`);
    responses[spec.name] = {
      description: [spec.description, ...(list.length > 0 ? ['', 'Codes:', '', ...list] : [])].join('\n'),
      headers,
      content: { 'application/problem+json': { schema } },
    };
  }
  responses.NotModified = {
    description: 'The bytes are unchanged since the ETag sent as If-None-Match; no body.',
    headers: { 'X-Request-Id': headerRef('X-Request-Id'), ETag: headerRef('ETag') },
  };
  return { responses, headers: { ...HEADERS } };
}

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The statuses an operation can answer besides its own 2xx, by what the document shows of it. */
export function errorStatusesOf(path: string, op: JsonObject): number[] {
  const statuses = new Set<number>([400, 500, 503]);
  for (const key of Object.keys(isObject(op.responses) ? op.responses : {})) {
    const status = Number(key);
    if (status >= 400) statuses.add(status);
  }
  if (path.startsWith('/TV2/Execute/') || path.startsWith('/TV2/Admin/')) statuses.add(405);
  const security = Array.isArray(op.security) ? op.security : [];
  const schemes = security.flatMap((s) => (isObject(s) ? Object.keys(s) : []));
  if (schemes.includes('bearer')) {
    statuses.add(401);
    statuses.add(403);
  }
  if (schemes.includes('basic')) statuses.add(401);
  if (op.requestBody !== undefined) {
    statuses.add(413);
    statuses.add(415);
  }
  if (path.includes('{')) statuses.add(414);
  if (THROTTLED.has(String(op.operationId))) statuses.add(429);
  if (op['x-tv2-status'] === 'planned') statuses.add(501);
  return [...statuses].sort((a, b) => a - b);
}

/** True when the 200 answer is an image: conditional (ETag, If-None-Match, 304). */
function answersImage(op: JsonObject): boolean {
  const ok = isObject(op.responses) ? op.responses['200'] : undefined;
  const content = isObject(ok) && isObject(ok.content) ? ok.content : {};
  return Object.keys(content).some((type) => type.startsWith('image/'));
}

const isIdempotencyKey = (p: Json) =>
  isObject(p) && p.in === 'header' && String(p.name).toLowerCase() === 'idempotency-key';

/**
 * True when the operation takes an Idempotency-Key (server.ts declares the header on built POST
 * operations); the parameter is then one shared component, `Idempotency-Key` as HTTP writes it.
 */
function takesIdempotencyKey(op: JsonObject, components: JsonObject): boolean {
  const parameters = Array.isArray(op.parameters) ? op.parameters : [];
  const given = parameters.find(isIdempotencyKey);
  if (!isObject(given)) return false;
  const shared = childObject(components, 'parameters');
  shared.IdempotencyKey ??= { ...given, name: 'Idempotency-Key' };
  op.parameters = parameters.map((p) =>
    isIdempotencyKey(p) ? { $ref: '#/components/parameters/IdempotencyKey' } : p,
  );
  return true;
}

/**
 * Declares every status of every operation (above) as a reference to its component response, and
 * the headers of its success answers; adds `components.responses` and `components.headers`.
 */
export function declareStatuses(given: object, codes: readonly ErrorCode[]): void {
  const document = given as JsonObject;
  const components = childObject(document, 'components');
  const { responses, headers } = statusComponents(codes);
  const used = new Set<string>();
  for (const { path, op } of operationsOf(document)) {
    const declared = isObject(op.responses) ? op.responses : {};
    const out: JsonObject = {};
    const image = answersImage(op);
    const replayable = takesIdempotencyKey(op, components) && op['x-tv2-status'] !== 'planned';
    for (const [status, response] of Object.entries(declared)) {
      if (Number(status) >= 300 || !isObject(response)) continue;
      const answerHeaders: JsonObject = { 'X-Request-Id': headerRef('X-Request-Id') };
      if (image) answerHeaders.ETag = headerRef('ETag');
      if (replayable) answerHeaders['Idempotent-Replayed'] = headerRef('Idempotent-Replayed');
      out[status] = {
        ...response,
        // @fastify/swagger's placeholder for a response schema without a description of its own
        ...(response.description === 'Default Response'
          ? { description: SUCCESS[status] ?? 'The answer.' }
          : {}),
        headers: { ...(isObject(response.headers) ? response.headers : {}), ...answerHeaders },
      };
    }
    if (image) {
      out['304'] = { $ref: '#/components/responses/NotModified' };
      used.add('NotModified');
    }
    for (const status of errorStatusesOf(path, op)) {
      if (!STATUSES[status]) throw new Error(`${path}: no component response for status ${status}`);
      out[String(status)] = responseRef(status);
      used.add(STATUSES[status].name);
    }
    op.responses = out;
  }
  // Only the responses some operation gives (501 only while an operation is planned).
  components.responses = Object.fromEntries(Object.entries(responses).filter(([name]) => used.has(name)));
  components.headers = headers;
}
