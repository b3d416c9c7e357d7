/**
 * The typed client (client/) against a running server: a tv2 listening on a port of its own, on a
 * fresh database of the engine under test with the demo data, called over HTTP as an application
 * would. (a) A consumer app: token, the retail article list paged to the end, one article, its
 * stock and action price, its image as bytes (then 304 with If-None-Match), a client created and a
 * web order placed and read back. (b) A B2B portal: all articles paged, then the price feed
 * followed from that pass's SCN while the back office changes prices; each change arrives once,
 * also across a token the server expired and one it revoked (renewed without the caller noticing).
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTv2Client, type FeedBatch, Tv2Error } from '../client/index.ts';
import { DEMO_USER, type Running, startApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { freshDatabaseUrl } from './helpers/test-app.ts';

let running: Running;
let baseUrl: string;
let drop: () => Promise<void>;
/** GetToken requests made by the clients of this file (renewals show up here). */
let tokenRequests = 0;

const countingFetch = (request: Request) => {
  if (new URL(request.url).pathname === '/TV2/GetToken') tokenRequests++;
  return fetch(request);
};

beforeAll(async () => {
  const fresh = await freshDatabaseUrl();
  drop = fresh.drop;
  // tokenCacheSeconds 0: a token expired or revoked in the database is refused at once.
  const config = loadConfig(
    {},
    { databaseUrl: fresh.url, demo: true, tokenCacheSeconds: 0, logLevel: 'warn' },
  );
  running = await startApp(config, { logger: false });
  await running.app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(running.app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await running?.close();
  await drop?.();
});

const client = () => createTv2Client({ baseUrl, ...credentials(), fetch: countingFetch });
const credentials = () => ({ user: DEMO_USER.name, secret: DEMO_USER.secret });

/** Makes every token the server has issued unusable, as the server's clock or an operator would. */
async function spoilTokens(how: 'expire' | 'revoke'): Promise<void> {
  const past = new Date(Date.now() - 1000).toISOString();
  const update = running.database.db.updateTable('api_token');
  await (how === 'expire' ? update.set({ expires_at: past }) : update.set({ revoked_at: past })).execute();
}

describe('the typed client against a running server', () => {
  it('drives a consumer app: articles, stock, price, image, a client and its web order', async () => {
    const tv2 = client();
    expect(await tv2.token()).toMatch(/^[\w-]{20,}$/);

    // The retail list to the end, 50 at a time: every article once, in position order.
    const pages = [];
    for await (const page of tv2.pages('B2C_GetAllArticles', { strlimit: '50' })) pages.push(page);
    const all = await tv2.listAll('B2C_GetAllArticles', { strlimit: '50' });
    expect(pages.length).toBe(Math.ceil(all.records.length / 50));
    expect(new Set(all.records.map((a) => a.ARTICLE)).size).toBe(all.records.length);
    expect(all.records.length).toBeGreaterThan(100);
    expect(all.scn).toBe(pages[0]?.B2CGETALLARTICLES.SCN);

    // An article on action today: the article, its stock per shop and its action price.
    const actions = await tv2.listAll('B2C_GetAllActionPrice');
    const articleNo = actions.records[0]!.ARTICLE;
    const article = (await tv2.get('B2C_GetArticle', { strarticle: articleNo })).B2CGETARTICLE.ARTICLES[0]!;
    expect(article.ARTICLE).toBe(articleNo);
    const stock = await tv2.get('B2C_GetArticleStock', { strarticle: articleNo });
    expect(stock.B2CGETARTICLESTOCK.LOCATIONS.length).toBeGreaterThan(0);
    const price = await tv2.get('B2C_GetArticleACTIONPrice', { strarticle: articleNo });
    expect(price.B2CGETARTICLEACTIONPRICE.ACTIONPRICES[0]?.PRICE).toBeGreaterThan(0);

    // Its image as bytes with the media type sniffed by the server; the ETag makes the next read a 304.
    const image = await tv2.binary('B2C_GetArticleImage', { strarticle: articleNo });
    if (image.status !== 200) throw new Error('expected the image');
    expect(image.mediaType).toBe(article.IMAGES[0]?.CONTENTTYPE);
    expect(image.bytes.length).toBe(article.IMAGES[0]?.BYTES);
    expect([...image.bytes.subarray(1, 4)].map((b) => String.fromCharCode(b)).join('')).toBe('PNG');
    const again = await tv2.binary(
      'B2C_GetArticleImage',
      { strarticle: articleNo },
      { ifNoneMatch: image.etag },
    );
    expect(again).toEqual({ status: 304, etag: image.etag });
    // The back office uploads bytes through the same client (a Blob body with its media type).
    const upload = await tv2.api.PUT('/TV2/Admin/articles/{article}/images/{imageno}', {
      params: { path: { article: articleNo, imageno: '2' } },
      body: new Blob([image.bytes], { type: 'image/png' }),
      headers: { 'content-type': 'image/png' },
    });
    expect(upload.response.status).toBe(200);
    const second = await tv2.binary('B2C_GetArticleImage', { strarticle: articleNo, strimageno: '2' });
    expect(second.status === 200 && second.bytes).toEqual(image.bytes);

    // A new retail client, then a web order delivered to its address, then its state.
    const email = `e2e-${Date.now()}@example.com`;
    const created = await tv2.post(
      'B2C_PostClient',
      {
        CLIENTDATA: {
          EMAIL: email,
          FIRSTNAME: 'Eva',
          LASTNAME: 'Client',
          ADDRESS: 'Kerkstraat',
          HOUSENUMBER: '12',
          POSTALCODE: '1017 GB',
          CITY: 'Amsterdam',
          COUNTRY: 'NL',
        },
      },
      { idempotencyKey: `client-${email}` },
    );
    const clientNo = created.B2CPOSTCLIENT.CLIENT;
    expect(created.B2CPOSTCLIENT.CREATED).toBe(true);
    const order = await tv2.post('B2C_PostWebOrder', {
      WEBORDERDATA: {
        CLIENT: clientNo,
        WEBORDER: `WEB-${clientNo}`,
        ORDERLINES: [{ BARCODE: article.SIZES[0]!.BARCODE, QUANTITY: 1 }],
      },
    });
    const orderNo = order.B2CPOSTWEBORDER.ORDERNO;
    const state = await tv2.get('B2C_GetOrderState', {
      strclient: String(clientNo),
      strorderno: String(orderNo),
    });
    expect(state.B2CGETORDERSTATE.ORDERS.map((o) => o.ORDERNO)).toEqual([orderNo]);
    expect(state.B2CGETORDERSTATE.ORDERS[0]?.STATE).toBeTruthy();

    // A refusal is a Tv2Error carrying the problem.
    const missing = await tv2
      .get('B2C_GetArticle', { strarticle: 'NO-SUCH-ARTICLE' })
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(Tv2Error);
    expect((missing as Tv2Error).problem?.code).toBe('ARTICLE_NOT_FOUND');
  });

  it('drives a B2B portal sync: all articles, then the price feed from that SCN, each change once', async () => {
    const tv2 = client();
    const articles = await tv2.listAll('B2B_GetAllArticles', { strlimit: '40' });
    expect(articles.records.length).toBeGreaterThan(100);
    const scn = articles.scn!;

    const controller = new AbortController();
    const feed = tv2
      .follow('B2B_GetPriceChanges', {
        scn,
        query: { strlimit: '2' },
        intervalMs: 20,
        signal: controller.signal,
      })
      [Symbol.asyncIterator]();
    const seen: FeedBatch<'B2B_GetPriceChanges'>['records'] = [];
    /** Reads batches until a pass has caught up, keeping what they bring. */
    const readUntilCaughtUp = async () => {
      for (;;) {
        const { value, done } = await feed.next();
        if (done) throw new Error('the feed ended');
        seen.push(...value.records);
        if (value.caughtUp) return value;
      }
    };
    expect((await readUntilCaughtUp()).records).toEqual([]); // nothing changed since the pass

    const article = articles.records[0]!;
    const setPrice = async (sizex: string, price: number) => {
      const { response } = await tv2.api.PUT('/TV2/Admin/prices', {
        body: {
          PRICES: [
            {
              ARTICLE: article.ARTICLE,
              PRICETYPE: 'SELLING',
              PRICEGROUP: 1,
              CURRENCY: 'EUR',
              SIZEX: sizex,
              PRICE: price,
            },
          ],
        },
      });
      expect(response.status).toBe(200);
    };
    const sizes = article.SIZES.map((s) => s.SIZEX);

    // A change, seen once; the token expires on the server meanwhile and is renewed underneath.
    await setPrice(sizes[0]!, 77.7);
    const before = tokenRequests;
    await spoilTokens('expire');
    while (!seen.some((p) => p.PRICE === 77.7)) await readUntilCaughtUp();
    expect(tokenRequests).toBe(before + 1);

    // A second change after a revocation of the token: seen once, and the first not again.
    await spoilTokens('revoke');
    await setPrice(sizes[1] ?? sizes[0]!, 88.8);
    while (!seen.some((p) => p.PRICE === 88.8)) await readUntilCaughtUp();
    await readUntilCaughtUp();
    controller.abort();
    expect(tokenRequests).toBe(before + 2);

    const mine = seen.filter(
      (p) => p.ARTICLE === article.ARTICLE && p.PRICETYPE === 'SELLING' && p.PRICEGROUP === 1,
    );
    expect(mine.map((p) => [p.SIZEX, p.PRICE])).toEqual([
      [sizes[0], 77.7],
      [sizes[1] ?? sizes[0], 88.8],
    ]);
    expect(seen.length).toBe(2);
  });

  it('follows the stock feed from an SCN: a counted level arrives once, the wholesale view of it', async () => {
    const tv2 = client();
    const { scn } = await tv2.listAll('B2B_GetStocks', { strlimit: '500' });
    const controller = new AbortController();
    const feed = tv2.follow('B2B_GetStockChanges', { scn: scn!, intervalMs: 20, signal: controller.signal });
    const seen: FeedBatch<'B2B_GetStockChanges'>['records'] = [];
    const level = { LOCATION: 'WH', ARTICLE: 'M10002-410', SIZEX: 'M' };
    let counted = false;
    for await (const batch of feed) {
      seen.push(...batch.records);
      if (!batch.caughtUp) continue;
      if (!counted) {
        const { response } = await tv2.api.PUT('/TV2/Admin/stock/levels', {
          body: { REASON: 'stock take', LEVELS: [{ ...level, ONHAND: 4321 }] },
        });
        expect(response.status).toBe(200);
        counted = true;
      } else if (seen.some((l) => l.ONHAND === 4321)) {
        break; // the pass that brought it has ended: nothing more of it can come
      }
    }
    controller.abort();
    expect(seen).toEqual([expect.objectContaining({ ...level, ONHAND: 4321 })]);
  });
});
