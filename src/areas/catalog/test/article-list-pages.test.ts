import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { articleInput } from '../catalog-input.ts';
import { seedCatalog } from '../demo/seed.ts';

/**
 * Article list pages of up to 1,000 articles, put together from the documents' bytes
 * (article-list-answer.ts) in buffers used again once sent: every answer is byte for byte the JSON
 * of the articles as built from their tables, lists and feeds, pages of different sizes in turn.
 */

let t: TestApp;
let token: string;

/** The answer as every list answered before it was put together from the documents' bytes. */
async function builtAnswer(
  audience: 'B2B' | 'B2C',
  page: { sinceScn: number; offset: number; limit: number },
  scn: number,
) {
  const built = await t.services.catalog.listArticles(audience, page);
  return JSON.stringify({
    [`${audience}GETALLARTICLES`]: {
      SCN: scn,
      NEXTOFFSET: built.nextOffset,
      ARTICLES: built.items,
      DELETED: built.deleted,
    },
  });
}

beforeAll(async () => {
  t = await startTestApp();
  token = await t.tokenFor(['B2B', 'B2C']);
  await seedCatalog(t.services, { articles: 620 });
}, 120_000);
afterAll(() => t.close());

describe('large article list pages', () => {
  it('answers pages of up to 1,000 articles as built from the tables', async () => {
    for (const audience of ['B2B', 'B2C'] as const) {
      for (const [offset, limit] of [
        [1, 1000],
        [1, 250],
        [1, 251],
        [200, 500],
        [400, 1000],
      ] as const) {
        const res = await t.call('GET', `${audience}_GetAllArticles`, {
          token,
          query: { stroffset: String(offset), strlimit: String(limit) },
        });
        expect(res.statusCode, res.body).toBe(200);
        const scn = res.json()[`${audience}GETALLARTICLES`].SCN;
        expect(res.body).toBe(await builtAnswer(audience, { sinceScn: 0, offset, limit }, scn));
      }
    }
  });

  it('answers a feed page of hundreds of changes with its tombstones', async () => {
    const nos = (await t.database.db.selectFrom('article').select('article_no').orderBy('pos').execute()).map(
      (r) => r.article_no,
    );
    const scn = (await t.call('GET', 'B2B_GetAllArticles', { token, query: { strlimit: '1' } })).json()
      .B2BGETALLARTICLES.SCN;
    // Retail stops seeing some (tombstones of the retail feed), others change for everyone.
    const changed = nos.filter((_, i) => i % 3 === 0);
    for (const [i, no] of changed.entries()) {
      const res = await t.call('GET', 'B2B_GetArticle', { token, query: { strarticle: no } });
      const body = res.json().B2BGETARTICLE.ARTICLES[0];
      await t.services.catalog.saveArticle(
        articleInput({
          ...body,
          BRAND: `FEED-${i}`,
          RETAIL: i % 2 === 0 ? false : body.RETAIL,
        }),
      );
    }
    for (const audience of ['B2B', 'B2C'] as const) {
      const res = await t.call('GET', `${audience}_GetAllArticles`, {
        token,
        query: { strscn: String(scn), stroffset: '1', strlimit: '1000' },
      });
      expect(res.statusCode, res.body).toBe(200);
      const answer = res.json()[`${audience}GETALLARTICLES`];
      expect(answer.ARTICLES.length + answer.DELETED.length).toBeGreaterThan(0);
      expect(res.body).toBe(
        await builtAnswer(audience, { sinceScn: scn, offset: 1, limit: 1000 }, answer.SCN),
      );
    }
  });
});
