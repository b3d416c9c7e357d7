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
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends DomainError {
  readonly kind = 'validation';
  constructor(
    readonly errors: FieldError[],
    code = 'VALIDATION_FAILED',
  ) {
    super(code, describeFieldErrors(errors));
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
  constructor(
    code: string,
    message: string,
    /** When a retry may succeed (sent as Retry-After), for a conflict that passes by itself. */
    readonly retryAfterSeconds?: number,
  ) {
    super(code, message);
  }
}

export class NotImplementedError extends DomainError {
  readonly kind = 'not-implemented';
  constructor(operation: string) {
    super('NOT_IMPLEMENTED', `${operation} is part of the TV2 interface but its area is not built yet.`);
  }
}

export class RateLimitedError extends DomainError {
  readonly kind = 'rate-limited';
  constructor(
    code: string,
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(code, message);
  }
}
