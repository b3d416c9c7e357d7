import { CompiledQuery } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE, PG_ADMIN_URL } from '../../../test/helpers/test-app.ts';
import { type Database, openDatabase } from './database.ts';

/**
 * The PostgreSQL reader (pg-reader.ts, decision 48): the reads asked for in one turn go as one
 * pipeline. A pipeline's statements run on one connection in one implicit transaction, so they
 * share the backend and the transaction's start time; reads run alone do not.
 */
const POOL = 3;
let database: Database;

beforeAll(() => {
  if (ENGINE === 'postgres') database = openDatabase(PG_ADMIN_URL ?? '', { poolSize: POOL });
});
afterAll(async () => {
  await database?.close();
});

interface Seen {
  i: number;
  q: number;
  pid: number;
  tx: string;
}

const READ = `SELECT $1::int AS i, 100 / $2::int AS q, pg_backend_pid() AS pid, now()::text AS tx`;
const read = (i: number, divisor = 1) => CompiledQuery.raw(READ, [i, divisor]) as CompiledQuery<Seen>;

/** Runs the statement alone on every connection of the pool, so each has prepared and described it. */
async function preparedEverywhere(text: string, values: unknown[]) {
  for (let round = 0; round < 3; round++) {
    await Promise.all(
      Array.from({ length: POOL }, () =>
        database.db.executeQuery(CompiledQuery.raw(text, values)).catch(() => undefined),
      ),
    );
  }
}

describe.runIf(ENGINE === 'postgres')('the PostgreSQL reader (pipelines)', () => {
  it('answers the reads asked for in one turn in one pipeline, each with its own rows', async () => {
    await preparedEverywhere(READ, [0, 1]);
    const seen = await Promise.all(
      Array.from({ length: 12 }, (_, i) => database.reader.rows(read(i, i + 1))),
    );
    expect(seen.map((rows) => rows.map((r) => [r.i, r.q]))).toEqual(
      Array.from({ length: 12 }, (_, i) => [[i, Math.trunc(100 / (i + 1))]]),
    );
    // one connection, one transaction: one round trip
    expect(new Set(seen.map((rows) => rows[0]?.pid)).size).toBe(1);
    expect(new Set(seen.map((rows) => rows[0]?.tx)).size).toBe(1);
    // the short reads go the same way
    const short = await Promise.all([1, 2, 3].map((i) => database.reader.shortRows(read(i))));
    expect(new Set(short.map((rows) => rows[0]?.tx)).size).toBe(1);
  });

  it('refuses a read the server refused, and answers the others of its pipeline', async () => {
    await preparedEverywhere(READ, [0, 1]);
    const outcomes = await Promise.allSettled([1, 2, 0, 4, 5].map((d) => database.reader.rows(read(d, d))));
    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect((outcomes[2] as PromiseRejectedResult).reason).toBeInstanceOf(pg.DatabaseError);
    expect((outcomes[2] as PromiseRejectedResult).reason).toMatchObject({ code: '22012' });
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value[0]?.q : undefined))).toEqual([
      100,
      50,
      undefined,
      25,
      20,
    ]);
  });

  it("bounds a pipeline's reads by the statement timeout: the read cancelled fails alone, the rest run again", async () => {
    const timed = openDatabase(PG_ADMIN_URL ?? '', { poolSize: 2, statementTimeoutMs: 1000 });
    try {
      const SLOW = `SELECT $1::int AS i, pg_sleep($2::float8) IS NULL AS slept`;
      for (let round = 0; round < 3; round++) {
        await Promise.all([0, 1].map(() => timed.db.executeQuery(CompiledQuery.raw(SLOW, [0, 0]))));
      }
      const slow = (i: number, seconds: number) =>
        CompiledQuery.raw(SLOW, [i, seconds]) as CompiledQuery<{ i: number }>;
      const outcomes = await Promise.allSettled(
        [slow(1, 0), slow(2, 5), slow(3, 0)].map((q) => timed.reader.rows(q)),
      );
      expect(outcomes[0]?.status === 'fulfilled' && outcomes[0].value[0]?.i).toBe(1);
      expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ code: '57014' });
      expect(outcomes[2]?.status === 'fulfilled' && outcomes[2].value[0]?.i).toBe(3);
    } finally {
      await timed.close();
    }
  });

  it('refuses the read a connection ended by the server was running with its error, and runs the rest again', async () => {
    const SLEEP = `SELECT $1::int AS i, pg_sleep($2::float8) IS NULL AS slept, now()::text AS tx`;
    await preparedEverywhere(SLEEP, [0, 0]);
    const sleep = (i: number, seconds: number) =>
      CompiledQuery.raw(SLEEP, [i, seconds]) as CompiledQuery<{ i: number }>;
    const reads = Promise.allSettled(
      [sleep(1, 30), sleep(2, 0), sleep(3, 0)].map((q) => database.reader.rows(q)),
    );
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    try {
      // the pipeline's connection, found running the long read: ended as a crash or an admin would
      let ended = false;
      for (let tries = 0; tries < 500 && !ended; tries++) {
        const { rows } = await admin.query(
          `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
           WHERE state = 'active' AND query LIKE '%pg_sleep($2::float8)%' AND pid <> pg_backend_pid()`,
        );
        ended = rows.some((r: { ended: boolean }) => r.ended);
        if (!ended) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(ended).toBe(true);
    } finally {
      await admin.end();
    }
    const outcomes = await reads;
    expect(outcomes[0]?.status).toBe('rejected');
    // the server's FATAL answer, as a read run alone gets it (a 503: unavailable.ts)
    expect((outcomes[0] as PromiseRejectedResult).reason).toMatchObject({ code: '57P01' });
    expect(outcomes.slice(1).map((o) => (o.status === 'fulfilled' ? o.value[0]?.i : o.reason))).toEqual([
      2, 3,
    ]);
    // the pool goes on
    expect((await database.reader.rows(read(7)))[0]?.i).toBe(7);
  });
});
