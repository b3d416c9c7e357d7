/**
 * Expected business failures. Domain code throws these; src/http/problem.ts is the one place that
 * maps them to HTTP statuses and problem+json bodies.
 */
export interface FieldError {
  /** A query parameter name (`strlimit`) or a JSON pointer into the body (`/ORDERREQUEST/...`). */
  name: string;
  message: string;
}

/** A problem lists at most this many field errors (and counts them all). */
export const MAX_LISTED_ERRORS = 20;

/** A one-line summary of field errors: the first MAX_LISTED_ERRORS, and how many more there are. */
export function describeFieldErrors(errors: readonly FieldError[], total = errors.length): string {
  const listed = errors
    .slice(0, MAX_LISTED_ERRORS)
    .map((e) => `${e.name}: ${e.message}`)
    .join('; ');
  const more = total - Math.min(errors.length, MAX_LISTED_ERRORS);
  return more > 0 ? `${listed}; and ${more} more` : listed;
}

export abstract class DomainError extends Error {
  abstract readonly kind:
    | 'validation'
    | 'unauthenticated'
    | 'forbidden'
    | 'not-found'
    | 'conflict'
    | 'not-implemented'
    | 'rate-limited';
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.code = code;
    this.name = new.target.name;
  }
}

export class ValidationError extends DomainError {
  readonly kind = 'validation';
  readonly errors: FieldError[];

  constructor(errors: FieldError[], code: string = KERNEL_ERRORS.VALIDATION_FAILED.code) {
    super(code, describeFieldErrors(errors));
    this.errors = errors;
  }
}

/**
 * The domain names a field by its JSON pointer inside the record it was given (`/ARTICLE`,
 * `/SIZES/2/BARCODE`; a list's record by its index first: `/3/PRICE`). A caller that sent the
 * record under a root (`/CLIENTDATA`, `/PRICES`) places the pointers there; `single` drops the
 * leading `/0` of a list write used for one record. Other errors pass unchanged.
 */
export function errorsUnder(root: string, error: unknown, { single = false } = {}): unknown {
  if (!(error instanceof ValidationError)) return error;
  const errors = error.errors.map((e) => {
    if (!e.name.startsWith('/')) return e;
    const name = single && (e.name === '/0' || e.name.startsWith('/0/')) ? e.name.slice(2) : e.name;
    return { ...e, name: `${root}${name}` || '/' };
  });
  return new ValidationError(errors, error.code);
}

/** Runs a write and places its validation errors under `root` (see errorsUnder). */
export async function withRoot<T>(
  root: string,
  work: () => Promise<T>,
  options?: { single?: boolean },
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw errorsUnder(root, error, options);
  }
}

export class UnauthenticatedError extends DomainError {
  readonly kind = 'unauthenticated';
}

export class ForbiddenError extends DomainError {
  readonly kind = 'forbidden';
}

export class NotFoundError extends DomainError {
  readonly kind = 'not-found';
}

export class ConflictError extends DomainError {
  readonly kind = 'conflict';
  /** When a retry may succeed (sent as Retry-After), for a conflict that passes by itself. */
  readonly retryAfterSeconds?: number;

