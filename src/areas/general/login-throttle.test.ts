import { describe, expect, it } from 'vitest';
import { withMigratedDatabase } from '../../../test/helpers/test-app.ts';
import type { Database } from '../../kernel/db/database.ts';
import { RateLimitedError } from '../../kernel/errors.ts';
import { addressKey, CheckGate, LoginBusyError, LoginThrottle } from './login-throttle.ts';

let database: Database;
withMigratedDatabase((d) => {
  database = d;
});

let run = 0;
/** A throttle over the test database with its own keys and a clock the test moves. */
function throttle(limits: { perAddress: number; perUser: number; windowSeconds?: number }) {
  const clock = { now: 1_000_000 };
  const prefix = `r${++run}-`;
  const t = new LoginThrottle(
    database,
    {
      maxFailuresPerAddress: limits.perAddress,
      maxFailuresPerUser: limits.perUser,
      windowSeconds: limits.windowSeconds ?? 60,
    },
    () => clock.now,
  );
  const admit = (address: string, name: string) => t.admit(`${prefix}${address}`, `${prefix}${name}`);
  const refused = async (address: string, name: string) => {
    const error = await admit(address, name).then(
      () => undefined,
      (e: unknown) => e,
    );
    return error instanceof RateLimitedError ? error : undefined;
  };
  return { t, clock, admit, refused };
}

describe('LoginThrottle', () => {
  it('refuses an address past its limit until the window ends, saying how long to wait', async () => {
    const { clock, admit, refused } = throttle({ perAddress: 3, perUser: 100 });
    for (let i = 0; i < 3; i++) await admit('a', `name${i}`);
    const error = await refused('a', 'other');
    expect(error?.code).toBe('TOO_MANY_FAILED_LOGINS');
    expect(error?.retryAfterSeconds).toBe(60);
    expect(await refused('b', 'other')).toBeUndefined();
    clock.now += 59_500;
    expect((await refused('a', 'other'))?.retryAfterSeconds).toBe(1);
    clock.now += 500;
    expect(await refused('a', 'other')).toBeUndefined();
  });

  it('refuses a user name past its limit from any address', async () => {
    const { refused } = throttle({ perAddress: 100, perUser: 2 });
    expect(await refused('a1', 'victim')).toBeUndefined();
    expect(await refused('a2', 'victim')).toBeUndefined();
    expect((await refused('a3', 'victim'))?.code).toBe('TOO_MANY_FAILED_LOGINS');
    expect(await refused('a3', 'someone-else')).toBeUndefined();
  });

  it('counts every concurrent attempt: at most the limit is admitted', async () => {
    const { admit } = throttle({ perAddress: 5, perUser: 100 });
    const outcomes = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => admit('a', `n${i}`)));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(5);
  });

  it('a refund takes back only its own attempt, never the failures of others', async () => {
    const { t, admit, refused } = throttle({ perAddress: 3, perUser: 100 });
    await admit('a', 'attacker-guess-1');
    await admit('a', 'attacker-guess-2');
    const honest = await admit('a', 'own-account');
    await t.refund(honest); // the honest login succeeded
    await t.refund(honest); // refunding twice changes nothing
    await admit('a', 'attacker-guess-3');
    expect((await refused('a', 'attacker-guess-4'))?.code).toBe('TOO_MANY_FAILED_LOGINS');
  });

  it('a refund from a past window does not lower the next window', async () => {
    const { t, clock, admit, refused } = throttle({ perAddress: 2, perUser: 100, windowSeconds: 10 });
    const old = await admit('a', 'x');
    clock.now += 10_000;
    await admit('a', 'y');
    await admit('a', 'z');
    await t.refund(old);
    expect((await refused('a', 'w'))?.code).toBe('TOO_MANY_FAILED_LOGINS');
  });

  it('a refusal by the user name is not charged to the address', async () => {
    const { admit, refused } = throttle({ perAddress: 2, perUser: 1 });
    await admit('a', 'victim');
    expect((await refused('a', 'victim'))?.code).toBe('TOO_MANY_FAILED_LOGINS');
    expect((await refused('a', 'victim'))?.code).toBe('TOO_MANY_FAILED_LOGINS');
    expect(await refused('a', 'someone')).toBeUndefined();
  });
});

