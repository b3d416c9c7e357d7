import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINE, PG_ADMIN_URL } from '../../../test/helpers/test-app.ts';
import { NamedQuery } from './pg-named-query.ts';

let clients: pg.Client[] = [];

async function client(): Promise<{ client: pg.Client; descriptions: () => number }> {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL });
  await c.connect();
  clients.push(c);
  let described = 0;
  (c as unknown as { connection: NodeJS.EventEmitter }).connection.on('rowDescription', () => {
    described += 1;
  });
  return { client: c, descriptions: () => described };
}

function run(c: pg.Client, name: string, text: string, values: unknown[]): Promise<pg.QueryResult> {
  return new Promise((resolve, reject) => {
    c.query(
      new NamedQuery(name, text, values, (error, result) =>
        error ? reject(error) : resolve(result as pg.QueryResult),
      ) as unknown as pg.Submittable,
    );
  });
}

beforeEach(() => {
  clients = [];
});
afterEach(async () => {
  for (const c of clients) await c.end();
});

describe.runIf(ENGINE === 'postgres')('a named statement described once per connection (PostgreSQL)', () => {
  const TEXT = `SELECT $1::int AS n, $2::text AS t, $1::int > 1 AS big, NULL::int AS none, 'x' AS n2`;

  it('asks for the rows’ shape on the first run only, and every run gives the same rows as pg', async () => {
    const { client: c, descriptions } = await client();
    const answers = [];
    for (const [n, t] of [
      [1, 'one'],
      [2, null],
      [3, 'drie'],
    ]) {
      answers.push((await run(c, 'nq_1', TEXT, [n, t])).rows);
    }
    expect(answers).toEqual([
      [{ n: 1, t: 'one', big: false, none: null, n2: 'x' }],
      [{ n: 2, t: null, big: true, none: null, n2: 'x' }],
      [{ n: 3, t: 'drie', big: true, none: null, n2: 'x' }],
    ]);
    expect(descriptions()).toBe(1);
    // pg's own query of the same text gives the same row
    expect((await c.query(TEXT, [3, 'drie'])).rows).toEqual(answers[2]);
    // another connection describes it for itself
    const other = await client();
    expect((await run(other.client, 'nq_1', TEXT, [4, 'vier'])).rows).toEqual([
      { n: 4, t: 'vier', big: true, none: null, n2: 'x' },
    ]);
    expect(other.descriptions()).toBe(1);
  });

  it('gives many rows, none, and a repeated column name its last value, as pg does', async () => {
    const { client: c } = await client();
    const text = 'SELECT g AS a, g * 2 AS a, g AS b FROM generate_series(1, $1::int) AS g';
    expect((await run(c, 'nq_2', text, [0])).rows).toEqual([]);
    const rows = (await run(c, 'nq_2', text, [3])).rows;
    expect(rows).toEqual((await c.query(text, [3])).rows);
    expect(rows).toEqual([
      { a: 2, b: 1 },
      { a: 4, b: 2 },
      { a: 6, b: 3 },
    ]);
    expect((await run(c, 'nq_2', text, [2])).rowCount).toBe(2);
  });

  it('refuses a later run that fails, and the connection goes on', async () => {
    const { client: c } = await client();
    const text = 'SELECT 10 / $1::int AS q';
    expect((await run(c, 'nq_3', text, [2])).rows).toEqual([{ q: 5 }]);
    await expect(run(c, 'nq_3', text, [0])).rejects.toMatchObject({ code: '22012' });
    expect((await run(c, 'nq_3', text, [5])).rows).toEqual([{ q: 2 }]);
  });

  it('never reads rows by an old shape: a statement whose columns changed is refused', async () => {
    const { client: c } = await client();
    await c.query('CREATE TEMP TABLE nq_t (a int)');
    await c.query('INSERT INTO nq_t VALUES (1)');
    const text = 'SELECT * FROM nq_t WHERE a >= $1::int';
    expect((await run(c, 'nq_4', text, [0])).rows).toEqual([{ a: 1 }]);
    await c.query(`ALTER TABLE nq_t ADD COLUMN b text DEFAULT 'x'`);
    await expect(run(c, 'nq_4', text, [0])).rejects.toMatchObject({ code: '0A000' });
  });
});
