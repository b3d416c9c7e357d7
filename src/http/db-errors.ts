import type { FastifyRequest } from 'fastify';
import { unavailableReason } from '../kernel/db/unavailable.ts';
import { HTTP_ERRORS } from './errors.ts';
import { type Problem, problemOf } from './problem.ts';

/** Seconds a client is asked to wait before retrying when the database is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

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
