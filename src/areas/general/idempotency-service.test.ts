import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl } from '../../../test/helpers/test-app.ts';
import { MIGRATIONS } from '../../areas.ts';
import { type Database, migrate, openDatabase } from '../../kernel/db/database.ts';
import { refusedFields } from '../../kernel/refused-fields.ts';
import { IdempotencyRepository } from './idempotency-repository.ts';
import { type Claim, IdempotencyService } from './idempotency-service.ts';
import { formatOwner, ownIdentity } from './process-identity.ts';

// The service on its own, with a clock the test moves: what a retry with an Idempotency-Key gets.
// Through HTTP, across processes and under concurrent retries: test/idempotency.test.ts.

let database: Database;
let drop: () => Promise<void>;
let repo: IdempotencyRepository;

beforeAll(async () => {
  const fresh = await freshDatabaseUrl();
  drop = fresh.drop;
  database = openDatabase(fresh.url);
  await migrate(database, MIGRATIONS);
  repo = new IdempotencyRepository(database.db);
});
afterAll(async () => {
  await database.close();
  await drop();
});

const T0 = Date.parse('2030-01-01T12:00:00.000Z');
const SECOND = 1000;
const HOUR = 3_600_000;
const HASH = IdempotencyService.hash('B2C_PostClient', { EMAIL: 'a@example.nl' });
let nextUser = 1;

/** A service whose clock is `at` (ms), on its own user so tests do not meet. */
function setup(options: { leaseSeconds?: number } = {}) {
  const clock = { at: T0 };
  const service = new IdempotencyService(database, { ...options, now: () => new Date(clock.at) });
  return { clock, service, user: nextUser++ };
}

async function outcome(claim: Promise<Claim>): Promise<unknown> {
  try {
    return await claim;
  } catch (error) {
    return error;
  }
}

const inUse = (retryAfterSeconds: number) =>
  expect.objectContaining({ code: 'IDEMPOTENCY_KEY_IN_USE', retryAfterSeconds });

function claimIdOf(claim: Claim): string {
  if (claim.kind !== 'run') throw new Error(`expected a run, got ${JSON.stringify(claim)}`);
  return claim.claimId;
}

/** Stores a pending claim as another process would have left it. */
async function pendingClaim(
  user: number,
  key: string,
  fields: { at: number; lease?: number | null; by: string },
) {
  await database.db
    .insertInto('idempotency_key')
    .values({
      user_id: user,
      idempotency_key: key,
      request_hash: HASH,
      state: 'pending',
      created_at: new Date(fields.at).toISOString(),
      lease_until: fields.lease == null ? null : new Date(fields.lease).toISOString(),
      claim_id: fields.lease == null ? null : 'their-claim',
      claimed_by: fields.by,
    })
    .execute();
}

describe('the Idempotency-Key itself', () => {
  it('is 1 to 255 visible ASCII characters, refused otherwise naming the header', async () => {
    const { service, user } = setup();
    const refused = async (key: string) => {
      const error = await outcome(service.claim(user, key, HASH));
      return refusedFields(() => {
        if (error instanceof Error) throw error;
      });
    };
    for (const key of ['!', '~', 'a'.repeat(255), 'order-42/retry_1']) expect(await refused(key)).toEqual([]);
    for (const key of ['', 'a'.repeat(256), ' ab', 'ab ', 'a b', 'tab\t', 'caf\u00e9', '\x7f']) {
      expect(await refused(key), JSON.stringify(key)).toEqual(['Idempotency-Key']);
    }
    expect(await outcome(service.claim(user, '', HASH))).toMatchObject({
      errors: [{ name: 'Idempotency-Key', message: 'use 1 to 255 visible ASCII characters' }],
    });
  });
});

describe('IdempotencyService.hash', () => {
  it('binds a key to the operation and the body', () => {
    const hash = IdempotencyService.hash;
    expect(hash('op', { a: 1 })).toMatch(/^[0-9a-f]{64}$/);
    expect(hash('op', { a: 1 })).toBe(hash('op', { a: 1 }));
    expect(hash('op', { a: 1 })).not.toBe(hash('op', { a: 2 }));
    expect(hash('op', { a: 1 })).not.toBe(hash('other', { a: 1 }));
    expect(hash('op', { a: 1 })).not.toBe(hash('op', null));
    // operation and body are kept apart: "x1" + 2 is not "x" + 12
    expect(hash('x1', 2)).not.toBe(hash('x', 12));
    // no body is the JSON null body
    expect(hash('op', undefined)).toBe(hash('op', null));
    const { service } = setup();
    expect(service.requestHash('op', { a: 1 })).toBe(hash('op', { a: 1 }));
  });
});

