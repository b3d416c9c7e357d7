/**
 * The rows of bench/all.ts that put load on a running tv2 and a running bare Fastify process:
 * reads at 32 connections (each article asked once), feeds after 100 changes against the bare
 * SELECT of the changed rows, and writes at 32 connections; with the formatting of the table.
 */
import pg from 'pg';
import { alternating, type LoadRequest, type LoadResult, load, type Started } from './measure.ts';

export interface Row {
  path: string;
  engine: string;
  tv2: string;
  baseline: string;
  ratio: string;
  notes: string;
}

export interface Article {
  no: string;
  active: boolean;
  retail: boolean;
  sizes: string[];
}

export const EXEC = '/TV2/Execute/APIPACK.';
export const CONNECTIONS = 32;
export const CHANGES = 100;

export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
export const ms = (n: number) => (n >= 100 ? `${n.toFixed(0)} ms` : `${n.toFixed(1)} ms`);
const perSec = (n: number) => `${Math.round(n).toLocaleString('en')} req/s`;
/** Times and sizes: tv2 ÷ baseline, 1× is as fast or as small. */
export const times = (tv2: number, baseline: number) => `${(tv2 / baseline).toFixed(1)}×`;
/** Throughput: tv2 ÷ baseline, 1 is as fast (three decimals below 0.1, so a 4× change of 0.01 shows). */
const share = (tv2: number, baseline: number) => {
  const r = tv2 / baseline;
  return r < 0.1 ? r.toFixed(3) : r.toFixed(2);
};
export const notes = (...parts: string[]) => parts.filter(Boolean).join('; ');

/** "**12 failed** (first: 500 ...)" or ''. */
export function failures(...results: Array<{ failed: number; firstFailure?: string }>) {
  const failed = results.reduce((n, r) => n + r.failed, 0);
  if (failed === 0) return '';
  const first = results.find((r) => r.firstFailure)?.firstFailure ?? '';
  return `**${failed} failed** (first: ${first.replaceAll('|', '/').replaceAll('\n', ' ').slice(0, 160)})`;
}

/** The number of records in an answer: the length of the first array under its root. */
export function recordsOf(text: string): number {
  const root = Object.values(JSON.parse(text) as Record<string, Record<string, unknown>>)[0] ?? {};
  const list = Object.values(root).find(Array.isArray) as unknown[] | undefined;
  return list?.length ?? 0;
}

