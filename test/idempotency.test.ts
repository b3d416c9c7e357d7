import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

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
