import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';

/**
 * The SQL snapshots (sql/<engine>/<area>/<repository>.sql, written by `npm run sql:snapshot`) are
 * made by calling every public method of every repository with example arguments against a real
 * database and recording the statements it runs. Each area declares its examples in
 * src/areas/<area>/sql-examples.ts as `export const sqlExamples: AreaSqlExamples`.
 */

/**
 * One example call: made over a repository built on a transaction that is rolled back afterwards,
 * so writes leave nothing behind. `db` is that transaction (for methods that take one).
 */
export type SqlExampleCall<R> = (repository: R, db: Kysely<DB>) => unknown;

/** The public methods of a repository (`#private` ones are not part of it). */
type MethodName<R> = {
  [K in keyof R]: R[K] extends (...args: never[]) => unknown ? K : never;
}[keyof R] &
  string;

/**
 * An example for every public method of R: one call, or named variants when the SQL depends on
 * the arguments (an optional filter, a branch), each recorded under `-- Repository.method (variant)`.
 */
export type SqlExampleCalls<R> = {
  [K in MethodName<R>]: SqlExampleCall<R> | Readonly<Record<string, SqlExampleCall<R>>>;
};

// biome-ignore lint/suspicious/noExplicitAny: a repository class of any type
type AnyRepositoryClass = new (db: Kysely<DB>) => any;
// biome-ignore lint/suspicious/noExplicitAny: a call on any repository
type AnyCall = SqlExampleCall<any>;

export interface RepositorySqlExamples {
  repository: AnyRepositoryClass;
  calls: Readonly<Record<string, AnyCall | Readonly<Record<string, AnyCall>>>>;
}

export interface AreaSqlExamples {
  /**
   * Writes the rows the examples refer to, so that each method runs its whole path (an update that
   * finds its row, an insert whose foreign keys hold). Runs once, committed, before any example,
   * after the seeds of the areas listed before this one in src/areas.ts (except one that waits for
   * this one: `seedAfter`); its SQL is not recorded. A seed writes only its own area's tables.
   */
  seed?(db: Kysely<DB>): Promise<void>;
  /** Areas listed later in src/areas.ts whose seeds must run before this one's (its rows refer to theirs). */
  seedAfter?: readonly string[];
  repositories: RepositorySqlExamples[];
}

/**
 * The examples of one repository class; TypeScript refuses a missing public method and a method
 * that no longer exists (and the snapshot script checks the same at run time).
 */
export function sqlExamplesOf<R>(
  repository: new (db: Kysely<DB>) => R,
  calls: NoInfer<SqlExampleCalls<R>>,
): RepositorySqlExamples {
  return { repository, calls };
}
