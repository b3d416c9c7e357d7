import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { withMigratedDatabase } from '../../../test/helpers/test-app.ts';
import { MIGRATIONS } from '../../areas.ts';
import { type Database, migrate } from './database.ts';

let database: Database;
withMigratedDatabase((d) => {
  database = d;
});

const applied = async () =>
  (
    await sql<{
      name: string;
    }>`SELECT name FROM kysely_migration WHERE name LIKE '%_billing' ORDER BY name`.execute(database.db)
  ).rows.map((r) => r.name);

describe('a migration applied under its former name (0021_billing, renumbered 0031_billing)', () => {
  it('starts: the record is renamed, nothing runs again, and a second start changes nothing', async () => {
    // a database written between bee598b and d002e77 recorded billing's migration as 0021_billing,
    // applied before tenders' 0030 (which came later); what follows 0031 it never had (here it is
    // kept, applied later still, as it must not run twice)
    const at = (time: string, where: ReturnType<typeof sql>) =>
      sql`UPDATE kysely_migration SET timestamp = ${time} WHERE ${where}`.execute(database.db);
    await at('2026-11-01T00:00:00.000Z', sql`name < '0021'`);
    await at('2026-11-02T00:00:00.000Z', sql`name = '0031_billing'`);
    await at('2026-11-03T00:00:00.000Z', sql`name = '0030_tenders'`);
    await at('2026-11-04T00:00:00.000Z', sql`name > '0031_billing'`);
    await sql`UPDATE kysely_migration SET name = '0021_billing' WHERE name = '0031_billing'`.execute(
      database.db,
    );
    expect(await applied()).toEqual(['0021_billing']);
    expect(await migrate(database, MIGRATIONS)).toEqual([]);
    expect(await applied()).toEqual(['0031_billing']);
    expect(await migrate(database, MIGRATIONS)).toEqual([]);
    expect(await applied()).toEqual(['0031_billing']);
  });
});
