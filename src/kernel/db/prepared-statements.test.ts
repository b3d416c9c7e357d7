import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE, freshDatabaseUrl } from '../../../test/helpers/test-app.ts';
import { MIGRATIONS } from '../../areas.ts';
import { type Database, migrate, openDatabase } from './database.ts';

let database: Database;
let drop: () => Promise<void>;

beforeAll(async () => {
  const fresh = await freshDatabaseUrl();
  drop = fresh.drop;
  // one connection: what it has prepared is what the next statement sees
  database = openDatabase(fresh.url, { poolSize: 1 });
  await migrate(database, MIGRATIONS);
});
afterAll(async () => {
  await database.close();
  await drop();
});

describe.runIf(ENGINE === 'postgres')('statements by name (PostgreSQL)', () => {
  it('prepares a statement with parameters once per connection and runs it by name after that', async () => {
    const read = (code: string) =>
      database.db.selectFrom('size_table').select('code').where('code', '=', code).execute();
    await read('PREP-1');
    await read('PREP-2');
    const prepared = async () =>
      (
        await sql<{
          statement: string;
        }>`SELECT statement FROM pg_prepared_statements WHERE name LIKE 'tv2\\_%'`.execute(database.db)
      ).rows.map((r) => r.statement);
    const once = (await prepared()).filter((s) => s.includes('"size_table"'));
    expect(once).toHaveLength(1);
    // the same text with other values is the same prepared statement
    await read('PREP-3');
    expect((await prepared()).filter((s) => s.includes('"size_table"'))).toHaveLength(1);
  });
});
