import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { budget } from './helpers/cli.ts';
import { startServerProcess } from './helpers/operability-server.ts';
import { ENGINE, freshDatabaseUrl } from './helpers/test-app.ts';

/**
 * A start loads no package it does not need to answer (decision 53): sharp with libvips and
 * file-type (image uploads), xmlbuilder2 (UBL documents) and pngjs (demo pictures) load on their
 * first use, not at start. Read off the modules a real `tv2 serve` process loads up to its first
 * answers. That they work once loaded is the upload, photo and UBL tests' part.
 */

const LAZY = ['sharp', 'file-type', 'xmlbuilder2', 'pngjs'];

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe(`the packages a start loads (${ENGINE})`, { timeout: budget(1) }, () => {
  it('loads no image, XML or PNG package before one is used', async () => {
    const fresh = await freshDatabaseUrl();
    cleanups.push(fresh.drop);
    const log = join(tmpdir(), `tv2-modules-${randomBytes(4).toString('hex')}.txt`);
    cleanups.push(() => rmSync(log, { force: true }));
    const server = await startServerProcess(
      process.execPath,
      ['--import', './test/helpers/module-log.ts', 'bin/tv2.js', 'serve'],
      { DATABASE_URL: fresh.url, TV2_DEMO: '0', TV2_TEST_MODULE_LOG: log },
    );
    cleanups.push(async () => {
      server.child.kill('SIGTERM');
      await server.exited;
    });
    const base = `http://127.0.0.1:${server.port}`;
    // a first answer through routing, validation and serialization, and a refusal through the
    // authentication hook and the problem answers
    expect((await fetch(`${base}/TV2/Execute/APIPACK.APIPing`)).status).toBe(200);
    expect((await fetch(`${base}/TV2/Execute/APIPACK.B2C_GetArticle?strarticle=NONE`)).status).toBe(401);
    expect(existsSync(log)).toBe(true);
    const packages = new Set(
      readFileSync(log, 'utf8')
        .split('\n')
        .map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1])
        .filter((name) => name !== undefined),
    );
    // the log saw the packages a start does load, so an empty one cannot pass
    expect(packages).toContain('fastify');
    expect(packages).toContain(ENGINE === 'sqlite' ? 'better-sqlite3' : 'pg');
    for (const name of LAZY) expect(packages, name).not.toContain(name);
  });
});
