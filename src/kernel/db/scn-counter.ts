import { type Kysely, sql } from 'kysely';
import type { DB } from './schema.ts';

/** Takes the next SCN: the counter's row lock is held until the transaction `db` ends. */
export async function nextScn(db: Kysely<DB>): Promise<number> {
  const row = await db
    .updateTable('scn_counter')
    .set({ value: sql`value + 1` })
    .where('id', '=', 1)
    .returning('value')
    .executeTakeFirstOrThrow();
  return Number(row.value);
}

/** The highest SCN whose transaction has committed; read it before the rows it bounds. */
export async function currentScn(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom('scn_counter')
    .select('value')
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.value);
}
