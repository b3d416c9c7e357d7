import type { Kysely } from 'kysely';
import type { Engine } from '../../../kernel/db/engine.ts';
import { addPositionColumn } from '../../../kernel/db/position.ts';
import type { DB } from '../../../kernel/db/schema.ts';
import { articleScopes } from '../../catalog/index.ts';

/**
 * Stable paging positions for the pricing area (docs/architecture.md, "Paging"; docs/pricing.md,
 * "Sync"): list prices (B2B_GetPriceChanges) numbered in key order, agreements, line discounts and
 * action prices in id order. `price_article`, the unit B2B_GetAllPrices pages by, takes the
 * article's own position (the catalogue's `article.pos`, migration 0010): the list pages in the
 * catalogue's article order and NEXTOFFSET is an article's position.
 *
 * Indexes: the offset-skipping covering index of price_article goes (a page is now a range of
 * `pos`); the lists of one customer (`customer_no = ? AND pos >= ? ORDER BY pos`) and of a customer
 * group get an index on (party, pos), which also serves every lookup by the party alone that the
 * old single-column ones served. The feeds keep their `scn` indexes. A customer's line discounts for
 * an article's model or article group (the price read, ArticlePriceRepository) are found by
 * (customer, scope, value), as agreements are by (scope, value).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  await addPositionColumn(db, engine, 'list_price', [
    'article_no',
    'price_type',
    'price_group',
    'currency',
    'sizex',
  ]);
  await addPositionColumn(db, engine, 'price_agreement', ['id']);
  await addPositionColumn(db, engine, 'customer_line_discount', ['id']);
  await addPositionColumn(db, engine, 'action_price', ['id']);

  await db.schema
    .alterTable('price_article')
    .addColumn('pos', engine === 'postgres' ? 'bigint' : 'integer')
    .execute();
  const articles = articleScopes(db as Kysely<DB>);
  await db
    .updateTable('price_article')
    .set((eb) => ({
      pos: eb
        .selectFrom(articles.as('a'))
        .select('a.pos')
        .whereRef('a.article_no', '=', 'price_article.article_no'),
    }))
    .execute();
  if (engine === 'postgres') {
    await db.schema
      .alterTable('price_article')
      .alterColumn('pos', (c) => c.setNotNull())
      .execute();
  }
  await db.schema.createIndex('price_article_pos').unique().on('price_article').column('pos').execute();
  await db.schema.dropIndex('price_article_order').execute();

  await db.schema.dropIndex('price_agreement_customer').execute();
  await db.schema
    .createIndex('price_agreement_customer_pos')
    .on('price_agreement')
    .columns(['customer_no', 'pos'])
    .execute();
  await db.schema.dropIndex('price_agreement_group').execute();
  await db.schema
    .createIndex('price_agreement_group_pos')
    .on('price_agreement')
    .columns(['customer_group', 'pos'])
    .execute();
  await db.schema.dropIndex('customer_line_discount_customer').execute();
  await db.schema
    .createIndex('customer_line_discount_customer_pos')
    .on('customer_line_discount')
    .columns(['customer_no', 'pos'])
    .execute();
  await db.schema
    .createIndex('customer_line_discount_scope')
    .on('customer_line_discount')
    .columns(['customer_no', 'scope', 'scope_value'])
    .execute();
}
