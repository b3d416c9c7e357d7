import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE, startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { runInThreads, tally } from '../../../../test/helpers/threads.ts';
import type { Config } from '../../../config.ts';

/**
 * GetToken's limits (docs/security.md): failed attempts are counted before the secret is checked,
 * per client address and per user name, in the database (so every API process shares them); a
 * success takes back only its own attempt; and only a few secret checks run or wait at once.
 */

const basic = (name: string, secret: string) =>
  `Basic ${Buffer.from(`${name}:${secret}`).toString('base64')}`;

function login(t: TestApp, name: string, secret: string, address: string): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'GET',
    url: '/TV2/GetToken',
    remoteAddress: address,
    headers: { authorization: basic(name, secret) },
  });
}

/** A status, and for a refusal its code and whether it says when to come back. */
function outcome(res: LightMyRequestResponse): string {
  if (res.statusCode === 200) return '200';
  const code = res.json().code as string;
  const retry = res.headers['retry-after'] ? '' : ' without Retry-After';
  return `${res.statusCode} ${code}${res.statusCode >= 429 ? retry : ''}`;
}

/**
 * Each thread runs a whole API app over its own connections to the one test database, as separate
 * processes would, and sends its guesses at once when told; it reports each answer's outcome.
 */
const WORKER = `
const { parentPort, workerData, threadId } = require('node:worker_threads');
(async () => {
  const { tsImport } = await import('tsx/esm/api');
  const { startApp } = await tsImport(workerData.appModule, workerData.appModule);
  const { loadConfig } = await tsImport(workerData.configModule, workerData.configModule);
  const running = await startApp(loadConfig({}, workerData.config), { logger: false });
  await running.app.ready();
  parentPort.once('message', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: workerData.guesses }, (_, i) => {
        const address = workerData.oneAddress ? '198.51.100.7' : '198.51.' + threadId + '.' + i;
        return running.app
          .inject({
            method: 'GET',
            url: '/TV2/GetToken',
            remoteAddress: address,
            headers: { authorization: 'Basic ' + Buffer.from(workerData.name + ':wrong-' + i).toString('base64') },
          })
          .then((r) => r.statusCode === 401 ? '401' : r.statusCode + ' ' + r.json().code + (r.headers['retry-after'] ? '' : ' without Retry-After'));
      }),
    );
    await running.close();
    parentPort.postMessage(outcomes);
  });
  parentPort.postMessage('ready');
})().catch((e) => parentPort.postMessage(['worker failed: ' + e.stack]));
`;

function guessFromThreads(
  t: TestApp,
  config: Partial<Config>,
  options: { threads: number; guessesEach: number; name: string; oneAddress: boolean },
) {
  return runInThreads(WORKER, options.threads, {
    appModule: new URL('../../../app.ts', import.meta.url).href,
    configModule: new URL('../../../config.ts', import.meta.url).href,
    config: { databaseUrl: t.databaseUrl, demo: false, ...config },
    guesses: options.guessesEach,
    name: options.name,
    oneAddress: options.oneAddress,
  });
}

/** Room for every check at once, so that only the throttle decides. */
const WIDE_GATE: Partial<Config> = {
  loginConcurrentChecks: 4,
  loginQueue: 200,
  loginChecksPerAddress: 200,
  loginQueueWaitMs: 600_000,
};

describe(`failed GetToken attempts across API processes (${ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    await t.services.general.auth.createUser({ name: 'victim', roles: ['B2B'] });
  });
  afterAll(() => t.close());

  it('60 concurrent wrong guesses from one address, over three app instances: exactly 10 reach a secret check', async () => {
    const config = { ...WIDE_GATE, loginMaxFailures: 10, loginMaxFailuresPerUser: 1000 };
    const { outcomes } = await guessFromThreads(t, config, {
      threads: 3,
      guessesEach: 20,
      name: 'victim',
      oneAddress: true,
    });
    console.log(`[login-limit] ${ENGINE}, one address, 3 apps x 20: ${JSON.stringify(tally(outcomes))}`);
    expect(tally(outcomes)).toEqual({ '401': 10, '429 TOO_MANY_FAILED_LOGINS': 50 });
  }, 120_000);

  it('60 concurrent wrong guesses for one user from 60 addresses, over three app instances: exactly 10 reach a check', async () => {
    const config = { ...WIDE_GATE, loginMaxFailures: 1000, loginMaxFailuresPerUser: 10 };
    const { outcomes } = await guessFromThreads(t, config, {
      threads: 3,
      guessesEach: 20,
      name: 'nobody-by-this-name',
      oneAddress: false,
    });
    expect(tally(outcomes)).toEqual({ '401': 10, '429 TOO_MANY_FAILED_LOGINS': 50 });
  }, 120_000);
});

describe(`a success clears nobody's failures (${ENGINE})`, () => {
  let t: TestApp;
  let victim: string;
  let mallory: string;
  beforeAll(async () => {
    t = await startTestApp({ loginMaxFailures: 10, loginMaxFailuresPerUser: 6 });
    victim = (await t.services.general.auth.createUser({ name: 'victim', roles: ['B2B'] })).secret;
    mallory = (await t.services.general.auth.createUser({ name: 'mallory', roles: ['B2C'] })).secret;
  });
  afterAll(() => t.close());

  it('a valid login between every nine guesses does not reset the count of the address', async () => {
    const address = '203.0.113.9';
    const guesses: string[] = [];
    const own: string[] = [];
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 9; i++) {
        // a new name each time, so only the address's count can stop the guesses
        guesses.push(outcome(await login(t, `guess-${round}-${i}`, 'wrong', address)));
      }
      own.push(outcome(await login(t, 'mallory', mallory, address)));
    }
    expect(tally(guesses)).toEqual({ '401 INVALID_CREDENTIALS': 10, '429 TOO_MANY_FAILED_LOGINS': 17 });
    // The first own login came after 9 failures and passed; the address is blocked after that.
    expect(own).toEqual(['200', '429 TOO_MANY_FAILED_LOGINS', '429 TOO_MANY_FAILED_LOGINS']);
    // another address is not affected
    expect(outcome(await login(t, 'mallory', mallory, '203.0.113.10'))).toBe('200');
  });

  it("the user's own success does not clear the guesses on its name, and honest logins are never counted", async () => {
    for (let i = 0; i < 20; i++) expect(outcome(await login(t, 'victim', victim, '192.0.2.1'))).toBe('200');
    const guess = (i: number) => login(t, 'victim', 'wrong', `192.0.2.${100 + i}`).then(outcome);
    for (let i = 0; i < 4; i++) expect(await guess(i)).toBe('401 INVALID_CREDENTIALS');
    expect(outcome(await login(t, 'victim', victim, '192.0.2.1'))).toBe('200');
    for (let i = 4; i < 6; i++) expect(await guess(i)).toBe('401 INVALID_CREDENTIALS');
    expect(await guess(6)).toBe('429 TOO_MANY_FAILED_LOGINS');
    expect(outcome(await login(t, 'victim', victim, '192.0.2.1'))).toBe('429 TOO_MANY_FAILED_LOGINS');
  });
});

