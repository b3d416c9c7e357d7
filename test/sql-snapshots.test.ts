import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  checkedInSnapshots,
  coverageProblems,
  drift,
  type FoundRepository,
  findRepositories,
  generateSnapshots,
  loadExamples,
  publicMethods,
} from '../scripts/sql-snapshots.ts';
import type { DB } from '../src/kernel/db/schema.ts';
import { ENGINE, PG_ADMIN_URL } from './helpers/test-app.ts';

// The checked-in SQL of every repository (sql/<engine>/) must be what the repositories run now:
// a change of SQL is reviewed in its own diff. The suite runs on both engines in CI, so both are
// checked.

describe('SQL snapshots', () => {
  it('every public method of every repository has an example call', async () => {
    const repositories = await findRepositories();
    expect(repositories.length).toBeGreaterThan(0);
    expect(coverageProblems(repositories, await loadExamples())).toEqual([]);
  });

  let generated: ReturnType<typeof generateSnapshots> | undefined;
  const run = () => {
    generated ??= generateSnapshots(ENGINE, PG_ADMIN_URL);
    return generated;
  };

  it(`sql/${ENGINE}/ holds the SQL the repositories run now`, async () => {
    const differences = drift((await run()).snapshots, checkedInSnapshots(ENGINE));
    expect(
      differences,
      `The SQL snapshots in sql/${ENGINE}/ are out of date: run npm run sql:snapshot` +
        `${ENGINE === 'postgres' ? ' with TV2_TEST_DATABASE_URL set (or --pg <url>)' : ''} and commit the result`,
    ).toEqual([]);
  });

  // Every list and feed page is an index range read whatever the table size: checked on the plan
  // (EXPLAIN), not on timings. SQLite plans without ANALYZE statistics here, as a new database does.
  it(`every list and feed query reads an index range, not a whole table (${ENGINE})`, async () => {
    const { plans } = await run();
    expect(plans.problems).toEqual([]);
    expect(plans.checked).toBeGreaterThanOrEqual(20);
  });
});

describe('the SQL snapshot guards', () => {
  class BasketRepository {
    readonly db: Kysely<DB>;

    constructor(db: Kysely<DB>) {
      this.db = db;
    }
    add() {
      return this.#check();
    }
    remove() {}
    #check() {
      return this.db !== undefined;
    }
  }
  const found: FoundRepository = {
    area: 'orders',
    file: 'src/areas/orders/basket-repository.ts',
    name: 'BasketRepository',
    repository: BasketRepository,
    methods: publicMethods(BasketRepository),
  };
  const examples = (calls: Record<string, () => void>) => [
    {
      area: 'orders',
      file: 'src/areas/orders/sql-examples.ts',
      examples: { repositories: [{ repository: BasketRepository, calls }] },
    },
  ];

  it('public methods are found, #private ones are not', () => {
    expect(found.methods).toEqual(['add', 'remove']);
  });

  it('refuse a public method without an example, an example of no method, a repository without examples', () => {
    expect(coverageProblems([found], examples({ add: () => {}, remove: () => {} }))).toEqual([]);
    expect(coverageProblems([found], examples({ add: () => {}, clear: () => {} }))).toEqual([
      'BasketRepository.remove (src/areas/orders/basket-repository.ts) has no example in src/areas/orders/sql-examples.ts',
      'src/areas/orders/sql-examples.ts has an example of BasketRepository.clear, which is no public method',
    ]);
    expect(coverageProblems([found], [])).toEqual([
      'BasketRepository (src/areas/orders/basket-repository.ts) has no examples: add them to src/areas/orders/sql-examples.ts',
    ]);
  });

  it('name every file that is missing, differs or is stale', () => {
    const now = new Map([
      ['sql/sqlite/a/a-repository.sql', 'select 1;\n'],
      ['sql/sqlite/b/b-repository.sql', 'select 2;\n'],
    ]);
    const old = new Map([
      ['sql/sqlite/a/a-repository.sql', 'select 1;\n'],
      ['sql/sqlite/b/b-repository.sql', 'select 3;\n'],
      ['sql/sqlite/c/c-repository.sql', 'select 4;\n'],
    ]);
    expect(drift(now, now)).toEqual([]);
    expect(drift(now, old)).toEqual([
      "sql/sqlite/b/b-repository.sql differs (line 1 is now 'select 2;', checked in 'select 3;')",
      'sql/sqlite/c/c-repository.sql is stale: no repository writes it any more',
    ]);
    expect(drift(old, now)).toContain('sql/sqlite/c/c-repository.sql is missing');
  });
});