/** A fixed shuffle (the same order every run), so runs ask for the same articles. */
export function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  let state = 12345;
  for (let i = out.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

export async function getText(url: string, headers: Record<string, string>): Promise<string> {
  const res = await fetch(url, { headers });
  const text = await res.text();
  if (!res.ok) throw new Error(`${url}: ${res.status} ${text.slice(0, 300)}`);
  return text;
}

export async function send(url: string, method: string, headers: Record<string, string>, body: unknown) {
  const res = await fetch(url, {
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 300)}`);
  return text;
}

/** What the rows under load need: both processes, the token, the load time, the table. */
export interface Stage {
  tv2: Started;
  bare: Started;
  auth: Record<string, string>;
  seconds: number;
  log(line: string): void;
  row(path: string, tv2: string, baseline: string, ratio: string, note?: string): Row;
}

type Tv2Load = (seconds: number, warmUp: boolean) => Promise<LoadResult & { wentRound?: string }>;

/** Rounds of a throughput row, and the bare run before, between and after them. */
const ROUNDS = 3;
const BARE_ROUND_SECONDS = 3;

/**
 * A throughput row: tv2 warmed up (2 s), then three rounds of tv2 (a third of the row's seconds
 * each), with a bare run before, between and after them. Each round's ratio is against the mean of
 * the bare runs on either side of it, and the row is the median round: the machine is shared, and
 * a neighbour's burst moves one short round, not the row (one long tv2 run, as before, moved by
 * ±15 % from run to run).
 */
export async function compare(
  stage: Stage,
  label: string,
  tv2Load: Tv2Load,
  bareName: string,
  bareBody?: string,
): Promise<Row> {
  stage.log(label);
  const bareRun = (seconds: number) =>
    load({
      base: stage.bare.base,
      connections: CONNECTIONS,
      seconds,
      method: bareBody === undefined ? 'GET' : 'POST',
      next: () => ({ path: `/static/${bareName}`, body: bareBody }),
    });
  await tv2Load(2, true); // warm-up: JIT, pool, page cache (its requests are not counted)
  await bareRun(1);
  const bares = [await bareRun(BARE_ROUND_SECONDS)];
  const rounds: Array<{ result: Awaited<ReturnType<Tv2Load>>; baseline: number; ratio: number }> = [];
  for (let r = 0; r < ROUNDS; r++) {
    const result = await tv2Load(stage.seconds / ROUNDS, false);
    bares.push(await bareRun(BARE_ROUND_SECONDS));
    const baseline = ((bares[r]?.reqPerSec ?? 0) + (bares[r + 1]?.reqPerSec ?? 0)) / 2;
    rounds.push({ result, baseline, ratio: result.reqPerSec / baseline });
  }
  const median = [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor(ROUNDS / 2)] as (typeof rounds)[0];
  return stage.row(
    label,
    perSec(median.result.reqPerSec),
    perSec(median.baseline),
    share(median.result.reqPerSec, median.baseline),
    notes(
      `median of ${ROUNDS} rounds (${rounds.map((r) => share(r.result.reqPerSec, r.baseline)).join(', ')})`,
      `mean ${ms(median.result.meanMs)}, p99 ${ms(median.result.p99Ms)}`,
      rounds.findLast((r) => r.result.wentRound)?.result.wentRound ?? '',
      failures(...rounds.map((r) => r.result), ...bares),
    ),
  );
}

/**
 * Load that asks for each item once before it asks any again (no answer comes from a cache): the
 * warm-up takes items from the end of the list (at most a quarter of them), the measured rounds walk
 * the rest from the start, and go round again from its start when they reach the warm-up's items.
 * Asked again, an item has had all the others of the ring asked after it: more than the article
 * answer cache keeps (`ARTICLE_CACHE_LIMIT`, 20,000 answers, the oldest evicted first), so the
 * uncached article row stays uncached. A row that went round says so in its notes. (Until
 * 2026-11-28 a round ended when the items ran out, and a round that started with none left loaded
 * nothing but failures: on a fast hour 10,000 answers a second use up 72,000 articles in 8 s.)
 */
export function distinct<T>(
  stage: Stage,
  items: T[],
  path: (item: T, i: number) => string,
  noun: string,
): Tv2Load {
  // the warm-up leaves at least three quarters of the items to the measured rounds
  const warmUpFloor = Math.floor(items.length / 4);
  let warmed = 0;
  let next = 0;
  let asked = 0;
  return async (seconds, warmUp) => {
    const result = await load({
      base: stage.tv2.base,
      connections: CONNECTIONS,
      seconds,
      headers: stage.auth,
      next: (): LoadRequest | undefined => {
        if (warmUp) {
          if (warmed >= warmUpFloor) return undefined;
          const i = items.length - 1 - warmed++;
          return { path: path(items[i] as T, i) };
        }
        const ring = items.length - warmed;
        const i = next;
        next = (next + 1) % ring;
        asked++;
        return { path: path(items[i] as T, i) };
      },
    });
    const ring = items.length - warmed;
    const wentRound =
      !warmUp && asked > ring
        ? `${asked.toLocaleString('en')} requests over ${ring.toLocaleString('en')} ${noun}: went round (each asked again only after all the others)`
        : undefined;
    return { ...result, wentRound };
  };
}

/**
 * A feed after the changes since `scn`, against the bare SELECT of the same rows: one request at a
 * time, tv2 and bare in turn.
 */
export async function feedRow(stage: Stage, label: string, op: string, query: string, scn: number) {
  stage.log(label);
  const tv2 = { url: `${stage.tv2.base}${EXEC}${op}?strscn=${scn}`, headers: stage.auth };
  const bare = { url: `${stage.bare.base}/query/${query}?scn=${scn}` };
  await alternating(tv2, bare, { minCount: 3, seconds: 0 }); // warm-up
  const [measured, baseline] = await alternating(tv2, bare, { minCount: 3, seconds: 6 });
  const got = measured.count ? recordsOf(measured.lastText) : 0;
  const bareRows = baseline.count ? (JSON.parse(baseline.lastText) as { COUNT: number }).COUNT : 0;
  stage.row(
    label,
    `${ms(measured.medianMs)} per request`,
    ms(baseline.medianMs),
    times(measured.medianMs, baseline.medianMs),
    notes(
      `${got} records (bare query: ${bareRows} rows), median of ${measured.count}`,
      got === CHANGES ? '' : `**expected ${CHANGES}**`,
      failures(measured, baseline),
    ),
  );
}

/** The durability the write rows ran with: PostgreSQL's fsync and synchronous_commit, SQLite's pragmas. */
async function durabilityOf(databaseUrl: string): Promise<{ text: string; durable: boolean }> {
  if (!/^postgres(ql)?:\/\//.test(databaseUrl))
    return { text: 'SQLite WAL, synchronous=NORMAL', durable: true };
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const show = async (name: string) => (await client.query(`SHOW ${name}`)).rows[0]?.[name] as string;
    const fsync = await show('fsync');
    const text = `fsync=${fsync}, synchronous_commit=${await show('synchronous_commit')}, full_page_writes=${await show('full_page_writes')}`;
    return { text, durable: fsync === 'on' };
  } finally {
    await client.end();
  }
}

/** B2C_PostClient (a new client each request) and admin stock receipts (at WH, spread over all sizes). */
export async function writeRows(stage: Stage, databaseUrl: string, runId: string, live: Article[]) {
  const durability = await durabilityOf(databaseUrl);
  stage.log(durability.text);
  const durabilityNote = durability.durable ? durability.text : `**${durability.text}: not durable**`;
  const post = (next: () => LoadRequest): Tv2Load => {
    return (seconds) =>
      load({
        base: stage.tv2.base,
        connections: CONNECTIONS,
        seconds,
        method: 'POST',
        headers: stage.auth,
        next,
      });
  };
  let clientNo = 0;
  const clientBody = (n: string) =>
    JSON.stringify({ CLIENTDATA: { EMAIL: `bench-${runId}-${n}@example.com`, LASTNAME: 'Bench' } });
  const clients = await compare(
    stage,
    `B2C_PostClient, ${CONNECTIONS} connections`,
    post(() => ({ path: `${EXEC}B2C_PostClient`, body: clientBody(String(clientNo++)) })),
    'client',
    clientBody('sample'),
  );
  clients.notes = notes(clients.notes, durabilityNote);

  const receiptBody = (article: string, sizex: string) =>
    JSON.stringify({
      TYPE: 'RECEIPT',
      LOCATION: 'WH',
      ARTICLE: article,
      SIZEX: sizex,
      QUANTITY: 1,
      REASON: 'bench',
    });
  const order = shuffled(live.flatMap((a) => a.sizes.map((s) => [a.no, s] as const)));
  let receiptNo = 0;
  const receipts = await compare(
    stage,
    `admin stock receipt, ${CONNECTIONS} connections`,
    post(() => {
      const [article, sizex] = order[receiptNo++ % order.length] as readonly [string, string];
      return { path: '/TV2/Admin/stock/movements', body: receiptBody(article, sizex) };
    }),
    'receipt',
    receiptBody('X', 'M'),
  );
  receipts.notes = notes(receipts.notes, durabilityNote);
}
