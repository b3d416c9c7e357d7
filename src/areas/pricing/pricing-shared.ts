import type { Kysely } from 'kysely';
import type { Database } from '../../kernel/db/database.ts';
import type { DB } from '../../kernel/db/schema.ts';
import { inWriteTransaction } from '../../kernel/db/unit-of-work.ts';
import type { NotFoundError } from '../../kernel/errors.ts';
import { type ArticleState, articleSizesIn, articleStatesIn, liveArticlesIn } from '../catalog/index.ts';
import { PricingRepository } from './pricing-repository.ts';

/**
 * What the pricing services share beyond the field rules (pricing-rules.ts): the soft delete of a
 * record with a generated id. (Customers and their terms are the customers area's: its index.ts.)
 *
 * Writes follow one pattern: compare the request with what is stored; when nothing differs, end
 * without taking an SCN. Otherwise take the SCN (on PostgreSQL this holds the counter's row lock,
 * so no other synchronised writer is between its SCN and its commit), read again under it and
 * write what still differs. The first read may be stale on PostgreSQL; the second cannot be.
 */

/** An article's state (the catalogue's, read over `db`: a connection or a unit of work's transaction). */
export async function findArticle(db: Kysely<DB>, articleNo: string): Promise<ArticleState | undefined> {
  return (await articleStatesIn(db, [articleNo])).get(articleNo);
}

/** The live articles among `articleNos` with their sizes (article number -> sizes), read over `db`. */
export async function liveArticleSizes(
  db: Kysely<DB>,
  articleNos: readonly string[],
): Promise<Map<string, Set<string>>> {
  const live = await liveArticlesIn(db, articleNos);
  const sizes = await articleSizesIn(db, [...live]);
  return new Map([...live].map((articleNo) => [articleNo, new Set(sizes.get(articleNo))]));
}

/** What a write did: the SCN it stamped, null when nothing changed (and the SCN did not move). */
export interface WriteResult {
  scn: number | null;
  changed: number;
}

/** Flags one live record deleted in its own transaction; throws `notFound()` when there is none. */
export function softDelete(
  database: Database,
  now: () => Date,
  notFound: () => NotFoundError,
  of: (repo: PricingRepository) => {
    find: () => Promise<{ deleted: number } | undefined>;
    update: (scn: number, at: string) => Promise<void>;
  },
): Promise<WriteResult> {
  return inWriteTransaction(database, async (uow) => {
    const ops = of(new PricingRepository(uow.db));
    const live = async () => {
      const row = await ops.find();
      return row !== undefined && row.deleted === 0;
    };
    if (!(await live())) throw notFound();
    const scn = await uow.scn();
    if (!(await live())) throw notFound();
    await ops.update(scn, now().toISOString());
    return { scn, changed: 1 };
  });
}
