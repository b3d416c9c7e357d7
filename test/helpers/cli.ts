import { execFile } from 'node:child_process';

/**
 * What one child process may take in a test (a `tv2` command, or a server's start to its first
 * answer) on a busy 2-core machine: a load average of 8 and more. A test that starts processes
 * waits on each (its exit, or its "listening" log line), never on a fixed sleep, and its timeout is
 * `budget(n)`.
 */
export const PROCESS_BUDGET_MS = 60_000;

/**
 * The timeout of a test that starts `processes` child processes one after another: their budget,
 * and 30 s (vitest's testTimeout) for the test's own work.
 */
export function budget(processes: number): number {
  return processes * PROCESS_BUDGET_MS + 30_000;
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `tv2 <args>` as the installed command runs (bin/tv2.js on Node's own type stripping) with
 * `env` over this process's environment, and resolves with its exit code and output (it never
 * rejects for an exit code other than 0).
 */
export function tv2(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/tv2.js', ...args],
      { env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (error as { code?: unknown }).code : 0;
        resolve({ code: typeof code === 'number' ? code : -1, stdout, stderr });
      },
    );
  });
}
