import type { Kysely } from 'kysely';
import type { DB } from '../../kernel/db/schema.ts';

/**
 * A query fragment (docs/decisions.md 24) for another area's statement that must join the article:
 * every article's key, the scopes prices are agreed on (model, article group), whether it is
 * deleted, and its stable paging position (docs/architecture.md, "Paging"). Pricing reads an
 * article's price for a customer in one statement with it, and gives the per-article rows that
 * B2B_GetAllPrices pages by the article's own position. Join as
 * `.innerJoin(articleScopes(db).as('a'), 'a.article_no', ...)`.
 */
export function articleScopes(db: Kysely<DB>) {
  return db.selectFrom('article').select(['article_no', 'model_no', 'article_group', 'deleted', 'pos']);
}
