/**
 * A full dump of B2B_GetAllArticles over HTTP, page by page (DUMP_ARTICLES, default 100000
 * articles, 1000 per page), against a server in its own process, reporting time and the server's
 * resident memory while it serves the pages: it must stay flat whatever the table size.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { seedCatalog } from '../src/areas/catalog/demo/seed.ts';
import { MIGRATIONS } from '../src/areas.ts';
import { loadConfig } from '../src/config.ts';
import { migrate, openDatabase } from '../src/kernel/db/database.ts';
import { createServices } from '../src/services.ts';

const COUNT = Number(process.env.DUMP_ARTICLES ?? 100_000);
const dir = mkdtempSync(join(tmpdir(), 'tv2-dump-'));
const databaseUrl = `sqlite:${join(dir, 'dump.db')}`;

const database = openDatabase(databaseUrl);
await migrate(database, MIGRATIONS);
const services = createServices(loadConfig({}, { databaseUrl, demo: false }), database);
await seedCatalog(services, { articles: COUNT, images: false });
const { secret } = await services.general.auth.createUser({ name: 'dump', roles: ['B2B'] });
await database.close();

const heapCap = process.env.DUMP_HEAP_MB ? [`--max-old-space-size=${process.env.DUMP_HEAP_MB}`] : [];
const server = spawn(
  process.execPath,
  [...heapCap, '--import', 'tsx', join(import.meta.dirname, 'bench-server.ts'), 'tv2', databaseUrl],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const port: number = await new Promise((resolve) =>
  createInterface({ input: server.stdout! }).once('line', (line) => resolve(JSON.parse(line).port)),
);
const rssOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) * 1024;
const base = `http://127.0.0.1:${port}`;
const token = (
  (await (
    await fetch(`${base}/TV2/GetToken`, {
      headers: { authorization: `Basic ${Buffer.from(`dump:${secret}`).toString('base64')}` },
    })
  ).json()) as { GETTOKEN: { TOKEN: string } }
).GETTOKEN.TOKEN;

const rssBefore = rssOf(server.pid!);
const rssByTenth: number[] = [];
let peakRss = 0;
let pages = 0;
let articles = 0;
let bytes = 0;
let offset: number | null = 1;
const started = performance.now();
while (offset !== null) {
  const res = await fetch(
    `${base}/TV2/Execute/APIPACK.B2B_GetAllArticles?stroffset=${offset}&strlimit=1000`,
    {
      headers: { authorization: `Bearer ${token}` },
    },
  );
  const text = await res.text();
  const page = JSON.parse(text).B2BGETALLARTICLES as { ARTICLES: unknown[]; NEXTOFFSET: number | null };
  pages++;
  articles += page.ARTICLES.length;
  bytes += text.length;
  offset = page.NEXTOFFSET;
  const rss = rssOf(server.pid!);
  peakRss = Math.max(peakRss, rss);
  if (pages % Math.max(1, Math.round(COUNT / 10_000)) === 0) rssByTenth.push(rss);
}
const seconds = (performance.now() - started) / 1000;
server.kill('SIGTERM');
rmSync(dir, { recursive: true, force: true });
const mib = (n: number) => `${(n / 1024 / 1024).toFixed(0)}`;
console.log(
  `${heapCap.length ? `(server heap capped at ${process.env.DUMP_HEAP_MB} MiB) ` : ''}dumped ${articles} articles in ${pages} pages (${mib(bytes)} MiB of JSON) in ${seconds.toFixed(1)} s; server RSS before ${mib(rssBefore)} MiB, peak ${mib(peakRss)} MiB; along the dump: ${rssByTenth.map(mib).join(' ')} MiB`,
);
