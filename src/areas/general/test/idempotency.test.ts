import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budget } from '../../../../test/helpers/cli.ts';
import { startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { runInThreads, tally } from '../../../../test/helpers/threads.ts';
import { IdempotencyRepository } from '../idempotency-repository.ts';
import { IdempotencyService } from '../idempotency-service.ts';
import { hashToken } from '../secrets.ts';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await startTestApp();
  token = await t.tokenFor(['B2C']);
});
afterAll(() => t.close());

const client = (email: string) => ({
  CLIENTDATA: { EMAIL: email, FIRSTNAME: 'Eva', LASTNAME: 'Jansen', COUNTRY: 'NL', POSTALCODE: '1012 AB' },
});
const post = (body: unknown, key?: string, as = token) =>
  t.call('POST', 'B2C_PostClient', { token: as, body, headers: key ? { 'idempotency-key': key } : {} });

describe('Idempotency-Key on POST operations', () => {
  it('answers a retry with the first result instead of acting twice', async () => {
    const first = await post(client('retry@example.nl'), 'k-1');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await post(client('retry@example.nl'), 'k-1');
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    // without the key the same post is a second attempt to create, which the e-mail rule refuses
    expect((await post(client('retry@example.nl'))).statusCode).toBe(409);
  });

  it('refuses a key reused for a different request', async () => {
    await post(client('one@example.nl'), 'k-2');
    const other = await post(client('two@example.nl'), 'k-2');
    expect(other.statusCode).toBe(409);
    expect(other.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('keeps keys per API user', async () => {
    const other = await t.tokenFor(['B2C']);
    await post(client('mine@example.nl'), 'k-3');
    const theirs = await post(client('theirs@example.nl'), 'k-3', other);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
  });

  it('replays a refusal too, and lets concurrent retries act once', async () => {
    const bad = { CLIENTDATA: { EMAIL: 'not-an-address', FIRSTNAME: 'X', LASTNAME: 'Y' } };
    const first = await post(bad, 'k-4');
    expect(first.statusCode).toBe(400);
    const again = await post(bad, 'k-4');
    expect(again.statusCode).toBe(400);
    expect(again.headers['idempotent-replayed']).toBe('true');

    const burst = await Promise.all(Array.from({ length: 8 }, () => post(client('burst@example.nl'), 'k-5')));
    const created = burst.filter(
      (r) => r.statusCode === 200 && r.headers['idempotent-replayed'] === undefined,
    );
    expect(created).toHaveLength(1);
    for (const r of burst) {
      expect([200, 409]).toContain(r.statusCode);
      if (r.statusCode === 409) expect(r.json().code).toBe('IDEMPOTENCY_KEY_IN_USE');
    }
  });
});

/** The API user a token belongs to (its id is what keys are claimed under). */
async function userIdOf(bearer: string): Promise<number> {
  const row = await t.database.db
    .selectFrom('api_token')
    .select('user_id')
    .where('token_hash', '=', hashToken(bearer))
    .executeTakeFirstOrThrow();
  return Number(row.user_id);
}

/**
 * Claims `key` for `body` from a separate process, as the server does before running a request,
 * and kills that process with SIGKILL while the request "runs": the state `kill -9` leaves behind.
 */
async function claimAndKill9(bearer: string, key: string, body: unknown): Promise<void> {
  const child = spawn(
    process.execPath,
    [
      'test/helpers/idempotency-claimer.ts',
      t.databaseUrl,
      String(await userIdOf(bearer)),
      key,
      'B2C_PostClient',
      JSON.stringify(body),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = once(child, 'exit');
  let out = '';
  for await (const chunk of child.stdout) {
    out += chunk;
    if (out.includes('\n')) break;
  }
  expect(out.trim()).toBe('claimed');
  child.kill('SIGKILL');
  await exited;
}

async function pendingRow(bearer: string, key: string) {
  return t.database.db
    .selectFrom('idempotency_key')
    .selectAll()
    .where('user_id', '=', await userIdOf(bearer))
    .where('idempotency_key', '=', key)
    .executeTakeFirstOrThrow();
}

/** Makes a pending claim look like one taken on another machine whose lease has run out. */
async function expireLease(bearer: string, key: string): Promise<void> {
  await t.database.db
    .updateTable('idempotency_key')
    .set({ lease_until: new Date(Date.now() - 1000).toISOString(), claimed_by: 'other-machine:1:1' })
    .where('user_id', '=', await userIdOf(bearer))
    .where('idempotency_key', '=', key)
    .execute();
}

const clientsWithEmail = async (email: string) =>
  (await t.database.db.selectFrom('client').select('client_no').where('email', '=', email).execute()).length;

describe('a pending Idempotency-Key whose request is no longer running', () => {
  it('is taken over at once by a retry when the claiming process was killed (kill -9), and runs once', {
    timeout: budget(1),
  }, async () => {
    const body = client('killed@example.nl');
    await claimAndKill9(token, 'k-kill', body);
    expect((await pendingRow(token, 'k-kill')).state).toBe('pending');

    const retry = await post(body, 'k-kill');
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(retry.json().B2CPOSTCLIENT.CREATED).toBe(true);
    const again = await post(body, 'k-kill');
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(retry.json());
    expect(await clientsWithEmail('killed@example.nl')).toBe(1);
  });

  it('is taken over by a retry once its lease has run out (claimer on another machine)', {
    timeout: budget(1),
  }, async () => {
    const body = client('expired@example.nl');
    await claimAndKill9(token, 'k-expired', body);
    // as if claimed on another machine: its process cannot be checked, only its lease
    await t.database.db
      .updateTable('idempotency_key')
      .set({ claimed_by: 'other-machine:1:1' })
      .where('idempotency_key', '=', 'k-expired')
      .execute();
    const early = await post(body, 'k-expired');
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('IDEMPOTENCY_KEY_IN_USE');

    await expireLease(token, 'k-expired');
    const retry = await post(body, 'k-expired');
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect((await post(body, 'k-expired')).headers['idempotent-replayed']).toBe('true');
    expect(await clientsWithEmail('expired@example.nl')).toBe(1);
  });

  it('still answers 409 IDEMPOTENCY_KEY_IN_USE with Retry-After while its request runs (live process, live lease)', async () => {
    const body = client('running@example.nl');
    // claimed by this (running) process, as a request in progress here would hold it
    const claim = await t.services.general.idempotency.claim(
      await userIdOf(token),
      'k-live',
      IdempotencyService.hash('B2C_PostClient', body),
    );
    expect(claim.kind).toBe('run');
    const retry = await post(body, 'k-live');
    expect(retry.statusCode).toBe(409);
    expect(retry.json().code).toBe('IDEMPOTENCY_KEY_IN_USE');
    const retryAfter = Number(retry.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await clientsWithEmail('running@example.nl')).toBe(0);
  });

  it('follows the clock: held for the lease, then taken over; the late first request cannot overwrite the answer', async () => {
    let now = new Date('2030-01-01T12:00:00.000Z');
    const service = new IdempotencyService(t.database, { leaseSeconds: 60, now: () => now });
    const user = await userIdOf(token);
    const hash = IdempotencyService.hash('B2C_PostClient', { clock: 1 });
    const first = await service.claim(user, 'k-clock', hash);
    expect(first.kind).toBe('run');

    now = new Date('2030-01-01T12:00:59.500Z');
    const held = await service.claim(user, 'k-clock', hash).catch((e) => e);
    expect(held).toMatchObject({ code: 'IDEMPOTENCY_KEY_IN_USE', retryAfterSeconds: 1 });

    now = new Date('2030-01-01T12:01:00.500Z');
    const second = await service.claim(user, 'k-clock', hash);
    expect(second.kind).toBe('run');
    // the first request comes back late while the second runs: its claim is gone, it neither frees
    // the key (a server fault) nor keeps its answer
    if (first.kind !== 'run' || second.kind !== 'run') throw new Error('unreachable');
    await service.finish(user, 'k-clock', first.claimId, 500, 'application/json', '{}');
    expect(await service.claim(user, 'k-clock', hash).catch((e) => e.code)).toBe('IDEMPOTENCY_KEY_IN_USE');
    await service.finish(user, 'k-clock', first.claimId, 200, 'application/json', '{"from":"first"}');
    await service.finish(user, 'k-clock', second.claimId, 200, 'application/json', '{"from":"second"}');
    expect(await service.claim(user, 'k-clock', hash)).toMatchObject({
      kind: 'replay',
      body: '{"from":"second"}',
    });

    // two retries that both judged the same claim stale: the conditional UPDATE lets one take it
    const repo = new IdempotencyRepository(t.database.db);
    now = new Date('2030-01-01T12:10:00.000Z');
    const stale = await pendingClaimOf(user, 'k-clock-2', hash, service);
    const attempt = (claimId: string) =>
      repo.takeOver(
        user,
        'k-clock-2',
        stale,
        {
          requestHash: hash,
          at: now.toISOString(),
          leaseUntil: '2030-01-01T12:20:00.000Z',
          claimId,
          claimedBy: '-',
        },
        { now: now.toISOString(), legacyCreatedBefore: '2030-01-01T12:09:00.000Z' },
      );
    expect([await attempt('retry-a'), await attempt('retry-b')]).toEqual([true, false]);

    // a claim left by a version without leases counts as leased from when it was taken
    await t.database.db
      .insertInto('idempotency_key')
      .values({
        user_id: user,
        idempotency_key: 'k-legacy',
        request_hash: hash,
        state: 'pending',
        created_at: '2030-01-01T12:09:30.000Z',
        lease_until: null,
        claim_id: null,
        claimed_by: null,
      })
      .execute();
    expect(await service.claim(user, 'k-legacy', hash).catch((e) => e.code)).toBe('IDEMPOTENCY_KEY_IN_USE');
    now = new Date('2030-01-01T12:10:31.000Z');
    expect((await service.claim(user, 'k-legacy', hash)).kind).toBe('run');
  });
});

/** Claims `key` at the service's clock, lets its lease run out, and returns the claim's id. */
async function pendingClaimOf(user: number, key: string, hash: string, service: IdempotencyService) {
  expect((await service.claim(user, key, hash)).kind).toBe('run');
  await t.database.db
    .updateTable('idempotency_key')
    .set({ lease_until: '2000-01-01T00:00:00.000Z' })
    .where('user_id', '=', user)
    .where('idempotency_key', '=', key)
    .execute();
  const row = await t.database.db
    .selectFrom('idempotency_key')
    .select('claim_id')
    .where('user_id', '=', user)
    .where('idempotency_key', '=', key)
    .executeTakeFirstOrThrow();
  return row.claim_id;
}

const RETRY_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const { tsImport } = await import('tsx/esm/api');
  const { startApp } = await tsImport(workerData.appModule, workerData.appModule);
  const { loadConfig } = await tsImport(workerData.configModule, workerData.configModule);
  const running = await startApp(
    loadConfig({}, { databaseUrl: workerData.url, demo: false, logLevel: 'silent' }),
    { logger: false },
  );
  const once = () =>
    running.app
      .inject({
        method: 'POST',
        url: '/TV2/Execute/APIPACK.B2C_PostClient',
        headers: { authorization: 'Bearer ' + workerData.token, 'idempotency-key': workerData.key },
        payload: workerData.body,
      })
      .then((r) =>
        r.statusCode === 200
          ? r.headers['idempotent-replayed'] === 'true' ? 'replayed' : 'ran'
          : r.statusCode + ' ' + r.json().code,
      );
  // warm up (token verified and cached, statements prepared), so the retries below start together
  await running.app.inject({
    method: 'GET',
    url: '/TV2/Execute/APIPACK.B2C_GetAllShops',
    headers: { authorization: 'Bearer ' + workerData.token },
  });
  parentPort.once('message', async () => {
    const outcomes = await Promise.all(Array.from({ length: workerData.callers }, () => once().catch((e) => String(e))));
    await running.close();
    parentPort.postMessage(outcomes);
  });
  parentPort.postMessage('ready');
})().catch((e) => parentPort.postMessage(['worker failed: ' + e.stack]));
`;

// each test: the claimer process, then worker threads each starting the application
describe('concurrent retries of a stale key, on separate connections', { timeout: budget(2) }, () => {
  it.each([
    ['its claiming process was killed', 'k-race-kill', false],
    ['its lease ran out', 'k-race-lease', true],
  ])('take it over exactly once when %s', async (_case, key, byLease) => {
    const email = `${key}@example.nl`;
    const body = client(email);
    await claimAndKill9(token, key, body);
    if (byLease) await expireLease(token, key);
    const { outcomes } = await runInThreads(RETRY_WORKER, 4, {
      appModule: new URL('../../../app.ts', import.meta.url).href,
      configModule: new URL('../../../config.ts', import.meta.url).href,
      url: t.databaseUrl,
      token,
      key,
      body,
      callers: 3,
    });
    const counts = tally(outcomes);
    // exactly one retry ran the request; every other one was told to wait, or got its answer
    expect(counts.ran, JSON.stringify(counts)).toBe(1);
    for (const o of Object.keys(counts))
      expect(['ran', 'replayed', '409 IDEMPOTENCY_KEY_IN_USE']).toContain(o);
    expect(await clientsWithEmail(email)).toBe(1);
  });
});
