/**
 * Cold start to first answer, and idle memory, of `tv2 serve` against a bare Fastify server in the
 * same run on the same machine.
 *
 *   node bench/startup-bench.ts      (STARTUP_ROUNDS=5 STARTUP_IDLE_MS=2000 STARTUP_TV2_ROOT=<checkout>)
 *
 * Each round starts a new process of each kind, alternately: `node bin/tv2.js serve` on a new,
 * empty SQLite file (no demo data, so the start migrates an empty database), and a bare Fastify
 * server with one route. The clock runs from the spawn to the first 200 answer (tv2: APIPing, a
 * TV2 operation with its query and response schemas; bare: its one route), polling every 5 ms.
 * The idle RSS is read from /proc (Linux) STARTUP_IDLE_MS after that answer. Both enable Node's
 * compile cache (as bin/tv2.js does); one more round of each runs with it off
 * (NODE_DISABLE_COMPILE_CACHE=1): the first start after an upgrade.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROUNDS = Number(process.env.STARTUP_ROUNDS ?? 5);
const IDLE_MS = Number(process.env.STARTUP_IDLE_MS ?? 2000);
/** The checkout whose tv2 is measured: this one, or another one (e.g. an earlier commit's). */
const ROOT = process.env.STARTUP_TV2_ROOT ?? join(import.meta.dirname, '..');

const work = join(tmpdir(), `tv2-startup-bench-${process.pid}`);
mkdirSync(work, { recursive: true });

const BARE_SERVER = `
import module from 'node:module';
module.enableCompileCache?.();
const { default: Fastify } = await import('fastify');
const app = Fastify({ logger: false });
app.get('/ping', async () => ({ status: 'ok' }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
`;

interface Sample {
  ms: number;
  /** CPU time the process used up to its first answer: less dependent on a busy machine. */
  cpuMs: number;
  rssMiB: number;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function get(port: number, path: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}

/** CPU time (user + system) a process has used, from /proc (Linux; USER_HZ is 100). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) / 1024;
}

async function measure(kind: 'tv2' | 'bare', env: NodeJS.ProcessEnv = {}): Promise<Sample> {
  const port = await freePort();
  const dir = join(work, `${kind}-${port}`);
  mkdirSync(dir, { recursive: true });
  const args =
    kind === 'tv2' ? [join(ROOT, 'bin/tv2.js'), 'serve'] : ['--input-type=module', '--eval', BARE_SERVER];
  const path = kind === 'tv2' ? '/TV2/Execute/APIPACK.APIPing' : '/ping';
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${join(dir, 'tv2.db')}`,
      TV2_DEMO: '0',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      ...env,
    },
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  try {
    for (;;) {
      if (exited) throw new Error(`${kind} exited before answering`);
      if ((await get(port, path)) === 200) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    const ms = performance.now() - started;
    const cpu = cpuMs(child.pid!);
    await new Promise((r) => setTimeout(r, IDLE_MS));
    return { ms, cpuMs: cpu, rssMiB: rssMiB(child.pid!) };
  } finally {
    const gone = new Promise((r) => (exited ? r(undefined) : child.once('exit', r)));
    child.kill('SIGTERM');
    await gone;
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

try {
  // one start of each first, to fill the compile cache
  await measure('tv2');
  await measure('bare');
  const samples: Record<'tv2' | 'bare', Sample[]> = { tv2: [], bare: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of round % 2 ? (['bare', 'tv2'] as const) : (['tv2', 'bare'] as const)) {
      samples[kind].push(await measure(kind));
    }
  }
  const uncached = {
    tv2: await measure('tv2', { NODE_DISABLE_COMPILE_CACHE: '1' }),
    bare: await measure('bare', { NODE_DISABLE_COMPILE_CACHE: '1' }),
  };
  const tv2Ms = median(samples.tv2.map((s) => s.ms));
  const bareMs = median(samples.bare.map((s) => s.ms));
  const tv2Cpu = median(samples.tv2.map((s) => s.cpuMs));
  const bareCpu = median(samples.bare.map((s) => s.cpuMs));
  const tv2Rss = median(samples.tv2.map((s) => s.rssMiB));
  const bareRss = median(samples.bare.map((s) => s.rssMiB));
  const row = (name: string, tv2: number, bare: number, unit: string, digits: number) =>
    `| ${name} | ${tv2.toFixed(digits)} ${unit} | ${bare.toFixed(digits)} ${unit} | ${(tv2 / bare).toFixed(2)} |`;
  console.log(`start-up, median of ${ROUNDS} rounds (load average ${(await loadAverage()).toFixed(1)})`);
  console.log('| measure | tv2 | bare Fastify | tv2 / bare |');
  console.log('|---|---|---|---|');
  console.log(row('cold start to first answer', tv2Ms, bareMs, 'ms', 0));
  console.log(row('CPU time to first answer', tv2Cpu, bareCpu, 'ms', 0));
  console.log(row('the same, compile cache off', uncached.tv2.ms, uncached.bare.ms, 'ms', 0));
  console.log(row(`idle RSS (${IDLE_MS} ms after)`, tv2Rss, bareRss, 'MiB', 1));
  console.log(
    `tv2 starts: ${samples.tv2.map((s) => s.ms.toFixed(0)).join(', ')} ms; bare: ${samples.bare.map((s) => s.ms.toFixed(0)).join(', ')} ms`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}

async function loadAverage(): Promise<number> {
  const { loadavg } = await import('node:os');
  return loadavg()[0] ?? 0;
}
