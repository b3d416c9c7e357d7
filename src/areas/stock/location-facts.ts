import type { Kysely } from 'kysely';
import type { DB } from '../../kernel/db/schema.ts';
import { type LocationRow, StockRepository } from './stock-repository.ts';

/**
 * What other areas read of the stock area's tables, exported by stock/index.ts (each table has one
 * owner: docs/architecture.md, "Boundaries"). `db` is the caller's connection (`database.db`) or
 * its unit of work's transaction (`uow.db`): the read joins the caller's transaction.
 *
 * Where another area's statement must join the locations to stay one statement (the shops feeds),
 * it uses the query fragment `locationRows` (location-repository.ts) instead.
 */

/** One stock location by code, deleted ones included. */
export function findLocationIn(db: Kysely<DB>, code: string): Promise<LocationRow | undefined> {
  return new StockRepository(db).findLocation(code);
}

export { locationRows } from './location-repository.ts';
export type { LocationRow };