describe('claim and finish', () => {
  it('runs the first request, holds the key while it runs, and replays the answer it kept', async () => {
    const { clock, service, user } = setup();
    const first = claimIdOf(await service.claim(user, 'k', HASH));
    expect(await outcome(service.claim(user, 'k', HASH))).toEqual(inUse(60));
    expect(await outcome(service.claim(user, 'k', HASH))).toMatchObject({
      message: 'A request with this Idempotency-Key is still running; retry later.',
    });
    clock.at += 10 * SECOND;
    await service.finish(user, 'k', first, 201, 'text/csv', 'a;b');
    expect(await service.claim(user, 'k', HASH)).toEqual({
      kind: 'replay',
      status: 201,
      type: 'text/csv',
      body: 'a;b',
    });
  });

  it('keeps a refusal (4xx) for retries, but frees the key after a server fault (5xx)', async () => {
    const { service, user } = setup();
    await service.finish(user, 'k4', claimIdOf(await service.claim(user, 'k4', HASH)), 499, 'a/b', '{}');
    expect(await service.claim(user, 'k4', HASH)).toMatchObject({ kind: 'replay', status: 499 });
    await service.finish(user, 'k5', claimIdOf(await service.claim(user, 'k5', HASH)), 500, 'a/b', '{}');
    const again = await service.claim(user, 'k5', HASH);
    expect(again.kind).toBe('run');
    expect(await repo.find(user, 'k5')).toMatchObject({ state: 'pending', response_status: null });
  });

  it('replays an answer stored without a type or body as JSON with an empty body', async () => {
    const { service, user } = setup();
    await service.finish(user, 'k', claimIdOf(await service.claim(user, 'k', HASH)), 204, 'x', 'y');
    await database.db
      .updateTable('idempotency_key')
      .set({ response_type: null, response_body: null })
      .where('user_id', '=', user)
      .execute();
    expect(await service.claim(user, 'k', HASH)).toEqual({
      kind: 'replay',
      status: 204,
      type: 'application/json',
      body: '',
    });
  });

  it('refuses the key for a different request, pending or done', async () => {
    const { service, user } = setup();
    const other = IdempotencyService.hash('B2C_PostClient', { EMAIL: 'b@example.nl' });
    const first = claimIdOf(await service.claim(user, 'k', HASH));
    const reused = expect.objectContaining({
      code: 'IDEMPOTENCY_KEY_REUSED',
      message: 'This Idempotency-Key was used for a different request.',
    });
    expect(await outcome(service.claim(user, 'k', other))).toEqual(reused);
    await service.finish(user, 'k', first, 200, 'application/json', '{}');
    expect(await outcome(service.claim(user, 'k', other))).toEqual(reused);
  });

  it('keeps keys per API user', async () => {
    const { service, user } = setup();
    claimIdOf(await service.claim(user, 'shared', HASH));
    claimIdOf(await service.claim(user + 1000, 'shared', HASH));
  });
});

