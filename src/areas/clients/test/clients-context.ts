import { afterAll, beforeAll, expect } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';

/**
 * The shared set-up of the clients tests (profile-and-deletion, photos-and-card,
 * purchases-and-on-account, messages-and-actions): call it once at the top of a test file. It
 * registers the file's beforeAll/afterAll (a fresh app and a B2C token) and answers the app, the
 * token and the small helpers; `t` and `token` are there from beforeAll on.
 */
export function clientsContext() {
  let app: TestApp | undefined;
  let b2cToken = '';
  let emailCounter = 0;

  beforeAll(async () => {
    app = await startTestApp();
    b2cToken = await app.tokenFor(['B2C']);
  });
  afterAll(() => app?.close());

  const t = (): TestApp => {
    if (!app) throw new Error('the clients test app is there from beforeAll on');
    return app;
  };
  const freshEmail = () => `client${++emailCounter}.${Date.now()}@example.nl`;
  const post = (data: Record<string, unknown>) =>
    t().call('POST', 'B2C_PostClient', { token: b2cToken, body: { CLIENTDATA: data } });

  return {
    get t(): TestApp {
      return t();
    },
    get token(): string {
      return b2cToken;
    },
    freshEmail,
    post,
    async create(data: Record<string, unknown> = {}): Promise<number> {
      const res = await post({ EMAIL: freshEmail(), FIRSTNAME: 'Anna', LASTNAME: 'Jansen', ...data });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().B2CPOSTCLIENT.CLIENT;
    },
    async get(op: string, query: Record<string, string>) {
      const res = await t().call('GET', op, { token: b2cToken, query });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    },
  };
}