describe(`concurrent secret checks are bounded (${ENGINE})`, () => {
  let t: TestApp;
  let secret: string;
  let bearer: string;
  beforeAll(async () => {
    // the defaults: 2 checks run, 8 wait, 4 places per address
    t = await startTestApp();
    secret = (await t.services.general.auth.createUser({ name: 'honest', roles: ['B2B'] })).secret;
    bearer = await t.tokenFor(['B2B']);
  });
  afterAll(() => t.close());

  it('100 concurrent wrong guesses from 100 addresses: checks are bounded, the rest get 503 at once; the API answers meanwhile', async () => {
    const guard = t.services.general.loginGuard;
    const before = guard.stats();
    // Watch the gate on every turn of the event loop while the guesses are under way.
    let sampling = true;
    let maxRunning = 0;
    let maxQueued = 0;
    const sample = () => {
      const now = guard.stats();
      maxRunning = Math.max(maxRunning, now.checksRunning);
      maxQueued = Math.max(maxQueued, now.checksQueued);
      if (sampling) setImmediate(sample);
    };
    sample();
    const guesses = Array.from({ length: 100 }, (_, i) =>
      login(t, `name-${i}`, 'wrong', `198.18.0.${i + 1}`).then(outcome),
    );
    const api = await t.call('GET', 'GetSizeTables', { token: bearer });
    const outcomes = await Promise.all(guesses);
    sampling = false;
    const after = guard.stats();
    expect(api.statusCode).toBe(200);
    const counts = tally(outcomes);
    console.log(
      `[login-limit] ${ENGINE}, 100 addresses: ${JSON.stringify(counts)}; at most ${maxRunning} running, ${maxQueued} waiting`,
    );
    const checked = counts['401 INVALID_CREDENTIALS'] ?? 0;
    expect(checked + (counts['503 LOGIN_BUSY'] ?? 0)).toBe(100);
    expect(maxRunning).toBeLessThanOrEqual(2);
    expect(maxQueued).toBeLessThanOrEqual(8);
    expect(after.checksStarted - before.checksStarted).toBe(checked);
    expect(after.refusedBusy - before.refusedBusy).toBe(100 - checked);
    // 2 running + 8 waiting take 10; a guess arriving after the first check ended could take a freed
    // place, hence the margin (the guesses all arrive within one check's time on an idle machine).
    expect(checked).toBeLessThanOrEqual(20);
    expect(after.checksRunning + after.checksQueued).toBe(0);
    // a 503 is not counted as a failure: the honest user logs in at once afterwards
    expect(outcome(await login(t, 'honest', secret, '198.18.0.1'))).toBe('200');
  }, 120_000);

  it('100 concurrent wrong guesses from one address take at most 4 places; an honest login from elsewhere gets one', async () => {
    const before = t.services.general.loginGuard.stats();
    const guesses = Array.from({ length: 100 }, (_, i) =>
      login(t, `one-address-${i}`, 'wrong', '198.18.1.1').then(outcome),
    );
    const honest = login(t, 'honest', secret, '198.18.2.2').then(outcome);
    const outcomes = await Promise.all(guesses);
    expect(await honest).toBe('200');
    const counts = tally(outcomes);
    console.log(`[login-limit] ${ENGINE}, one address: ${JSON.stringify(counts)}`);
    // the address's limit of failures holds whatever the timing; its 4 places make it far fewer
    expect(counts['401 INVALID_CREDENTIALS']).toBeLessThanOrEqual(10);
    expect(
      (counts['429 TOO_MANY_FAILED_LOGINS'] ?? 0) + (counts['503 LOGIN_BUSY'] ?? 0),
    ).toBeGreaterThanOrEqual(90);
    const started = t.services.general.loginGuard.stats().checksStarted - before.checksStarted;
    expect(started).toBe((counts['401 INVALID_CREDENTIALS'] ?? 0) + 1);
  });
});