  constructor(code: string, message: string, retryAfterSeconds?: number) {
    super(code, message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export class NotImplementedError extends DomainError {
  readonly kind = 'not-implemented';
  constructor(operation: string) {
    super(
      KERNEL_ERRORS.NOT_IMPLEMENTED.code,
      `${operation} is part of the TV2 interface but its area is not built yet.`,
    );
  }
}

export class RateLimitedError extends DomainError {
  readonly kind = 'rate-limited';
  readonly retryAfterSeconds: number;

  constructor(code: string, message: string, retryAfterSeconds: number) {
    super(code, message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** The error classes a code can be thrown as, by the status problem.ts gives that class. */
interface Factories {
  /** 400 with field errors (a ValidationError with this code). */
  400: (errors: FieldError[]) => ValidationError;
  401: (message: string) => UnauthenticatedError;
  403: (message: string) => ForbiddenError;
  404: (message: string) => NotFoundError;
  /** A conflict that passes by itself gives the seconds after which a retry may succeed. */
  409: (message: string, retryAfterSeconds?: number) => ConflictError;
  429: (message: string, retryAfterSeconds: number) => RateLimitedError;
}

const FACTORIES: { [S in keyof Factories]: (code: string) => Factories[S] } = {
  400: (code) => (errors) => new ValidationError(errors, code),
  401: (code) => (message) => new UnauthenticatedError(code, message),
  403: (code) => (message) => new ForbiddenError(code, message),
  404: (code) => (message) => new NotFoundError(code, message),
  409: (code) => (message, retryAfterSeconds) => new ConflictError(code, message, retryAfterSeconds),
  429: (code) => (message, retryAfterSeconds) => new RateLimitedError(code, message, retryAfterSeconds),
};

/** How an error code is declared: the HTTP status it is sent with, and what it means to a client. */
export interface ErrorCodeSpec {
  status: number;
  meaning: string;
}

/** A declared error code: its name, status and meaning, and the area (or `kernel`, `http`) that owns it. */
export interface ErrorCode {
  readonly code: string;
  readonly status: number;
  readonly meaning: string;
  readonly area: string;
}

/**
 * An area's error codes by name. A code whose status is one of a domain error (400, 401, 403, 404,
 * 409, 429) is also a function making that error with this code; any other (405, 503, ...) is
 * answered by the HTTP layer itself and only describes the code.
 */
export type ErrorTable<T extends Record<string, ErrorCodeSpec>> = {
  readonly [K in keyof T & string]: ErrorCode & { readonly code: K } & (T[K]['status'] extends keyof Factories
      ? Factories[T[K]['status']]
      : unknown);
};

const CODE_NAME = /^[A-Z][A-Z0-9_]{3,}$/;

/**
 * Declares an area's error codes once: `defineErrors('catalog', { ARTICLE_NOT_FOUND: { status: 404,
 * meaning: '...' } })` gives `CATALOG_ERRORS.ARTICLE_NOT_FOUND('No article "X".')`, a NotFoundError
 * with that code. The area lists the table on its Area object; the OpenAPI problem schema and the
 * error table of docs/api-conventions.md are made from these tables (src/http/errors.ts).
 */
export function defineErrors<const T extends Record<string, ErrorCodeSpec>>(
  area: string,
  specs: T,
): ErrorTable<T> {
  const table: Record<string, ErrorCode> = {};
  for (const [code, { status, meaning }] of Object.entries(specs)) {
    if (!CODE_NAME.test(code)) throw new Error(`error code ${code} of ${area} is not A_CODE_NAME`);
    const make = status in FACTORIES ? FACTORIES[status as keyof Factories](code) : {};
    table[code] = Object.freeze(Object.assign(make, { code, status, meaning, area }));
  }
  return Object.freeze(table) as ErrorTable<T>;
}

/** The codes no area owns: validation, images, tokens, roles and confinement, planned operations. */
export const KERNEL_ERRORS = defineErrors('kernel', {
  VALIDATION_FAILED: {
    status: 400,
    meaning:
      'A query parameter, path key or body field is invalid; `errors` names each (the first 20) and `errorCount` counts them.',
  },
  UNSUPPORTED_IMAGE: {
    status: 400,
    meaning: 'The bytes are not a JPEG, PNG or WebP image, have too many pixels or cannot be decoded.',
  },
  CONTENT_TYPE_MISMATCH: {
    status: 400,
    meaning: 'The declared media type of an image is not the type of its bytes.',
  },
  TOKEN_MISSING: {
    status: 401,
    meaning: 'No bearer token was sent, or the Authorization header is not `Bearer` and a token.',
  },
  TOKEN_INVALID: { status: 401, meaning: 'The bearer token is unknown.' },
  TOKEN_EXPIRED: { status: 401, meaning: 'The bearer token has expired; get a new one.' },
  TOKEN_REVOKED: { status: 401, meaning: 'The bearer token or its API user has been revoked.' },
  ROLE_REQUIRED: {
    status: 403,
    meaning: 'The operation is for another role (B2B, B2C, ADMIN) than the token has.',
  },
  OUTSIDE_SCOPE: {
    status: 403,
    meaning:
      'The token is confined to one customer or client, and the request concerns another (or a term it may not change).',
  },
  IMAGE_NOT_FOUND: {
    status: 404,
    meaning: 'The article or shop has no image with that number (or retail does not see it).',
  },
  NOT_IMPLEMENTED: {
    status: 501,
    meaning: 'The operation is part of the TV2 interface, but its area is not built yet.',
  },
});