describe('a pending claim', () => {
  it('is held for the lease (TV2_IDEMPOTENCY_LEASE_SECONDS) with Retry-After counting down, then taken over', async () => {
    const { clock, service, user } = setup({ leaseSeconds: 30 });
    const first = claimIdOf(await service.claim(user, 'k', HASH));
    expect(await outcome(service.claim(user, 'k', HASH))).toEqual(inUse(30));
    clock.at = T0 + 20_500;
    expect(await outcome(service.claim(user, 'k', HASH))).toEqual(inUse(10));
    clock.at = T0 + 29_999;
    expect(await outcome(service.claim(user, 'k', HASH))).toEqual(inUse(1));
    // the lease ends at T0 + 30 s: still held then, taken over just after
    clock.at = T0 + 30_000;
    expect(await outcome(service.claim(user, 'k', HASH))).toEqual(inUse(1));
    clock.at = T0 + 30_001;
    const second = claimIdOf(await service.claim(user, 'k', HASH));
    expect(second).not.toBe(first);
    expect(await repo.find(user, 'k')).toMatchObject({
      claim_id: second,
      created_at: new Date(T0 + 30_001).toISOString(),
      lease_until: new Date(T0 + 60_001).toISOString(),
      claimed_by: formatOwner(ownIdentity()),
    });
    // the second request is held in turn for a full lease
    expect(await outcome(service.claim(user, 'k', HASH))).toEqual(inUse(30));
  });

  it('of another machine waits for its lease; of a process gone from this machine is taken over at once', async () => {
    const { clock, service, user } = setup();
    await pendingClaim(user, 'remote', { at: T0, lease: T0 + 60_000, by: 'another-machine:1:1' });
    clock.at = T0 + 1000;
    expect(await outcome(service.claim(user, 'remote', HASH))).toEqual(inUse(59));

    const me = ownIdentity();
    if (!me) return; // not Linux: only the lease frees a claim
    await pendingClaim(user, 'dead', { at: T0, lease: T0 + 60_000, by: `${me.machine}:999999999:1` });
    expect((await service.claim(user, 'dead', HASH)).kind).toBe('run');
    // a claim of this very process is alive
    await pendingClaim(user, 'alive', { at: T0, lease: T0 + 60_000, by: formatOwner(me) });
    expect(await outcome(service.claim(user, 'alive', HASH))).toEqual(inUse(59));
  });

  it('is held until the lease its claimer recorded, also when this process has a shorter one', async () => {
    const { clock, service, user } = setup({ leaseSeconds: 60 });
    await pendingClaim(user, 'long', { at: T0, lease: T0 + 300_000, by: 'another-machine:1:1' });
    clock.at = T0 + 100_000;
    expect(await outcome(service.claim(user, 'long', HASH))).toEqual(inUse(200));
    clock.at = T0 + 300_001;
    expect((await service.claim(user, 'long', HASH)).kind).toBe('run');
  });

  it('from before leases counts as leased for one lease from when it was taken', async () => {
    const { clock, service, user } = setup({ leaseSeconds: 10 });
    await pendingClaim(user, 'legacy', { at: T0, lease: null, by: 'another-machine:1:1' });
    clock.at = T0 + 4000;
    expect(await outcome(service.claim(user, 'legacy', HASH))).toEqual(inUse(6));
    clock.at = T0 + 10_000;
    expect(await outcome(service.claim(user, 'legacy', HASH))).toEqual(inUse(1));
    clock.at = T0 + 10_001;
    expect((await service.claim(user, 'legacy', HASH)).kind).toBe('run');
  });
});

describe('keys are remembered for 24 hours', () => {
  it('replays until then, and runs the request afresh after', async () => {
    const { clock, service, user } = setup();
    await service.finish(user, 'k', claimIdOf(await service.claim(user, 'k', HASH)), 200, 'a/b', 'first');
    clock.at = T0 + 24 * HOUR - 30 * SECOND;
    // another key claimed: the periodic clean-up ran just now, before the key was old
    claimIdOf(await service.claim(user, 'other', HASH));
    clock.at = T0 + 24 * HOUR;
    expect(await service.claim(user, 'k', HASH)).toMatchObject({ kind: 'replay', body: 'first' });
    clock.at = T0 + 24 * HOUR + 1;
    expect((await service.claim(user, 'k', HASH)).kind).toBe('run');
  });

  it('forgets old keys as other keys are claimed, at most once a minute', async () => {
    const { clock, service, user } = setup();
    claimIdOf(await service.claim(user, 'old', HASH));
    clock.at = T0 + 2 * HOUR;
    claimIdOf(await service.claim(user, 'young', HASH));
    clock.at = T0 + 24 * HOUR + 1;
    claimIdOf(await service.claim(user, 'a', HASH));
    expect(await repo.find(user, 'old')).toBeUndefined();
    expect(await repo.find(user, 'young')).toBeDefined();
    // 'young' turns 24 hours old 2 hours later; the clean-up after it waits for a minute to pass
    clock.at = T0 + 26 * HOUR - 30 * SECOND;
    claimIdOf(await service.claim(user, 'b', HASH));
    clock.at = T0 + 26 * HOUR + 10 * SECOND;
    claimIdOf(await service.claim(user, 'c', HASH));
    expect(await repo.find(user, 'young')).toBeDefined();
    clock.at = T0 + 26 * HOUR + 30 * SECOND;
    claimIdOf(await service.claim(user, 'd', HASH));
    expect(await repo.find(user, 'young')).toBeUndefined();
    // a clock set back does not stop the clean-up for good
    await pendingClaim(user, 'ancient', { at: T0 - 48 * HOUR, lease: T0, by: '-' });
    clock.at = T0 + 25 * HOUR;
    claimIdOf(await service.claim(user, 'e', HASH));
    expect(await repo.find(user, 'ancient')).toBeUndefined();
  });
});
