/**
 * Dumps B2B_GetAllPrices page by page over HTTP (loopback, fetch) from a catalogue of N articles with
 * list prices for every size, and reports the time, the pages and the process memory (sampled during
 * the dump) to show that memory stays flat whatever the catalogue size.
 *
 *   node --expose-gc --import tsx bench/prices-dump.ts   (PRICES_ARTICLES=100000 PRICES_PAGE=1000 PRICES_PASSES=2)
 *
 * Without --expose-gc it runs too; the checkpoints then include garbage not yet collected.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApp } from '../src/app.ts';
import { demoArticles } from '../src/areas/catalog/demo/catalog-data.ts';
import { seedCatalog } from '../src/areas/catalog/demo/seed.ts';
import type { ListPriceInput } from '../src/areas/pricing/list-price-service.ts';
import { loadConfig } from '../src/config.ts';

const ARTICLES = Number(process.env.PRICES_ARTICLES ?? 100_000);
const PAGE = Number(process.env.PRICES_PAGE ?? 1000);
const BATCH = 20_000;
/** The dump runs this many times: a second pass shows whether memory keeps growing or has levelled off. */
const PASSES = Number(process.env.PRICES_PASSES ?? 2);

const work = join(tmpdir(), `tv2-prices-dump-${process.pid}`);
mkdirSync(work, { recursive: true });
const databaseUrl = `sqlite:${join(work, 'prices.db')}`;
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

async function main(): Promise<void> {
  const running = await startApp(loadConfig({}, { databaseUrl, demo: false }), { logger: false });
  const { services, app } = running;
  try {
    let started = Date.now();
    await seedCatalog(services, { articles: ARTICLES, images: false, batchSize: 1000 });
    console.log(`catalogue: ${ARTICLES} articles in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    // Prices for every size: recommended (group 1) and selling (group 2) in EUR, in big batches.
    started = Date.now();
    let rows: ListPriceInput[] = [];
    let priceRows = 0;
    for (const a of demoArticles({ seed: 1, count: ARTICLES })) {
      const retail = 1995 + ((a.articleNo.length * 1000 + a.sizes.length * 500) % 8000);
      for (const { sizex } of a.sizes) {
        rows.push({
          articleNo: a.articleNo,
          priceType: 'RECOMMENDED',
          priceGroup: 1,
          currency: 'EUR',
          sizex,
          priceMinor: retail,
        });
        rows.push({
          articleNo: a.articleNo,
          priceType: 'SELLING',
          priceGroup: 2,
          currency: 'EUR',
          sizex,
          priceMinor: Math.round(retail * 0.45),
        });
      }
      if (rows.length >= BATCH) {
        priceRows += (await services.pricing.listPrices.setListPrices(rows)).changed;
        rows = [];
      }
    }
    priceRows += (await services.pricing.listPrices.setListPrices(rows)).changed;
    console.log(`prices: ${priceRows} list price rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const { secret } = await services.general.auth.createUser({ name: 'dump', roles: ['B2B'] });
    const tokenRes = await app.inject({
      method: 'GET',
      url: '/TV2/GetToken',
      headers: { authorization: `Basic ${Buffer.from(`dump:${secret}`).toString('base64')}` },
    });
    const token = tokenRes.json().GETTOKEN.TOKEN as string;
    // Over a real socket: Fastify's inject keeps memory per call, which would hide what the server does.
    const address = await app.listen({ port: 0, host: '127.0.0.1' });

    /** One pass over every page, memory sampled every 20 ms and after each page. */
    async function dump(pass: number) {
      globalThis.gc?.();
      const before = process.memoryUsage();
      let peakRss = before.rss;
      let peakHeap = before.heapUsed;
      const sample = () => {
        const m = process.memoryUsage();
        peakRss = Math.max(peakRss, m.rss);
        peakHeap = Math.max(peakHeap, m.heapUsed);
      };
      const timer = setInterval(sample, 20);
      const checkpoints: Array<{ page: number; rssMb: number; heapMb: number; externalMb: number }> = [];

      started = Date.now();
      let pages = 0;
      let articles = 0;
      let sizes = 0;
      let bytes = 0;
      for (let offset: number | null = 1; offset !== null; ) {
        const res = await fetch(
          `${address}/TV2/Execute/APIPACK.B2B_GetAllPrices?stroffset=${offset}&strlimit=${PAGE}`,
          { headers: { authorization: `Bearer ${token}` } },
        );
        const text = await res.text();
        if (res.status !== 200) throw new Error(`page at ${offset}: ${res.status} ${text.slice(0, 300)}`);
        bytes += Buffer.byteLength(text);
        const body: {
          NEXTOFFSET: number | null;
          ARTICLES: Array<{
            SELLING: Array<{ 'PRICE PER CURRENCY': Array<{ 'PRICE PER SIZE': unknown[] }> }>;
          }>;
        } = JSON.parse(text).B2BGETPRICE;
        pages++;
        articles += body.ARTICLES.length;
        for (const a of body.ARTICLES)
          sizes += a.SELLING[0]?.['PRICE PER CURRENCY'][0]?.['PRICE PER SIZE'].length ?? 0;
        offset = body.NEXTOFFSET;
        sample();
        if (pages % 10 === 0) {
          // With --expose-gc the checkpoints show what is retained after a full collection.
          globalThis.gc?.();
          const m = process.memoryUsage();
          checkpoints.push({
            page: pages,
            rssMb: mb(m.rss),
            heapMb: mb(m.heapUsed),
            externalMb: mb(m.external),
          });
        }
      }
      const seconds = (Date.now() - started) / 1000;
      clearInterval(timer);

      if (articles !== ARTICLES) throw new Error(`dumped ${articles} articles, expected ${ARTICLES}`);
      return {
        pass,
        pages,
        articlesDumped: articles,
        sizesDumped: sizes,
        megabytes: Number((bytes / 1024 / 1024).toFixed(1)),
        seconds: Number(seconds.toFixed(1)),
        msPerPage: Number(((seconds * 1000) / pages).toFixed(1)),
        rssBeforeMb: mb(before.rss),
        peakRssMb: mb(peakRss),
        heapBeforeMb: mb(before.heapUsed),
        peakHeapMb: mb(peakHeap),
        checkpoints,
      };
    }

    const passes = [];
    for (let pass = 1; pass <= PASSES; pass++) passes.push(await dump(pass));
    const result = { articles: ARTICLES, priceRows, pageSize: PAGE, passes };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await running.close();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
