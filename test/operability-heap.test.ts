import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { budget } from './helpers/cli.ts';
import { startServerProcess } from './helpers/operability-server.ts';
import { ENGINE, freshDatabaseUrl } from './helpers/test-app.ts';

/**
 * `tv2 serve` bounds V8's young generation (decision 51): it runs itself again in place with
 * `--max-semi-space-size`, the same process (its pid is the one started), unless the operator's
 * command line sets it or TV2_SEMI_SPACE_MB=0. Read off the process's command line (Linux /proc).
 */

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(args: string[], env: Record<string, string>) {
  const fresh = await freshDatabaseUrl();
  cleanups.push(fresh.drop);
  const server = await startServerProcess(process.execPath, [...args, 'bin/tv2.js', 'serve'], {
    DATABASE_URL: fresh.url,
    TV2_DEMO: '0',
    ...env,
  });
  cleanups.push(async () => {
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
  const pid = server.child.pid as number;
  const flags = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
    .split('\0')
    .filter((a) => a.startsWith('--max-semi-space-size'));
  return { server, flags };
}

describe.skipIf(!existsSync('/proc/self/cmdline'))(
  `tv2 serve's young generation (${ENGINE})`,
  {
    timeout: budget(3),
  },
  () => {
    it('serves with 16 MiB semi-spaces, in the process that was started', async () => {
      const { server, flags } = await serve([], {});
      expect(flags).toEqual(['--max-semi-space-size=16']);
      // the server that listens is the process started: no parent left waiting on a child
      expect(server.lines.some((l) => l.pid === server.child.pid)).toBe(true);
    });

    it('keeps the size the command line gives, and V8 its own with TV2_SEMI_SPACE_MB=0', async () => {
      expect((await serve(['--max-semi-space-size=4'], {})).flags).toEqual(['--max-semi-space-size=4']);
      expect((await serve([], { TV2_SEMI_SPACE_MB: '0' })).flags).toEqual([]);
    });

    it('reads an empty TV2_SEMI_SPACE_MB as the default, and another size as given', async () => {
      expect((await serve([], { TV2_SEMI_SPACE_MB: '' })).flags).toEqual(['--max-semi-space-size=16']);
      expect((await serve([], { TV2_SEMI_SPACE_MB: '24' })).flags).toEqual(['--max-semi-space-size=24']);
    });
  },
);
