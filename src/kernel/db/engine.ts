import { type Kysely, PostgresAdapter } from 'kysely';

export type Engine = 'sqlite' | 'postgres';

/** Whether `db` talks to PostgreSQL (a transaction shares its database's adapter). */
// biome-ignore lint/suspicious/noExplicitAny: any schema: the adapter is all that is read
export function onPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
