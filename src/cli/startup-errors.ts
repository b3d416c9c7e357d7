import pg from 'pg';
import { type Config, ConfigError, isPostgresUrl } from '../config.ts';
import { ReadOnlyDatabaseError } from '../kernel/db/database.ts';
import { DatabaseUnavailableError } from '../kernel/db/unavailable.ts';

type ErrnoLike = Error & { code?: unknown; syscall?: unknown; path?: unknown };

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The innermost cause with an error code (pg wraps socket errors, Node wraps dual-stack failures). */
function rootCause(error: unknown): ErrnoLike | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof AggregateError && current.errors.length > 0) {
      current = current.errors[0];
      continue;
    }
    if (codeOf(current) !== undefined && !(current instanceof DatabaseUnavailableError)) {
      return current as ErrnoLike;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return current instanceof Error ? (current as ErrnoLike) : undefined;
}

/** `host:port/database` of a PostgreSQL URL, never its password. */
function postgresTarget(url: string): { where: string; database: string; user: string } {
  try {
    const u = new URL(url);
    const database = decodeURIComponent(u.pathname.replace(/^\//, '')) || decodeURIComponent(u.username);
    return { where: `${u.hostname}:${u.port || '5432'}`, database, user: decodeURIComponent(u.username) };
  } catch {
    return { where: 'the configured server', database: '?', user: '?' };
  }
}

function sqliteFile(url: string): string {
  return url.replace(/^sqlite:(\/\/)?/, '').replace(/^file:/, '');
}

/**
 * One line that names why `tv2 serve` could not start and which setting to change, for the failures
 * an operator meets (a bad setting, an unwritable database file or directory, a port in use,
 * PostgreSQL unreachable, missing or refusing the login); undefined for anything else (a bug,
 * which keeps its stack trace).
 */
export function startupFailure(error: unknown, config: Config | undefined): string | undefined {
  if (error instanceof ConfigError) return error.message;
  const url = config?.databaseUrl ?? '';
  const cause = rootCause(error);
  const code = codeOf(cause);
  const syscall = cause?.syscall;

  if (syscall === 'listen' || code === 'EADDRINUSE') {
    const at = `${config?.host ?? '?'}:${config?.port ?? '?'}`;
    if (code === 'EADDRINUSE')
      return `port ${at} is already in use by another process: set PORT (or HOST) to a free one`;
    if (code === 'EADDRNOTAVAIL') return `${config?.host} is not an address of this machine: set HOST`;
    if (code === 'EACCES')
      return `no permission to listen on ${at} (ports below 1024 need privileges): set PORT`;
    return `cannot listen on ${at} (${code}): set HOST and PORT`;
  }

  if (error instanceof ReadOnlyDatabaseError) {
    const { where } = postgresTarget(url);
    return `${error.message} at ${where}: point DATABASE_URL at the primary, or use a user that may write`;
  }

  if (syscall === 'mkdir') {
    return `cannot create the directory ${String(cause?.path)} for the SQLite database (${code}): set DATABASE_URL to a file in a writable directory`;
  }

  if (cause?.name === 'SqliteError' && code !== undefined) {
    const file = sqliteFile(url);
    if (code.startsWith('SQLITE_READONLY')) {
      return `the SQLite database ${file} is read-only (${code}): make the file and its directory writable for this user, or set DATABASE_URL`;
    }
    if (code.startsWith('SQLITE_CANTOPEN')) {
      return `cannot open the SQLite database ${file} (${code}): check that it can be created there and is writable, or set DATABASE_URL`;
    }
    if (code === 'SQLITE_NOTADB') return `${file} is not a SQLite database: set DATABASE_URL`;
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
      return `the SQLite database ${file} stayed locked by another process (${code}): stop it, or raise TV2_SQLITE_BUSY_TIMEOUT_MS`;
    }
    if (code.startsWith('SQLITE_IOERR') || code === 'SQLITE_FULL') {
      return `cannot write the SQLite database ${file} (${code}: disk full or failing?): free space or set DATABASE_URL`;
    }
    return undefined;
  }

  if (isPostgresUrl(url)) {
    const { where, database, user } = postgresTarget(url);
    if (error instanceof pg.DatabaseError || cause instanceof pg.DatabaseError) {
      const pgError = (error instanceof pg.DatabaseError ? error : cause) as pg.DatabaseError;
      switch (pgError.code) {
        case '25006':
          return `PostgreSQL at ${where} accepts no writes (${pgError.message}): point DATABASE_URL at the primary, or use a user that may write`;
        case '3D000':
          return `the PostgreSQL database "${database}" does not exist on ${where}: create it (createdb ${database}) or fix DATABASE_URL`;
        case '28P01':
        case '28000':
          return `PostgreSQL at ${where} refused the login of "${user}" (${pgError.message}): fix the user or password in DATABASE_URL`;
        case '57P03':
          return `PostgreSQL at ${where} is starting up or shutting down: start tv2 again when it is up`;
        case '53300':
          return `PostgreSQL at ${where} has no free connection (too many clients): lower TV2_DB_POOL_SIZE or raise max_connections`;
        case '42501':
          return `the PostgreSQL user "${user}" may not create tables in "${database}" (${pgError.message}): grant it, or use the database owner in DATABASE_URL`;
        default:
          return undefined;
      }
    }
    if (error instanceof DatabaseUnavailableError || cause?.syscall === 'connect' || code === 'ENOTFOUND') {
      if (code === 'ECONNREFUSED') {
        return `cannot reach PostgreSQL at ${where} (connection refused): check DATABASE_URL and that the server runs`;
      }
      if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
        return `cannot resolve the PostgreSQL host in DATABASE_URL (${where}): fix DATABASE_URL`;
      }
      if (/timeout/i.test(cause?.message ?? '')) {
        return `PostgreSQL at ${where} did not answer within ${config?.dbConnectTimeoutMs} ms: check DATABASE_URL and the network, or raise TV2_DB_CONNECT_TIMEOUT_MS`;
      }
      return `cannot reach PostgreSQL at ${where} (${code ?? cause?.message ?? 'connection failed'}): check DATABASE_URL and that the server runs`;
    }
  }
  return undefined;
}
