import { monitorEventLoopDelay } from 'node:perf_hooks';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoIfEmpty } from '../src/app.ts';
import { ADMIN_ROUTES, OPERATIONS } from '../src/areas.ts';
import { seededRandom } from './helpers/seed.ts';
import { ENGINE, startTestApp, type TestApp } from './helpers/test-app.ts';
import { runInThreads } from './helpers/threads.ts';

/**
 * One request must not stall the process: a server listening on a real port serves hostile
 * requests (huge unknown-key bodies, tens of thousands of validation errors, deep nesting, long
 * strings, the largest bodies every operation takes, the largest pages, a 2 MiB photo) sent from
 * a worker thread, while this thread measures how late its own event loop runs
 * (perf_hooks.monitorEventLoopDelay). Before the fix, the first request below alone held the loop
 * for 16 s (SQLite) to 28 s (PostgreSQL), and 100,000 keys to B2C_PostProfilePhotoBase64 for 57 s.
 */
let t: TestApp;
let port: number;
let admin: string;
let confined: string;
let clientNo: number;
let photo: string;

beforeAll(async () => {
  t = await startTestApp();
  await loadDemoIfEmpty(t.services); // pages of the demo world: articles, prices, customers, stock
  admin = await t.tokenFor(['ADMIN', 'B2B', 'B2C']);
  clientNo = (await t.services.clients.profiles.saveClient({ email: 'hostile@example.nl', lastName: 'Host' }))
    .clientNo;
  confined = await t.tokenFor(['B2C'], { clientNo });
  // A photo of noise: about 2 MB as PNG (noise does not compress), re-encoded by sharp. Seeded, so
  // every run sends the same photo.
  const side = 820;
  const random = seededRandom(side);
  const noise = Buffer.alloc(side * side * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = random.int(0, 255);
  const png = await sharp(noise, { raw: { width: side, height: side, channels: 3 } })
    .png()
    .toBuffer();
  photo = png.toString('base64');
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
}, 120_000);
afterAll(() => t.close());

/**
 * The client: builds each body itself (so building megabytes of JSON does not run on the server's
 * loop), sends the requests one after the other over HTTP and posts back `label status ms`.
 */
const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const { base, jobs } = workerData;
const keys = (n, extra) => { const o = { ...extra }; for (let i = 0; i < n; i++) o['K' + i] = 1; return o; };
const nested = (depth) => '['.repeat(depth) + ']'.repeat(depth);
const build = {
  json: (j) => JSON.stringify(j.body),
  keys: (j) => JSON.stringify({ [j.root]: keys(j.n, j.extra) }),
  deep: (j) => '{"' + j.root + '":' + nested(j.depth) + '}',
  longString: (j) => JSON.stringify({ [j.root]: { [j.field]: 'x'.repeat(j.length) } }),
  items: (j) => JSON.stringify({ [j.root]: Array.from({ length: j.n }, () => ({})) }),
};
parentPort.once('message', async () => {
  const out = [];
  for (const j of jobs) {
    const body = j.kind === 'get' ? undefined : build[j.kind](j);
    const started = performance.now();
    const at = performance.timeOrigin + started;
    try {
      const res = await fetch(base + j.url, {
        method: j.method,
        headers: { authorization: 'Bearer ' + j.token, ...(body ? { 'content-type': 'application/json' } : {}) },
        body,
      });
      await res.arrayBuffer();
      const ms = performance.now() - started;
      out.push(j.label + ' ' + res.status + ' ' + Math.round(ms) + ' ' + Math.round(at) + ' ' + Math.round(at + ms));
    } catch (e) {
      out.push(j.label + ' failed ' + e.message);
    }
  }
  parentPort.postMessage(out);
});
parentPort.postMessage('ready');
`;

interface Job {
  label: string;
  kind: 'get' | 'json' | 'keys' | 'deep' | 'longString' | 'items';
  method: string;
  url: string;
  token: string;
  [more: string]: unknown;
}

const op = (name: string) => `/TV2/Execute/APIPACK.${name}`;
const rootOf = (schema: unknown) =>
  Object.keys((schema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {})[0] ??
  'DATA';

interface Outcome {
  label: string;
  status: number;
  ms: number;
  from: number;
  to: number;
}

/**
 * Runs the jobs from a worker thread while measuring this thread's event loop: the histogram's
 * worst delay, and (to say which request caused them) the stalls a 5 ms timer saw, with their times.
 */
async function measure(jobs: Job[]) {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  const stalls: Array<{ at: number; ms: number }> = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - last > 25) stalls.push({ at: performance.timeOrigin + now, ms: now - last - 5 });
    last = now;
  }, 5);
  histogram.enable();
  await new Promise((r) => setTimeout(r, 20)); // the histogram counts from its first tick
  const { outcomes, ms } = await runInThreads(CLIENT, 1, { base: `http://127.0.0.1:${port}`, jobs });
  histogram.disable();
  clearInterval(timer);
  const results: Outcome[] = outcomes.map((o) => {
    const [to, from, took, status, ...label] = o.split(' ').reverse();
    return {
      label: label.reverse().join(' '),
      status: Number(status),
      ms: Number(took),
      from: Number(from),
      to: Number(to),
    };
  });
  const blame = stalls
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 5)
    .map((s) => {
      const during = results.filter((r) => r.from <= s.at && s.at - s.ms <= r.to + 5).map((r) => r.label);
      return `${s.ms.toFixed(0)} ms during ${during.join(' / ') || 'no request'}`;
    });
  return { results, ms, worstMs: histogram.max / 1e6, p99Ms: histogram.percentile(99) / 1e6, blame };
}

