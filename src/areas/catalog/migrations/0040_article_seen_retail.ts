import type { Kysely } from 'kysely';

/**
 * Whether retail ever saw an article (issue 14, docs/catalog.md "Change feeds"): `seen_retail` is set
 * when the article is live, active and published for retail, and never cleared. The retail feeds
 * (articles, images, stock) report an article's records under DELETED only when retail saw it, so an
 * article never published for retail stays unknown to retail clients.
 *
 * Existing articles are taken as seen when they are published for retail now.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('article')
    .addColumn('seen_retail', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db
    .updateTable('article')
    .set((eb) => ({ seen_retail: eb.ref('retail') }))
    .execute();
}
