import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_USER, type Running, startApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { budget, tv2 } from './helpers/cli.ts';
import { freshDatabaseUrl } from './helpers/test-app.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(demo: boolean, url?: string): Promise<{ running: Running; url: string }> {
  let databaseUrl = url;
  if (!databaseUrl) {
    const fresh = await freshDatabaseUrl();
    cleanups.push(fresh.drop);
    databaseUrl = fresh.url;
  }
  const running = await startApp(loadConfig({}, { databaseUrl, demo, logLevel: 'silent' }), {
    logger: false,
  });
  return { running, url: databaseUrl };
}

const basic = (name: string, secret: string) =>
  `Basic ${Buffer.from(`${name}:${secret}`).toString('base64')}`;

describe('start-up', () => {
  it('loads the demo world and the demo user into an empty database', async () => {
    const { running } = await start(true);
    try {
      const token = await running.app.inject({
        method: 'GET',
        url: '/TV2/GetToken',
        headers: { authorization: basic(DEMO_USER.name, DEMO_USER.secret) },
      });
      expect(token.statusCode).toBe(200);
      const res = await running.app.inject({
        method: 'GET',
        url: '/TV2/Execute/APIPACK.B2B_GetAllArticles',
        query: { strlimit: '1000' },
        headers: { authorization: `Bearer ${token.json().GETTOKEN.TOKEN}` },
      });
      const body = res.json().B2BGETALLARTICLES;
      expect(body.ARTICLES.length).toBeGreaterThanOrEqual(200);
      expect(body.ARTICLES.filter((a: { IMAGES: unknown[] }) => a.IMAGES.length > 0).length).toBeGreaterThan(
        100,
      );
    } finally {
      await running.close();
    }
  });

  it('never creates the demo user on a production start, nor later on a database that has data', async () => {
    const { running, url } = await start(false);
    await running.services.general.auth.createUser({ name: 'ops', roles: ['ADMIN'] });
    await running.close();

    // a later start with the demo switched on finds a database in use and leaves it alone
    const again = await start(true, url);
    try {
      const users = await again.running.services.general.auth.listUsers();
      expect(users.map((u) => u.name)).toEqual(['ops']);
      const demo = await again.running.app.inject({
        method: 'GET',
        url: '/TV2/GetToken',
        headers: { authorization: basic('demo', 'demo') },
      });
      expect(demo.statusCode).toBe(401);
    } finally {
      await again.running.close();
    }
  });
});

describe('the command line', () => {
  const cli = (args: string[], databaseUrl: string) => tv2(args, { DATABASE_URL: databaseUrl });

  // eight CLI processes, one after another
  it('manages API users: add prints the secret once, list shows them, revoke ends their tokens', {
    timeout: budget(8),
  }, async () => {
    const fresh = await freshDatabaseUrl();
    cleanups.push(fresh.drop);
    expect((await cli(['migrate'], fresh.url)).stdout).toMatch(/applied: 0001_foundation/);
    expect((await cli(['migrate'], fresh.url)).stdout).toMatch(/up to date/);

    const added = await cli(['user', 'add', 'portal', '--roles', 'B2B', '--customer', '10001'], fresh.url);
    expect(added.code).toBe(0);
    const secret = /secret: (\S+)/.exec(added.stdout)?.[1];
    expect(secret?.length).toBeGreaterThanOrEqual(32);

    const listed = await cli(['user', 'list'], fresh.url);
    expect(listed.stdout).toMatch(/^portal\tB2B customer=10001\tactive$/m);
    expect(listed.stdout).not.toContain(secret);

    const { running } = await start(false, fresh.url);
    try {
      const token = await running.app.inject({
        method: 'GET',
        url: '/TV2/GetToken',
        headers: { authorization: basic('portal', secret!) },
      });
      expect(token.statusCode).toBe(200);
      expect((await cli(['user', 'revoke', 'portal'], fresh.url)).code).toBe(0);
      expect((await cli(['user', 'list'], fresh.url)).stdout).toMatch(
        /^portal\tB2B customer=10001\trevoked /m,
      );
      const again = await running.app.inject({
        method: 'GET',
        url: '/TV2/GetToken',
        headers: { authorization: basic('portal', secret!) },
      });
      expect(again.statusCode).toBe(401);
    } finally {
      await running.close();
    }

    const bad = await cli(['user', 'add', 'x', '--roles', 'KING'], fresh.url);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/unknown role/);
    expect((await cli(['user', 'add', 'portal', '--roles', 'B2C'], fresh.url)).code).toBe(1);
  });

  it('explains itself with --help', { timeout: budget(1) }, async () => {
    const help = await cli(['--help'], 'sqlite::memory:');
    expect(help.stdout).toMatch(/serve/);
    expect(help.stdout).toMatch(/import/);
    expect(help.stdout).toMatch(/user/);
  });
});
