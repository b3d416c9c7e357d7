import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { article, sizeTable } from '../../../../test/helpers/fixtures.ts';
import { startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { seedCatalog } from '../demo/seed.ts';

/**
 * Paging by stable position (docs/architecture.md, "Paging"; docs/catalog.md): every catalog list
 * and feed pages by the records' `pos`, so a page is full whenever enough records remain, a pass
 * gives every live record once, and deletions and insertions during a pass shift nothing.
 */

let t: TestApp;
let token: string;

type Page = { SCN: number; NEXTOFFSET: number | null; DELETED: unknown[] } & Record<string, unknown>;

/** The lists and feeds of the catalog: operation, answer root, list key and the key of an item. */
const LISTS = [
  { op: 'B2B_GetAllArticles', root: 'B2BGETALLARTICLES', list: 'ARTICLES', key: (a: Item) => a.ARTICLE },
  { op: 'B2C_GetAllArticles', root: 'B2CGETALLARTICLES', list: 'ARTICLES', key: (a: Item) => a.ARTICLE },
  {
    op: 'B2C_GetAllArticlesImages',
    root: 'B2CGETALLARTICLESIMAGES',
    list: 'IMAGES',
    key: (i: Item) => `${i.ARTICLE}/${i.IMAGENO}`,
  },
  { op: 'GetSizeTables', root: 'GETSIZETABLES', list: 'SIZETABLES', key: (s: Item) => String(s.SIZETABLE) },
] as const;
type Item = Record<string, unknown>;
type List = (typeof LISTS)[number];

async function page(l: List, query: Record<string, string>): Promise<Page> {
  const res = await t.call('GET', l.op, { token, query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json()[l.root];
}

/** A whole pass from stroffset 1, page by page; `between` runs after each page. */
async function pass(
  l: List,
  limit: number,
  options: { strscn?: number; between?: (pageNo: number) => Promise<void> } = {},
) {
  const pages: Page[] = [];
  let offset: number | null = 1;
  while (offset !== null) {
    const p = await page(l, {
      strlimit: String(limit),
      stroffset: String(offset),
      strscn: String(options.strscn ?? 0),
    });
    pages.push(p);
    await options.between?.(pages.length);
    expect(p.NEXTOFFSET === null || p.NEXTOFFSET > offset).toBe(true);
    offset = p.NEXTOFFSET;
  }
  return {
    pages,
    keys: pages.flatMap((p) => (p[l.list] as Item[]).map(l.key)),
    deleted: pages.flatMap((p) => p.DELETED),
  };
}

/** What each list holds, from the tables: the live records its audience sees, in position order. */
async function expected(l: List): Promise<string[]> {
  const db = t.database.db;
  if (l.op === 'GetSizeTables') {
    const rows = await db
      .selectFrom('size_table')
      .select('code')
      .where('deleted', '=', 0)
      .orderBy('pos')
      .execute();
    return rows.map((r) => r.code);
  }
  if (l.op === 'B2C_GetAllArticlesImages') {
    const rows = await db
      .selectFrom('article_image as i')
      .innerJoin('article as a', 'a.article_no', 'i.article_no')
      .select(['i.article_no', 'i.image_no'])
      .where('i.deleted', '=', 0)
      .where('a.deleted', '=', 0)
      .where('a.retail', '=', 1)
      .where('a.active', '=', 1)
      .orderBy('i.pos')
      .execute();
    return rows.map((r) => `${r.article_no}/${r.image_no}`);
  }
  let query = db.selectFrom('article').select('article_no').where('deleted', '=', 0);
  if (l.op === 'B2C_GetAllArticles') query = query.where('retail', '=', 1).where('active', '=', 1);
  return (await query.orderBy('pos').execute()).map((r) => r.article_no);
}

const live = (articleNo: string) =>
  t.database.db
    .selectFrom('article')
    .select(['article_no', 'retail', 'active'])
    .where('article_no', '=', articleNo)
    .executeTakeFirstOrThrow();

beforeAll(async () => {
  t = await startTestApp();
  token = await t.tokenFor(['B2B', 'B2C']);
  // The demo catalogue (some articles inactive or not for retail, each with a swatch image), then
  // some deleted articles and images among them: records a list skips.
  await seedCatalog(t.services, { articles: 48 });
  await t.services.catalog.saveSizeTables([sizeTable('PAGING', ['S', 'M']), sizeTable('TMP', ['X'])]);
  const nos = (await t.database.db.selectFrom('article').select('article_no').orderBy('pos').execute()).map(
    (r) => r.article_no,
  );
  for (const no of [nos[0], nos[5], nos[6], nos[20], nos[47]])
    await t.services.catalog.deleteArticle(String(no));
  await t.services.catalog.deleteImage(String(nos[10]), 1);
  await t.services.catalog.deleteSizeTable('TMP');
});
afterAll(() => t.close());

describe('catalog lists page by stable position', () => {
  it('the demo data has records each list skips (deleted, unpublished or inactive)', async () => {
    const all = await t.database.db.selectFrom('article').select(['deleted', 'retail', 'active']).execute();
    expect(all.filter((a) => a.deleted === 1).length).toBeGreaterThan(0);
    expect(all.filter((a) => a.deleted === 0 && (a.retail === 0 || a.active === 0)).length).toBeGreaterThan(
      2,
    );
  });

  for (const l of LISTS) {
    it(`${l.op}: a page holds strlimit records while that many remain, and a pass gives each live record once`, async () => {
      const want = await expected(l);
      expect(want.length).toBeGreaterThan(3);
      for (const limit of [1, 3, 8]) {
        const { pages, keys } = await pass(l, limit);
        expect(keys).toEqual(want);
        for (const p of pages.slice(0, -1)) expect(p[l.list]).toHaveLength(limit);
        expect((pages.at(-1)?.[l.list] as Item[]).length).toBeGreaterThan(0);
        expect(pages.at(-1)?.NEXTOFFSET).toBeNull();
      }
    });
  }

  it('B2C_GetAllArticles?strlimit=8 gives 8 articles on the demo data', async () => {
    const first = await page(LISTS[1], { strlimit: '8' });
    expect(first.ARTICLES).toHaveLength(8);
  });

  it('NEXTOFFSET is the position of the first record not shown', async () => {
    const want = await expected(LISTS[1]);
    const first = await page(LISTS[1], { strlimit: '4' });
    const next = await t.database.db
      .selectFrom('article')
      .select('pos')
      .where('article_no', '=', String(want[4]))
      .executeTakeFirstOrThrow();
    expect(first.NEXTOFFSET).toBe(Number(next.pos));
    const second = await page(LISTS[1], { strlimit: '4', stroffset: String(first.NEXTOFFSET) });
    expect((second.ARTICLES as Item[])[0]?.ARTICLE).toBe(want[4]);
  });

  it('a feed page holds strlimit changes (live and deleted) while that many remain', async () => {
    const scn = (await page(LISTS[0], { strlimit: '1' })).SCN;
    const nos = await expected(LISTS[0]);
    const touched = [nos[1], nos[3], nos[4], nos[9], nos[12], nos[30]].map(String);
    for (const [i, no] of touched.entries()) {
      if (i % 2 === 0) await t.services.catalog.deleteArticle(no);
      else await t.services.catalog.saveArticle(article(no, { sizes: [], sizeTableCode: 'PAGING' }));
    }
    const { pages, keys, deleted } = await pass(LISTS[0], 2, { strscn: scn });
    for (const p of pages.slice(0, -1)) expect((p.ARTICLES as Item[]).length + p.DELETED.length).toBe(2);
    expect([...keys, ...deleted].sort()).toEqual([...touched].sort());
    expect(deleted.sort()).toEqual(touched.filter((_, i) => i % 2 === 0).sort());
  });
});

describe('a pass is not disturbed by writes during it', () => {
  it('a deletion or unpublishing never shifts a live record into a page already read', async () => {
    const l = LISTS[1];
    const before = await expected(l);
    const { keys } = await pass(l, 5, {
      between: async (pageNo) => {
        if (pageNo !== 2) return;
        // two records of the pages already read go: the next page must start where it would have
        await t.services.catalog.deleteArticle(String(before[0]));
        const hidden = await live(String(before[6]));
        expect(hidden.retail).toBe(1);
        await t.services.catalog.saveArticle(
          article(String(before[6]), { sizes: [], sizeTableCode: 'PAGING', retail: false }),
        );
      },
    });
    expect(keys).toEqual(before);
  });

  it('a record inserted during a pass comes after the existing ones', async () => {
    const l = LISTS[0];
    const before = await expected(l);
    // sorts first by article number: by number it would shift every record one place on
    const { keys } = await pass(l, 4, {
      between: async (pageNo) => {
        if (pageNo === 1)
          await t.services.catalog.saveArticle(article('00000-001', { sizes: [], sizeTableCode: 'PAGING' }));
      },
    });
    expect(keys).toEqual([...before, '00000-001']);
  });
});

describe('the image feed costs what changed', () => {
  it('reports images when their article stops or starts being seen by retail, not on other changes', async () => {
    const l = LISTS[2];
    const shown = (await expected(l))[0] ?? '';
    const [no] = shown.split('/');
    const scn = (await page(l, { strlimit: '1' })).SCN;
    // an article change that retail visibility does not depend on: the image is not in the feed
    const row = await live(String(no));
    expect(row).toMatchObject({ retail: 1, active: 1 });
    const stored = await t.database.db
      .selectFrom('article')
      .select(['size_table_code'])
      .where('article_no', '=', String(no))
      .executeTakeFirstOrThrow();
    const sizes = await t.database.db
      .selectFrom('article_size')
      .select(['sizex', 'barcode'])
      .where('article_no', '=', String(no))
      .orderBy('position')
      .execute();
    const base = article(String(no), { sizeTableCode: stored.size_table_code, sizes });
    await t.services.catalog.saveArticle({ ...base, brand: 'ZUIDERZEE' });
    const quiet = await page(l, { strscn: String(scn) });
    expect(quiet.IMAGES).toEqual([]);
    expect(quiet.DELETED).toEqual([]);

    await t.services.catalog.saveArticle({ ...base, brand: 'ZUIDERZEE', retail: false });
    const gone = await page(l, { strscn: String(scn) });
    expect(gone.IMAGES).toEqual([]);
    expect(gone.DELETED).toEqual([{ ARTICLE: no, IMAGENO: 1 }]);

    await t.services.catalog.saveArticle({ ...base, brand: 'ZUIDERZEE', active: false });
    await t.services.catalog.saveArticle({ ...base, brand: 'ZUIDERZEE' });
    const back = await page(l, { strscn: String(gone.SCN) });
    expect((back.IMAGES as Item[]).map(l.key)).toEqual([shown]);
  });
});
