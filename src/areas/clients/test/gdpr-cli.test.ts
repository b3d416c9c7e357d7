import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budget, tv2 } from '../../../../test/helpers/cli.ts';
import { startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('tv2 anonymise-due', () => {
  it('erases clients marked for deletion past the grace period and revokes the users confined to them', {
    timeout: budget(1),
  }, async () => {
    const due = await t.services.clients.profiles.saveClient({
      email: 'leaving@example.nl',
      lastName: 'Bakker',
      country: 'NL',
    });
    const recent = await t.services.clients.profiles.saveClient({
      email: 'staying@example.nl',
      lastName: 'Visser',
      country: 'NL',
    });
    await t.services.clients.profiles.setMarkedForDeletion(due.clientNo, true);
    await t.services.clients.profiles.setMarkedForDeletion(recent.clientNo, true);
    // the first was marked 31 days ago
    await t.database.db
      .updateTable('client')
      .set({ marked_at: new Date(Date.now() - 31 * 86_400_000).toISOString() })
      .where('client_no', '=', due.clientNo)
      .execute();
    const appToken = await t.tokenFor(['B2C'], { clientNo: due.clientNo });

    const run = await tv2(['anonymise-due'], { DATABASE_URL: t.databaseUrl });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/anonymised 1 client\(s\); revoked users user\d+_/);

    const admin = await t.tokenFor(['B2C']);
    const erased = await t.call('GET', 'B2C_GetClient', {
      token: admin,
      query: { strclient: String(due.clientNo) },
    });
    expect(JSON.stringify(erased.json())).not.toMatch(/leaving@example\.nl|Bakker/);
    const kept = await t.call('GET', 'B2C_GetClient', {
      token: admin,
      query: { strclient: String(recent.clientNo) },
    });
    expect(kept.json().B2CGETCLIENT.CLIENTS[0].EMAIL).toBe('staying@example.nl');
    // the CLI ran in another process: this one trusts a verified token for a few seconds at most
    const fresh = await startTestAppSharing(t.databaseUrl);
    try {
      const denied = await fresh.app.inject({
        method: 'GET',
        url: '/TV2/Execute/APIPACK.B2C_GetClient',
        headers: { authorization: `Bearer ${appToken}` },
      });
      expect(denied.statusCode).toBe(401);
      expect(denied.json().code).toBe('TOKEN_REVOKED');
    } finally {
      await fresh.close();
    }
  });
});

async function startTestAppSharing(databaseUrl: string) {
  const { loadConfig } = await import('../../../config.ts');
  const { startApp } = await import('../../../app.ts');
  return startApp(loadConfig({}, { databaseUrl, demo: false, logLevel: 'silent' }), { logger: false });
}
