import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE, startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import {
  expectAllInFlightAtOnce,
  PAUSED_CALL,
  type PausedOutcome,
  runInThreads,
  THREADS_TEST_TIMEOUT,
  tally,
} from '../../../../test/helpers/threads.ts';
import { openDatabase } from '../../../kernel/db/database.ts';
import { ClientRepository, uniqueRuleOf } from '../client-repository.ts';
import { ClientService } from '../client-service.ts';

/**
 * No duplicate clients and no double claims under concurrency: many callers at once, from several
 * threads with their own database connections (on SQLite several connections to one file, as
 * several processes would have; on PostgreSQL several pools).
 */

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const { tsImport } = await import('tsx/esm/api');
  const { openDatabase } = await tsImport(workerData.databaseModule, workerData.databaseModule);
  const { ClientService } = await tsImport(workerData.serviceModule, workerData.serviceModule);
  const { ClientMessageService } = await tsImport(workerData.messageModule, workerData.messageModule);
  const database = openDatabase(workerData.url, { poolSize: 5 });
  const clients = new ClientService(database);
  const clientMessages = new ClientMessageService(database);
  const job = workerData.job;
  const { threadId } = require('node:worker_threads');
  const once = (i) =>
    job.kind === 'claim'
      ? clientMessages.claimAction(job.clientNo, job.action).then(() => 'ok')
      : clients
          .saveClient({ email: job.distinct ? threadId + '.' + i + '.' + job.email : job.email, lastName: 'Race' })
          .then((r) => (r.created ? 'created' : 'updated'));
  parentPort.once('message', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: workerData.callers }, (_, i) => once(i).catch((e) => e.code ?? String(e))),
    );
    await database.close();
    parentPort.postMessage(outcomes);
  });
  parentPort.postMessage('ready');
})().catch((e) => parentPort.postMessage(['worker failed: ' + e.stack]));
`;

/**
 * One call per thread with nothing in front of the guard: no SCN lock (withoutScnLock), and every
 * thread waits at a barrier in front of the guarded insert until all have come (pauseBefore), so
 * all of them have run the service's checks before any of them writes.
 */
const UNLOCKED_WORKER = `
const { parentPort, workerData, threadId } = require('node:worker_threads');
${PAUSED_CALL}
(async () => {
  // One module graph for all (tsImport would give each import its own unit-of-work module).
  (await import('tsx/esm/api')).register();
  const { openDatabase } = await import(workerData.databaseModule);
  const { ClientService } = await import(workerData.serviceModule);
  const { ClientMessageService } = await import(workerData.messageModule);
  const { ThreadSync, pauseBefore, withoutScnLock } = await import(workerData.syncModule);
  const sync = new ThreadSync(workerData.sync, workerData.parties);
  const job = workerData.job;
  const table = job.kind === 'claim' ? 'client_action_claim' : 'client';
  const paused = pauseBefore(openDatabase(workerData.url, { poolSize: 2 }), 'insert', table, sync);
  const once = (db) =>
    job.kind === 'claim'
      ? new ClientMessageService(db).claimAction(job.clientNo, job.action)
      : new ClientService(db)
          .saveClient({ clientNo: job.firstClientNo + threadId, email: job.email, lastName: 'Race' }, { createWithNumber: true })
          .then((r) => (r.created ? 'created' : 'updated'));
  parentPort.once('message', async () => {
    const result = await pausedCall(paused, sync, () =>
      withoutScnLock(paused.database, workerData.scn, once).catch((e) => {
        // a ConflictError is answered 409; anything else the unique key throws would be a 500
        throw { code: e.kind === 'conflict' ? e.code : 'not a 409: ' + (e.code ?? e) };
      }),
    );
    await paused.database.close();
    parentPort.postMessage([result]);
  });
  parentPort.postMessage('ready');
})().catch((e) => parentPort.postMessage(['worker failed: ' + e.stack]));
`;

async function unlockedFromThreads(
  job: Job | { kind: 'create'; email: string; firstClientNo: number },
  threads: number,
) {
  const { value: scn } = await t.database.db
    .selectFrom('scn_counter')
    .select('value')
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
  return runInThreads<PausedOutcome>(UNLOCKED_WORKER, threads, {
    url: t.databaseUrl,
    job,
    scn: Number(scn),
    databaseModule: new URL('../../../kernel/db/database.ts', import.meta.url).href,
    serviceModule: new URL('../client-service.ts', import.meta.url).href,
    messageModule: new URL('../client-message-service.ts', import.meta.url).href,
  });
}

type Job =
  | { kind: 'claim'; clientNo: number; action: string }
  | { kind: 'create'; email: string; distinct?: boolean };

async function fromThreads(job: Job, threads: number, callersEach: number) {
  return runInThreads(WORKER, threads, {
    url: t.databaseUrl,
    job,
    callers: callersEach,
    databaseModule: new URL('../../../kernel/db/database.ts', import.meta.url).href,
    serviceModule: new URL('../client-service.ts', import.meta.url).href,
    messageModule: new URL('../client-message-service.ts', import.meta.url).href,
  });
}

describe(`concurrent client writes (${ENGINE})`, () => {
  it(
    'lets exactly one of 50 concurrent claims of one action succeed, from 5 threads',
    async () => {
      const { clientNo } = await t.services.clients.profiles.saveClient({
        email: 'claimer@example.nl',
        lastName: 'Claim',
      });
      await t.services.clients.messages.saveAction({
        code: 'RACE1',
        description: { LANGUAGE_2: 'Once only' },
        validFrom: '2020-01-01',
        validTo: '2099-12-31',
      });
      const { outcomes, ms } = await fromThreads({ kind: 'claim', clientNo, action: 'RACE1' }, 5, 10);
      console.log(
        `[client-concurrency] ${ENGINE}, 50 claims: ${JSON.stringify(tally(outcomes))} in ${ms.toFixed(0)} ms`,
      );
      expect(outcomes).toHaveLength(50);
      expect(tally(outcomes)).toEqual({ ok: 1, ACTION_ALREADY_CLAIMED: 49 });
      const actions = await t.services.clients.messages.actions(clientNo);
      expect(actions.filter((a) => a.ACTION === 'RACE1' && a.CLAIMED)).toHaveLength(1);
    },
    THREADS_TEST_TIMEOUT,
  );

  it(
    'holds a claim by its conflict clause alone: 4 claimers on separate connections, no SCN lock, all checked before any inserts',
    async () => {
      const { clientNo } = await t.services.clients.profiles.saveClient({
        email: 'unlocked.claimer@example.nl',
        lastName: 'Claim',
      });
      await t.services.clients.messages.saveAction({
        code: 'RACE2',
        description: { LANGUAGE_2: 'Once only' },
        validFrom: '2020-01-01',
        validTo: '2099-12-31',
      });
      const { outcomes } = await unlockedFromThreads({ kind: 'claim', clientNo, action: 'RACE2' }, 4);
      // The unique key stands behind a check-then-insert, but a caller stopped by it gets a 500.
      expect(tally(outcomes.map((o) => o.outcome))).toEqual({ ok: 1, ACTION_ALREADY_CLAIMED: 3 });
      expectAllInFlightAtOnce(outcomes);
      const actions = await t.services.clients.messages.actions(clientNo);
      expect(actions.filter((a) => a.ACTION === 'RACE2' && a.CLAIMED)).toHaveLength(1);
    },
    THREADS_TEST_TIMEOUT,
  );

  it(
    'maps the unique e-mail index to 409 EMAIL_TAKEN when the check cannot: 4 writers whose checks all passed, no SCN lock',
    async () => {
      // On SQLite the statements run outside a transaction here (BEGIN IMMEDIATE would let only one
      // writer check at a time); so, on both engines, every writer's e-mail check finds nobody and
      // only the unique index stops the second insert: its violation must come back as the 409.
      const email = 'Unlocked.Race@Example.nl';
      const { outcomes } = await unlockedFromThreads({ kind: 'create', email, firstClientNo: 700_000 }, 4);
      expect(tally(outcomes.map((o) => o.outcome))).toEqual({ created: 1, EMAIL_TAKEN: 3 });
      expectAllInFlightAtOnce(outcomes);
      const rows = await t.database.db
        .selectFrom('client')
        .select('client_no')
        .where('email_norm', '=', email.toLowerCase())
        .execute();
      expect(rows).toHaveLength(1);
    },
    THREADS_TEST_TIMEOUT,
  );

  it(
    'creates one client for 20 concurrent posts of the same new e-mail; the others get 409 EMAIL_TAKEN',
    async () => {
      const { outcomes, ms } = await fromThreads({ kind: 'create', email: 'Race@Example.nl' }, 4, 5);
      console.log(
        `[client-concurrency] ${ENGINE}, 20 creates: ${JSON.stringify(tally(outcomes))} in ${ms.toFixed(0)} ms`,
      );
      expect(tally(outcomes)).toEqual({ created: 1, EMAIL_TAKEN: 19 });
      const rows = await t.database.db
        .selectFrom('client')
        .select('client_no')
        .where('email_norm', '=', 'race@example.nl')
        .execute();
      expect(rows).toHaveLength(1);
    },
    THREADS_TEST_TIMEOUT,
  );

  it(
    'gives 120 concurrent new clients (other e-mails) 120 numbers, from 4 threads',
    async () => {
      // PostgreSQL: each one statement numbered by the sequence (decision 46); SQLite: the highest
      // number plus one under BEGIN IMMEDIATE
      const { outcomes, ms } = await fromThreads(
        { kind: 'create', email: 'many@example.nl', distinct: true },
        4,
        30,
      );
      console.log(`[client-concurrency] ${ENGINE}, 120 new clients: ${ms.toFixed(0)} ms`);
      expect(tally(outcomes)).toEqual({ created: 120 });
      const rows = await t.database.db
        .selectFrom('client')
        .select(['client_no', 'scn'])
        .where('email_norm', 'like', '%.many@example.nl')
        .execute();
      expect(rows).toHaveLength(120);
      expect(new Set(rows.map((r) => Number(r.client_no))).size).toBe(120);
      expect(rows.every((r) => Number(r.scn) > 0)).toBe(true);
    },
    THREADS_TEST_TIMEOUT,
  );

  it('does the same over HTTP: one 200 CREATED, the rest 409', async () => {
    const token = await t.tokenFor(['B2C']);
    const answers = await Promise.all(
      Array.from({ length: 15 }, () =>
        t.call('POST', 'B2C_PostClient', {
          token,
          body: { CLIENTDATA: { EMAIL: 'http.race@example.be', LASTNAME: 'Race' } },
        }),
      ),
    );
    const codes = tally(answers.map((a) => (a.statusCode === 200 ? 'created' : a.json().code)));
    expect(codes).toEqual({ created: 1, EMAIL_TAKEN: 14 });
  });

  it('stands behind the check with a unique index on the normalised e-mail', async () => {
    const repo = new ClientRepository(t.database.db);
    const { clientNo } = await t.services.clients.profiles.saveClient({
      email: 'index@example.nl',
      lastName: 'Index',
    });
    const stored = await repo.findClient(clientNo);
    if (!stored) throw new Error('missing');
    const error = await repo
      .insertClient({ ...stored, client_no: clientNo + 1_000_000, email: 'INDEX@example.nl' })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(uniqueRuleOf(error)).toBe('email');
  });

  // A writer whose e-mail check ran before a concurrent insert committed: only the index stops it.
  // (On SQLite writers hold the file's write lock for their whole transaction, so the check
  // always sees the other insert; there the index is reached only by writers that skip the check.)
  it.runIf(ENGINE === 'postgres')('maps the index violation of a lost race to 409 EMAIL_TAKEN', async () => {
    const repo = new ClientRepository(t.database.db);
    const { clientNo } = await t.services.clients.profiles.saveClient({
      email: 'template@example.nl',
      lastName: 'T',
    });
    const template = await repo.findClient(clientNo);
    if (!template) throw new Error('missing');
    const second = openDatabase(t.databaseUrl);
    try {
      let inserted!: () => void;
      const insertedNow = new Promise<void>((r) => (inserted = r));
      const first = t.database.db.transaction().execute(async (trx) => {
        await new ClientRepository(trx).insertClient({
          ...template,
          client_no: clientNo + 2_000_000,
          email: 'late@example.nl',
          email_norm: 'late@example.nl',
        });
        inserted();
        await new Promise((r) => setTimeout(r, 300));
      });
      await insertedNow;
      const outcome = new ClientService(second)
        .saveClient({ email: 'late@example.nl', lastName: 'Late' })
        .then(
          () => 'created',
          (e: { code?: string }) => e.code,
        );
      await first;
      expect(await outcome).toBe('EMAIL_TAKEN');
    } finally {
      await second.close();
    }
  });
});