/** A check that runs until the test lets it finish. */
function heldCheck() {
  let release: () => void = () => {};
  let started = false;
  const done = new Promise<void>((r) => {
    release = r;
  });
  return {
    run: async () => {
      started = true;
      await done;
      return 'checked';
    },
    release: () => release(),
    get started() {
      return started;
    },
  };
}

const settle = <T>(p: Promise<T>) =>
  p.then(
    (v) => ({ ok: true as const, v }),
    (e: unknown) => ({ ok: false as const, e }),
  );

describe('CheckGate', () => {
  it('runs at most the concurrent checks, queues a few, refuses the rest at once', async () => {
    const gate = new CheckGate({
      concurrentChecks: 2,
      queuedChecks: 3,
      checksPerAddress: 100,
      queueWaitMs: 60_000,
    });
    const checks = Array.from({ length: 10 }, heldCheck);
    const results = checks.map((c, i) => settle(gate.run(`10.0.0.${i}`, c.run)));
    await new Promise((r) => setImmediate(r));
    expect(gate.running).toBe(2);
    expect(gate.waiting).toBe(3);
    expect(checks.filter((c) => c.started)).toHaveLength(2);
    const refused = await Promise.all(results.slice(5));
    expect(refused.every((r) => !r.ok && r.e instanceof LoginBusyError)).toBe(true);
    for (const c of checks) c.release();
    const admitted = await Promise.all(results.slice(0, 5));
    expect(admitted.every((r) => r.ok && r.v === 'checked')).toBe(true);
    expect(gate.started).toBe(5);
    expect(gate.running + gate.waiting).toBe(0);
  });

  it('lets one address hold only its share of the places', async () => {
    const gate = new CheckGate({
      concurrentChecks: 3,
      queuedChecks: 8,
      checksPerAddress: 2,
      queueWaitMs: 60_000,
    });
    const checks = Array.from({ length: 4 }, heldCheck);
    const results = checks.map((c) => settle(gate.run('2001:db8:1:2::7', c.run)));
    const third = await results[2];
    expect(third?.ok === false && third.e instanceof LoginBusyError).toBe(true);
    // the same /64 is the same address
    const sameBlock = await settle(gate.run('2001:db8:1:2:ffff::1', async () => 'x'));
    expect(sameBlock.ok).toBe(false);
    expect((await settle(gate.run('2001:db8:1:3::7', async () => 'x'))).ok).toBe(true);
    for (const c of checks) c.release();
    await Promise.all(results);
  });

  it("runs another address's first check before the waiting further checks of a busy address", async () => {
    const gate = new CheckGate({
      concurrentChecks: 1,
      queuedChecks: 8,
      checksPerAddress: 8,
      queueWaitMs: 60_000,
    });
    const order: string[] = [];
    const busy = Array.from({ length: 3 }, heldCheck);
    const busyRuns = busy.map((c, i) =>
      gate.run('busy', async () => {
        order.push(`busy${i}`);
        return c.run();
      }),
    );
    const honest = gate.run('honest', async () => {
      order.push('honest');
      return 'ok';
    });
    for (const c of busy) c.release();
    await Promise.all([...busyRuns, honest]);
    expect(order).toEqual(['busy0', 'honest', 'busy1', 'busy2']);
  });

  it('gives up a check that waited too long, or whose client went away, without running it', async () => {
    const gate = new CheckGate({
      concurrentChecks: 1,
      queuedChecks: 5,
      checksPerAddress: 5,
      queueWaitMs: 50,
    });
    const running = heldCheck();
    const first = settle(gate.run('a', running.run));
    const late = heldCheck();
    const timedOut = await settle(gate.run('b', late.run));
    expect(timedOut.ok === false && timedOut.e instanceof LoginBusyError).toBe(true);
    expect(late.started).toBe(false);
    const client = new AbortController();
    const gone = heldCheck();
    const withdrawn = settle(gate.run('c', gone.run, client.signal));
    client.abort();
    const w = await withdrawn;
    expect(w.ok === false && w.e instanceof LoginBusyError).toBe(true);
    expect(gate.waiting).toBe(0);
    running.release();
    expect((await first).ok).toBe(true);
    expect(gone.started).toBe(false);
    expect(gate.started).toBe(1);
  });
});

describe('addressKey', () => {
  it('counts IPv4 as it is (also IPv4-mapped) and IPv6 by its /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:0:1::5')).toBe('2001:db8:0:1::/64');
    expect(addressKey('2001:0db8:0000:0001:abcd::9')).toBe('2001:db8:0:1::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });
});