function ordinaryJobs(): Job[] {
  const jobs: Job[] = [];
  for (let i = 0; i < 10; i++) {
    jobs.push(
      { label: 'ping', kind: 'get', method: 'GET', url: op('APIPing'), token: admin },
      {
        label: 'client',
        kind: 'get',
        method: 'GET',
        url: `${op('B2C_GetClient')}?strclient=${clientNo}`,
        token: admin,
      },
      {
        label: 'articles',
        kind: 'get',
        method: 'GET',
        url: `${op('B2B_GetAllArticles')}?strlimit=20`,
        token: admin,
      },
      {
        label: 'post-client',
        kind: 'json',
        method: 'POST',
        url: op('B2C_PostClient'),
        token: confined,
        body: { CLIENTDATA: { FIRSTNAME: `Run ${i}` } },
      },
    );
  }
  return jobs;
}

/** Demo records with rows in the lists that take them (customer 10002: discounts and links). */
const DEMO_KEYS: Record<string, string> = {
  strscn: '0',
  strcustomer: '10002',
  strrepresentative: 'JDV',
  strclient: '100007',
  strcardno: '40000001',
};
/** Lists whose key is not `required` in the schema but needed (one of several, checked by the operation). */
const LIST_KEYS: Record<string, string[]> = {
  B2B_GetCustomerArticleLink: ['strcustomer'],
  B2C_GetClient_Purchase: ['strclient'],
  B2C_GetClient_OnAccountDetail: ['strclient'],
  B2C_GetUserMessages: ['strclient'],
  B2C_GetOrderState: ['strclient'],
  B2B_GetOrderHistory: ['strcustomer'],
  B2B_GetInvoiceHistory: ['strcustomer'],
  B2B_GetUnsettledItems: ['strcustomer'],
};

