import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { article, sizeTable } from './helpers/fixtures.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

/** Two API processes on one database, as in a scaled-out deployment (here: two apps in one process, each with its own connections and caches). */
let a: TestApp;
let b: Awaited<ReturnType<typeof startApp>>;
let tokenA: string;

beforeAll(async () => {
  a = await startTestApp();
  b = await startApp(loadConfig({}, { databaseUrl: a.databaseUrl, demo: false, logLevel: 'silent' }), {
    logger: false,
  });
  tokenA = await a.tokenFor(['B2B', 'B2C']);
  await a.services.catalog.saveSizeTable(sizeTable('CONF', ['S', 'M']));
  await a.services.catalog.saveArticle(article('P1-1', { brand: 'FIRST' }));
});
afterAll(async () => {
  await b.close();
  await a.close();
});

const getFromB = (articleNo: string) =>
  b.app.inject({
    method: 'GET',
    url: '/TV2/Execute/APIPACK.B2B_GetArticle',
    query: { strarticle: articleNo },
    headers: { authorization: `Bearer ${tokenA}` },
  });

describe('several API processes on one database', () => {
  it('accept a token issued by another process', async () => {
    expect((await getFromB('P1-1')).statusCode).toBe(200);
  });

  it('serve a change written through another process at once, although they cache answers', async () => {
    expect((await getFromB('P1-1')).json().B2BGETARTICLE.ARTICLES[0].BRAND).toBe('FIRST');
    await a.services.catalog.saveArticle(article('P1-1', { brand: 'SECOND' }));
    expect((await getFromB('P1-1')).json().B2BGETARTICLE.ARTICLES[0].BRAND).toBe('SECOND');
    await a.services.catalog.deleteArticle('P1-1');
    expect((await getFromB('P1-1')).statusCode).toBe(404);
  });

  it('hand out SCNs from one counter, whichever process writes', async () => {
    const before = (
      await b.app.inject({
        method: 'GET',
        url: '/TV2/Execute/APIPACK.B2B_GetAllArticles',
        headers: { authorization: `Bearer ${tokenA}` },
      })
    ).json().B2BGETALLARTICLES.SCN;
    await a.services.catalog.saveArticle(article('P2-1'));
    await b.services.catalog.saveArticle(article('P3-1'));
    const feed = (
      await a.call('GET', 'B2B_GetAllArticles', { token: tokenA, query: { strscn: String(before) } })
    ).json().B2BGETALLARTICLES;
    expect(feed.ARTICLES.map((x: { ARTICLE: string; SCN: number }) => [x.ARTICLE, x.SCN])).toEqual([
      ['P2-1', before + 1],
      ['P3-1', before + 2],
    ]);
  });
});
