import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { budget, PROCESS_BUDGET_MS } from './helpers/cli.ts';
import {
  canConnect,
  isAlive,
  type ServerProcess,
  send,
  startServerProcess,
  startSlowUpload,
} from './helpers/operability-server.ts';
import { ENGINE, freshDatabaseUrl } from './helpers/test-app.ts';

/**
 * Graceful shutdown of a real `tv2 serve` process (SIGTERM), on the engine under test. Each test
 * has the budget of two processes: the server's start (with the demo data), then its shutdown.
 */

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const basic = (name: string, secret: string) =>
  `Basic ${Buffer.from(`${name}:${secret}`).toString('base64')}`;

async function serveDemo(env: Record<string, string> = {}): Promise<{ server: ServerProcess; url: string }> {
  const fresh = await freshDatabaseUrl();
  cleanups.push(fresh.drop);
  const server = await startServerProcess(process.execPath, ['bin/tv2.js', 'serve', '--demo'], {
    DATABASE_URL: fresh.url,
    ...env,
  });
  cleanups.push(() => {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  });
  return { server, url: fresh.url };
}

async function tokenOf(port: number): Promise<string> {
  const res = await send(port, 'GET', '/TV2/GetToken', { authorization: basic('demo', 'demo') }).answer;
  expect(res.status).toBe(200);
  return JSON.parse(res.body).GETTOKEN.TOKEN as string;
}

const IN_FLIGHT = 24;

describe(`graceful shutdown (${ENGINE})`, { timeout: budget(2) }, () => {
  it('answers every request already received, refuses new connections, closes the database and exits 0', async () => {
    const { server, url } = await serveDemo();
    const token = await tokenOf(server.port);
    const auth = { authorization: `Bearer ${token}` };
    const sizeTable = (code: string) => JSON.stringify({ SIZETABLE: code, SIZES: ['S', 'M'] });
    const json = { ...auth, 'content-type': 'application/json' };
    // the normal answer of the write that will be interrupted, for comparison
    const normal = await send(server.port, 'PUT', '/TV2/Admin/sizetables/NORMAL', json, sizeTable('NORMAL'))
      .answer;
    expect(normal.status).toBeLessThan(300);

    // a write whose body is still arriving when the signal comes
    const slow = await startSlowUpload(
      server.port,
      'PUT',
      '/TV2/Admin/sizetables/SLOW',
      json,
      sizeTable('SLOW'),
    );
    // N large pages, each on a connection of its own, all sent before the signal: half while the
    // server is idle, half once it is busy answering the first half (those wait in the kernel's
    // queues until the server's event loop is free again, as under real load)
    const page = () =>
      send(server.port, 'GET', '/TV2/Execute/APIPACK.B2B_GetAllArticles?strlimit=1000', auth);
    const first = Array.from({ length: IN_FLIGHT / 2 }, page);
    await Promise.race(first.map((p) => p.answer));
    const second = Array.from({ length: IN_FLIGHT / 2 }, page);
    await Promise.all(second.map((p) => p.sent));
    server.child.kill('SIGTERM');
    const pages = [...first, ...second];

    await server.waitForLog(/no longer accepting connections/);
    expect(await canConnect(server.port)).toBe(false);
    slow.finish();

    const answers = await Promise.all(
      pages.map((p) => p.answer.catch((e: Error) => ({ status: 0, body: e.message }))),
    );
    const completed = answers.filter(
      (a) => a.status === 200 && JSON.parse(a.body).B2BGETALLARTICLES.ARTICLES.length > 0,
    );
    console.log(
      `shutdown under load (${ENGINE}): ${completed.length} of ${IN_FLIGHT} in-flight requests completed`,
    );
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    expect(completed.length).toBe(IN_FLIGHT);
    expect(await slow.answer).toMatch(new RegExp(`^HTTP/1\\.1 ${normal.status} `));

    expect(await server.exited).toBe(0);
    expect(server.lines.some((l) => l.msg === 'database closed')).toBe(true);
    // SQLite removes the write-ahead log when the last connection closes cleanly
    if (ENGINE === 'sqlite') expect(existsSync(`${url.replace(/^sqlite:/, '')}-wal`)).toBe(false);
    expect(server.stderr()).toBe('');
  });

  it('gives up at the shutdown deadline when a request never finishes, and exits 1', async () => {
    const { server } = await serveDemo({ TV2_SHUTDOWN_TIMEOUT_SECONDS: '1' });
    const token = await tokenOf(server.port);
    const never = await startSlowUpload(
      server.port,
      'PUT',
      '/TV2/Admin/sizetables/NEVER',
      { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      JSON.stringify({ SIZETABLE: 'NEVER', SIZES: ['S'] }),
    );
    cleanups.push(() => {
      never.socket.destroy();
    });
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(1);
    expect(server.lines.some((l) => /shutdown deadline/.test(String(l.msg)))).toBe(true);
    // the upload was still unanswered when the process gave up
    expect(await never.answer).toBe('');
  });
});

describe('npm start', { timeout: budget(2) }, () => {
  it('passes SIGTERM on to the server: it shuts down and nothing keeps running', async () => {
    const fresh = await freshDatabaseUrl();
    cleanups.push(fresh.drop);
    const npm = await startServerProcess('npm', ['start', '--silent'], {
      DATABASE_URL: fresh.url,
      TV2_DEMO: '0',
    });
    const serverPid = Number(npm.lines[0]?.pid);
    cleanups.push(() => {
      if (isAlive(serverPid)) process.kill(serverPid, 'SIGKILL');
    });
    expect(serverPid).toBeGreaterThan(0);
    expect(await canConnect(npm.port)).toBe(true);

    npm.child.kill('SIGTERM');
    const deadline = Date.now() + PROCESS_BUDGET_MS;
    while (isAlive(serverPid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    // The server process is gone, so its listening socket is closed with it. (Whether the port
    // still accepts connections is not asked: another test's server may have been given the
    // freed port in the meantime.)
    expect(isAlive(serverPid)).toBe(false);
    await npm.exited;
    expect(
      npm.lines.some((l) => l.msg === 'database closed'),
      JSON.stringify(npm.lines.map((l) => l.msg)) + npm.stderr(),
    ).toBe(true);
  });
});
