import { type Kysely, sql } from 'kysely';
import type { Engine } from './engine.ts';

/**
 * Gives `table` a stable paging position (docs/architecture.md, "Paging"): a column `pos`, unique
 * and indexed, numbered 1, 2, ... in `keyOrder` for the rows already there, and the next number for
 * every row inserted later, by the database itself so no insert statement has to name it. A
 * position never changes and is never reused (records are deleted as flagged tombstones), so a page
 * is an index range read (`pos >= stroffset ORDER BY pos LIMIT n`) whatever the offset.
 *
 * PostgreSQL: a sequence as the column default (gaps after a rollback are harmless: positions order,
 * they do not count). SQLite: an AFTER INSERT trigger sets `max(pos) + 1` (writers are serialised by
 * BEGIN IMMEDIATE; `max` is read off the index). An upsert that updates keeps the row's position.
 *
 * For a migration: `keyOrder` are column names of `table`, the order existing rows are numbered in.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is
export async function addPositionColumn(db: Kysely<any>, engine: Engine, table: string, keyOrder: string[]) {
  const t = sql.table(table);
  const order = sql.join(keyOrder.map((c) => sql.ref(c)));
  const index = sql.id(`${table}_pos`);
  if (engine === 'postgres') {
    const seq = sql.id(`${table}_pos_seq`);
    await sql`ALTER TABLE ${t} ADD COLUMN pos bigint`.execute(db);
    await sql`UPDATE ${t} SET pos = n.pos FROM (SELECT ctid AS id, row_number() OVER (ORDER BY ${order}) AS pos FROM ${t}) n WHERE ${t}.ctid = n.id`.execute(
      db,
    );
    await sql`CREATE SEQUENCE ${seq} OWNED BY ${t}.pos`.execute(db);
    await sql`SELECT setval(${sql.lit(`${table}_pos_seq`)}, (SELECT coalesce(max(pos), 0) + 1 FROM ${t}), false)`.execute(
      db,
    );
    await sql`ALTER TABLE ${t} ALTER COLUMN pos SET DEFAULT nextval(${sql.lit(`${table}_pos_seq`)}), ALTER COLUMN pos SET NOT NULL`.execute(
      db,
    );
  } else {
    await sql`ALTER TABLE ${t} ADD COLUMN pos INTEGER`.execute(db);
    await sql`UPDATE ${t} SET pos = n.pos FROM (SELECT rowid AS id, row_number() OVER (ORDER BY ${order}) AS pos FROM ${t}) n WHERE ${t}.rowid = n.id`.execute(
      db,
    );
    await sql`CREATE TRIGGER ${sql.id(`${table}_pos_insert`)} AFTER INSERT ON ${t} WHEN new.pos IS NULL BEGIN UPDATE ${t} SET pos = (SELECT coalesce(max(pos), 0) + 1 FROM ${t}) WHERE rowid = new.rowid; END`.execute(
      db,
    );
  }
  await sql`CREATE UNIQUE INDEX ${index} ON ${t} (pos)`.execute(db);
}