function hostileJobs(): Job[] {
  const jobs: Job[] = [
    // The requests.
    {
      label: 'postclient-60k-keys',
      kind: 'keys',
      method: 'POST',
      url: op('B2C_PostClient'),
      token: confined,
      root: 'CLIENTDATA',
      n: 60_000,
      extra: { CLIENT: 0 },
    },
    {
      label: 'photo-100k-keys',
      kind: 'keys',
      method: 'POST',
      url: op('B2C_PostProfilePhotoBase64'),
      token: confined,
      root: 'PROFILEPHOTODATA',
      n: 100_000,
      extra: { PHOTO: '' },
    },
    // 60,000 validation errors in a 30 KB body (10,000 empty prices, six required fields each).
    {
      label: 'prices-60k-errors',
      kind: 'items',
      method: 'PUT',
      url: '/TV2/Admin/prices',
      token: admin,
      root: 'PRICES',
      n: 10_000,
    },
    {
      label: 'links-20k-errors',
      kind: 'items',
      method: 'POST',
      url: '/TV2/Admin/customerarticlelinks/delete',
      token: admin,
      root: 'ARTICLELINKS',
      n: 10_000,
    },
    {
      label: 'deep-nesting',
      kind: 'deep',
      method: 'POST',
      url: op('B2C_PostClient'),
      token: confined,
      root: 'CLIENTDATA',
      depth: 450_000,
    },
    {
      label: 'photo-2mib',
      kind: 'json',
      method: 'POST',
      url: op('B2C_PostProfilePhotoBase64'),
      token: confined,
      body: { PROFILEPHOTODATA: { PHOTO: photo } },
    },
  ];
  // The largest body every body-taking operation and admin route takes: one long string field.
  for (const o of OPERATIONS.filter((o) => o.handler && o.method === 'POST' && o.body)) {
    const root = rootOf(o.body);
    const field = rootOf((o.body as { properties: Record<string, unknown> }).properties[root]);
    jobs.push({
      label: `max-body ${o.name}`,
      kind: 'longString',
      method: 'POST',
      url: op(o.name),
      token: admin,
      root,
      field,
      length: (o.bodyLimit ?? t.services.config.bodyLimitBytes) - 200,
    });
  }
  for (const r of ADMIN_ROUTES.filter((r) => r.body && !r.rawBodyTypes)) {
    jobs.push({
      label: `max-body ${r.method} ${r.url}`,
      kind: 'longString',
      method: r.method,
      url: r.url.replace(/:[a-z]+/g, '1'),
      token: admin,
      root: rootOf(r.body),
      field: 'X',
      length: t.services.config.bodyLimitBytes - 200,
    });
  }
  // The largest page of every list operation.
  for (const o of OPERATIONS.filter((o) => o.handler && o.method === 'GET')) {
    const limit = /at most ([0-9]+)/.exec(
      String(
        (o.query as { properties?: { strlimit?: { description?: string } } })?.properties?.strlimit
          ?.description,
      ),
    )?.[1];
    if (!limit) continue;
    // The keys a list needs, of demo records that have rows: the largest page, not a 400.
    const required = (o.query as { required?: string[] } | undefined)?.required ?? [];
    const keys = [...required, ...(LIST_KEYS[o.name] ?? [])].map((k) => `&${k}=${DEMO_KEYS[k]}`).join('');
    jobs.push({
      label: `page ${o.name}`,
      kind: 'get',
      method: 'GET',
      url: `${op(o.name)}?strlimit=${limit}${keys}`,
      token: admin,
    });
  }
  return jobs;
}

describe(`the event loop under hostile requests (${ENGINE})`, () => {
  it('is never held for long: the worst delay stays far below what one request used to cost', async () => {
    const ordinary = await measure(ordinaryJobs());
    const hostile = await measure(hostileJobs());
    console.log(
      `[hostile-requests] ${ENGINE}: ordinary traffic: worst loop delay ${ordinary.worstMs.toFixed(0)} ms ` +
        `(p99 ${ordinary.p99Ms.toFixed(0)}); ${hostile.results.length} hostile requests in ` +
        `${hostile.ms.toFixed(0)} ms: worst loop delay ${hostile.worstMs.toFixed(0)} ms ` +
        `(p99 ${hostile.p99Ms.toFixed(0)}); longest stalls: ${hostile.blame.join('; ')}`,
    );
    // Every request is answered, each with what it deserves: the malformed ones (too many keys,
    // errors or levels, a field longer than its schema allows) a 400, the largest page of every
    // list of the demo world and the 2 MiB photo a 200; the ordinary traffic a 200 throughout.
    const expected = (label: string) => (label.startsWith('page ') || label === 'photo-2mib' ? 200 : 400);
    expect(hostile.results.map((r) => `${r.label} ${r.status}`)).toEqual(
      hostileJobs().map((j) => `${j.label} ${expected(j.label)}`),
    );
    expect(ordinary.results.map((r) => `${r.label} ${r.status}`)).toEqual(
      ordinaryJobs().map((j) => `${j.label} 200`),
    );
    expect(hostile.results.filter((r) => r.label.startsWith('page ')).length).toBeGreaterThan(15);
    // Before: 16,000 ms and more for one request. The bound is 3 times less than that, and about 80
    // times what one of these requests holds the loop for now (the worst seen is a garbage
    // collection or a busy machine); a machine slow enough to need more shows it in the baseline.
    expect(hostile.worstMs).toBeLessThan(Math.max(5000, 10 * ordinary.worstMs));
  }, 180_000);
});
