import pg from 'pg';

/**
 * The database could not be reached or did not answer in time: raised by the PostgreSQL pool for
 * failures that are not an error answer of the server (refused or lost connections, connect and
 * read timeouts). The original error is the `cause`.
 */
export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';
}

/**
 * PostgreSQL SQLSTATEs that mean "the database cannot serve this now" rather than "this request is
 * wrong": connection exceptions (08), insufficient resources (53: disk full, out of memory, too
 * many connections), operator intervention (57: query canceled by statement_timeout, admin or
 * crash shutdown, cannot connect now), invalid authorization (28) and a missing database (3D000),
 * a read-only transaction after a fail-over to a standby (25006), lock_timeout (55P03).
 */
const PG_UNAVAILABLE_CLASSES = ['08', '53', '57', '28'];
const PG_UNAVAILABLE_CODES = new Set(['3D000', '25006', '55P03']);

/**
 * SQLite result codes that mean the same: another process holds the write lock past the busy
 * timeout (BUSY, LOCKED), the file became read-only, unreadable or the disk is full.
 */
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|READONLY|IOERR|FULL|CANTOPEN)(_|$)/;

/**
 * Why `error` means the database is unavailable (a short phrase for the problem detail, naming no
 * internals: the error itself is logged), or undefined when it means something else.
 */
export function unavailableReason(error: unknown): string | undefined {
  if (error instanceof DatabaseUnavailableError) return 'it cannot be reached or did not answer in time';
  if (error instanceof pg.DatabaseError && typeof error.code === 'string') {
    if (error.code === '57014') return 'a statement ran past the statement timeout';
    if (PG_UNAVAILABLE_CODES.has(error.code) || PG_UNAVAILABLE_CLASSES.includes(error.code.slice(0, 2))) {
      return 'it is shutting down, starting, read-only or out of resources';
    }
    return undefined;
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (error instanceof Error && error.name === 'SqliteError' && typeof code === 'string') {
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
      return 'another process held the write lock longer than the busy timeout';
    }
    if (SQLITE_UNAVAILABLE.test(code)) return 'its file cannot be read or written';
  }
  return undefined;
}
