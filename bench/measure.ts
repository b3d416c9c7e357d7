/**
 * The measuring tools of bench/all.ts: processes (start, wait for the first answer, stop), memory
 * from /proc, load at N connections (autocannon) and one-at-a-time timing (fetch). A non-2xx answer
 * is a failed request: it is counted and reported, never counted as a fast one.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || !address) throw new Error('no free port');
  return address.port;
}

export interface Started {
  child: ChildProcess;
  base: string;
  /** Milliseconds from spawn to the first 2xx answer of `probe`. */
  startMs: number;
}

/**
 * Starts `node <args>` with PORT set to a free port and waits for a 2xx answer to `probe` (polled
 * every 5 ms): the time from spawn to that answer is the cold start.
 */
export async function startProcess(
  args: string[],
  env: Record<string, string>,
  probe: { path: string; headers?: Record<string, string> },
  cwd: string,
): Promise<Started> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const keep = (line: string) => {
    output.push(line);
    if (output.length > 40) output.shift();
  };
  createInterface({ input: child.stdout! }).on('line', keep);
  createInterface({ input: child.stderr! }).on('line', keep);
  let exited: number | null | undefined;
  child.once('exit', (code) => {
    exited = code;
  });
  const deadline = started + 180_000;
  while (performance.now() < deadline) {
    if (exited !== undefined)
      throw new Error(`${args.join(' ')} exited with ${exited}:\n${output.join('\n')}`);
    try {
      const res = await fetch(`${base}${probe.path}`, { headers: probe.headers });
      await res.arrayBuffer();
      if (res.ok) return { child, base, startMs: performance.now() - started };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  child.kill('SIGKILL');
  throw new Error(`${args.join(' ')} gave no answer to ${probe.path} in 180 s:\n${output.join('\n')}`);
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await gone;
  clearTimeout(timer);
}

/** Resident memory of a process now (VmRSS), in bytes. */
export function rssOf(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
}

/** Samples a process's resident memory every 10 ms until stopped; returns the peak. */
export function rssSampler(pid: number): { stop(): number } {
  let peak = rssOf(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssOf(pid));
    } catch {
      // the process ended
    }
  }, 10);
  return {
    stop() {
      clearInterval(timer);
      try {
        peak = Math.max(peak, rssOf(pid));
      } catch {}
      return peak;
    },
  };
}

export interface LoadResult {
  /** 2xx answers per second: failed requests do not count. */
  reqPerSec: number;
  ok: number;
  failed: number;
  meanMs: number;
  p99Ms: number;
  firstFailure?: string;
}

export interface LoadRequest {
  path: string;
  body?: string;
}

/** Load at `connections` for `seconds`, each request from `next()`. */
export async function load(options: {
  base: string;
  connections: number;
  seconds: number;
  method?: 'GET' | 'POST' | 'PUT';
  headers?: Record<string, string>;
  /** The next request; undefined ends the run (the requests in flight finish). */
  next: () => LoadRequest | undefined;
}): Promise<LoadResult> {
  let firstFailure: string | undefined;
  let instance: autocannon.Instance | undefined;
  let last: LoadRequest | undefined;
  let outOfRequests = false;
  const spec: autocannon.Options = {
    url: options.base,
    connections: options.connections,
    duration: options.seconds,
    timeout: 60,
    headers: {
      ...(options.method && options.method !== 'GET' ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    requests: [
      {
        method: options.method ?? 'GET',
        setupRequest: (request) => {
          let next = options.next();
          if (next === undefined) {
            // out of requests: stop (autocannon asks for the first requests before it returns its
            // instance); the few sent meanwhile repeat the last one
            outOfRequests = true;
            instance?.stop();
            if (last === undefined) throw new Error('load: no request to send');
            next = last;
          }
          last = next;
          request.path = next.path;
          if (next.body !== undefined) request.body = next.body;
          return request;
        },
        onResponse: (status, body) => {
          if ((status < 200 || status > 299) && firstFailure === undefined)
            firstFailure = `${status} ${String(body).slice(0, 300)}`;
        },
      },
    ],
  };
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(spec, (error, answer) => (error ? reject(error) : resolve(answer)));
    if (outOfRequests) instance.stop();
  });
  const ok = result['2xx'];
  const failed = result.non2xx + result.errors;
  if (failed > 0 && firstFailure === undefined)
    firstFailure = `${result.errors} connection errors or timeouts`;
  return {
    reqPerSec: ok / result.duration,
    ok,
    failed,
    meanMs: result.latency.mean,
    p99Ms: result.latency.p99,
    firstFailure,
  };
}

export interface SequentialResult {
  medianMs: number;
  count: number;
  failed: number;
  firstFailure?: string;
  /** The last answer's text (to check what came back). */
  lastText: string;
}

interface Target {
  url: string;
  headers?: Record<string, string>;
}

/** Times of one target's requests, its failures and its last answer. */
class Timings {
  times: number[] = [];
  failed = 0;
  firstFailure: string | undefined;
  lastText = '';

  async request(target: Target): Promise<void> {
    const started = performance.now();
    const res = await fetch(target.url, { headers: target.headers });
    const text = await res.text();
    const ms = performance.now() - started;
    if (res.ok) {
      this.times.push(ms);
      this.lastText = text;
    } else {
      this.failed++;
      this.firstFailure ??= `${res.status} ${text.slice(0, 300)}`;
    }
  }

  get done(): number {
    return this.times.length + this.failed;
  }

  /** Three failures and no success: asking more is pointless. */
  get hopeless(): boolean {
    return this.failed >= 3 && this.times.length === 0;
  }

  result(): SequentialResult {
    const sorted = [...this.times].sort((a, b) => a - b);
    return {
      medianMs: sorted.length ? (sorted[Math.floor(sorted.length / 2)] as number) : Number.NaN,
      count: sorted.length,
      failed: this.failed,
      firstFailure: this.firstFailure,
      lastText: this.lastText,
    };
  }
}

/** One request at a time, at least `minCount` and until `seconds` have passed: the median time. */
export async function sequential(
  options: Target & { minCount: number; seconds: number },
): Promise<SequentialResult> {
  const timings = new Timings();
  const until = performance.now() + options.seconds * 1000;
  while ((timings.done < options.minCount || performance.now() < until) && !timings.hopeless)
    await timings.request(options);
  return timings.result();
}

/**
 * Two targets asked in turn, one request at a time (a, b, a, b, ...), at least `minCount` each and
 * until `seconds` have passed: a change of the machine's load touches both medians alike.
 */
export async function alternating(
  a: Target,
  b: Target,
  options: { minCount: number; seconds: number },
): Promise<[SequentialResult, SequentialResult]> {
  const ta = new Timings();
  const tb = new Timings();
  const until = performance.now() + options.seconds * 1000;
  while (
    (Math.min(ta.done, tb.done) < options.minCount || performance.now() < until) &&
    !ta.hopeless &&
    !tb.hopeless
  ) {
    await ta.request(a);
    await tb.request(b);
  }
  return [ta.result(), tb.result()];
}

/** CPU seconds (user + system) a process has used so far (0 once it has ended). */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0; // the process ended
  }
}

/**
 * A reader of the CPU seconds used so far by the tv2 process `pid` and, for a PostgreSQL `dbUrl`, by
 * the server processes of that database: per request, what a request costs whatever else the
 * machine runs.
 */
export function cpuReader(dbUrl: string): (pid: number) => { tv2: number; db: number } {
  const database = dbUrl.startsWith('sqlite:') ? undefined : new URL(dbUrl).pathname.slice(1);
  const serverPids = () =>
    database === undefined
      ? []
      : readdirSync('/proc')
          .filter((d) => /^\d+$/.test(d))
          .filter((d) => {
            try {
              return readFileSync(`/proc/${d}/cmdline`, 'utf8').startsWith(`postgres: postgres ${database} `);
            } catch {
              return false;
            }
          })
          .map(Number);
  return (pid) => ({ tv2: cpuSeconds(pid), db: serverPids().reduce((n, p) => n + cpuSeconds(p), 0) });
}
