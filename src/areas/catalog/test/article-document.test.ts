import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatementCounter } from '../../../../test/helpers/statement-counter.ts';
import { startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { directReader } from '../../../kernel/db/sqlite-reader.ts';
import { currentScn, inWriteTransaction } from '../../../kernel/db/unit-of-work.ts';
import { LANGUAGE_SLOTS } from '../../../kernel/language.ts';
import { visibleTo } from '../article-rules.ts';
import { articlesToWire } from '../article-wire.ts';
import { type ArticleBody, articleInput } from '../catalog-input.ts';
import { CatalogRepository } from '../catalog-repository.ts';
import { CatalogService } from '../catalog-service.ts';
import { seedCatalog } from '../demo/seed.ts';
import {
  fillArticleDocuments,
  stampImagesWithArticleScn,
} from '../migrations/0016_catalog_article_documents.ts';

/**
 * The single-article read (B2B_GetArticle, B2C_GetArticle) from the stored article document
 * (docs/catalog.md, "The article document"): the same bytes as the answer built from the tables,
 * in two statements (the SCN, then the article with its document), after every kind of change.
 */

let t: TestApp;
let token: string;
const counter = new StatementCounter();
/** A catalog service over the counted database; a fresh one has an empty answer cache. */
const countedService = () => {
  const db = t.database.db.withPlugin(counter);
  // the single-article read goes to the database's reader: here one over the counted database
  return new CatalogService({ ...t.database, db, reader: directReader(db) });
};

function png(shade: number): Buffer {
  const image = new PNG({ width: 3, height: 3 });
  image.data.fill(shade);
  return PNG.sync.write(image);
}

/** The answer as built from the tables, as every answer was before documents (null: no such live article). */
async function fromTables(articleNo: string) {
  const read = new CatalogRepository(t.database.db);
  const row = await read.findArticle(articleNo);
  if (!row || row.deleted === 1) return null;
  const [wire] = articlesToWire([row], await read.childrenOf([articleNo]));
  return { row, json: JSON.stringify(wire) };
}

/**
 * Both operations answer the article exactly as built from its tables (or 404 where the audience
 * does not see it), and a service with nothing cached reads it in two statements, by number and
 * by barcode.
 */
async function expectCurrent(articleNo: string): Promise<void> {
  const want = await fromTables(articleNo);
  for (const [op, audience] of [
    ['B2B_GetArticle', 'B2B'],
    ['B2C_GetArticle', 'B2C'],
  ] as const) {
    const res = await t.call('GET', op, { token, query: { strarticle: articleNo } });
    if (want && visibleTo(audience, want.row)) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).toBe(`{"${op.replace('_', '').toUpperCase()}":{"ARTICLES":[${want.json}]}}`);
    } else {
      expect(res.statusCode, `${op} ${articleNo}`).toBe(404);
    }
  }
  if (!want) return;
  const service = countedService();
  counter.count = 0;
  expect(await service.articleJson('B2B', { articleNo })).toBe(want.json);
  expect(counter.count, 'statements of a single-article read').toBe(2);
  const barcode = JSON.parse(want.json).SIZES[0]?.BARCODE;
  if (barcode) {
    counter.count = 0;
    expect(await countedService().articleJson('B2B', { barcode })).toBe(want.json);
    expect(counter.count, 'statements of a single-article read by barcode').toBe(2);
  }
}

/** The article as its written form, changed by `change`, saved (`written`: it was a change). */
async function edit(
  articleNo: string,
  change: (body: ArticleBody) => ArticleBody,
  written: number | null = 1,
): Promise<void> {
  const res = await t.call('GET', 'B2B_GetArticle', { token, query: { strarticle: articleNo } });
  const body = res.json().B2BGETARTICLE.ARTICLES[0] as ArticleBody;
  const result = await t.services.catalog.saveArticle(articleInput(change(body)));
  if (written !== null) expect(result).toMatchObject({ written });
}

let nos: string[] = [];

/**
 * A whole pass of B2B_GetAllArticles or B2C_GetAllArticles (answered from the documents) equals
 * the same pass of the service's article objects, built from the tables; answers the pages' SCN.
 */
async function expectListsAsBuilt(audience: 'B2B' | 'B2C', strscn = 0): Promise<void> {
  const op = `${audience}_GetAllArticles`;
  const root = `${audience}GETALLARTICLES`;
  let offset: number | null = 1;
  while (offset !== null) {
    const res = await t.call('GET', op, {
      token,
      query: { strscn: String(strscn), stroffset: String(offset), strlimit: '7' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json()[root];
    const built = await t.services.catalog.listArticles(audience, { sinceScn: strscn, offset, limit: 7 });
    expect(answer.ARTICLES).toEqual(built.items);
    // byte for byte the objects' JSON, in the schema's key order
    expect(res.body).toBe(
      JSON.stringify({
        [root]: {
          SCN: answer.SCN,
          NEXTOFFSET: built.nextOffset,
          ARTICLES: built.items,
          DELETED: built.deleted,
        },
      }),
    );
    offset = answer.NEXTOFFSET;
  }
}

beforeAll(async () => {
  t = await startTestApp();
  token = await t.tokenFor(['B2B', 'B2C']);
  await seedCatalog(t.services, { articles: 30 });
  nos = (await t.database.db.selectFrom('article').select('article_no').orderBy('pos').execute()).map(
    (r) => r.article_no,
  );
});
afterAll(() => t.close());

describe('the single-article read from the article document', () => {
  it('answers every demo article as before, for wholesale and retail, with every language slot', async () => {
    let everySlot = 0;
    for (const no of nos) {
      await expectCurrent(no);
      const wire = JSON.parse((await fromTables(no))?.json ?? '{}');
      if (LANGUAGE_SLOTS.every((slot) => wire.ARTICLEDESCRIPTION[slot] !== '')) everySlot++;
    }
    expect(everySlot).toBe(nos.length);
    // the demo has articles retail does not see, answered 404 there
    const rows = await t.database.db.selectFrom('article').select(['retail', 'active']).execute();
    expect(rows.some((r) => r.retail === 0 || r.active === 0)).toBe(true);
  });

  it('answers the article lists and feeds from the documents, one statement a page after the SCN', async () => {
    const scn = (await t.call('GET', 'B2B_GetAllArticles', { token, query: { strlimit: '1' } })).json()
      .B2BGETALLARTICLES.SCN;
    for (const audience of ['B2B', 'B2C'] as const) {
      await expectListsAsBuilt(audience);
      counter.count = 0;
      const page = await countedService().listArticleJson(audience, { sinceScn: 0, offset: 1, limit: 7 });
      expect(page.items).toHaveLength(7);
      expect(counter.count, 'statements of a page').toBe(2);
    }
    await edit(String(nos[1]), (a) => ({ ...a, BRAND: 'FEED', RETAIL: !a.RETAIL }));
    await edit(String(nos[2]), (a) => ({ ...a, SEASON: '2027-AW' }));
    for (const audience of ['B2B', 'B2C'] as const) await expectListsAsBuilt(audience, scn);
  });

  it('reflects every kind of change in the next read', async () => {
    const no = String(nos[3]);
    await edit(no, (a) => ({ ...a, RETAIL: true, ACTIVE: true }), null);
    await expectCurrent(no);
    await edit(no, (a) => ({
      ...a,
      BRAND: 'ZUIDERZEE',
      ARTICLEDESCRIPTION: { ...a.ARTICLEDESCRIPTION, LANGUAGE_4: 'Neuf' },
    }));
    await expectCurrent(no);
    await edit(no, (a) => ({ ...a, SIZES: a.SIZES.slice(1) }));
    await expectCurrent(no);
    await edit(no, (a) => ({
      ...a,
      ARTICLEPARAMETERCODES: [{ PARAMETERCODE: 7, LANGUAGE_2: 'Linen' }],
      ARTICLEPARAMETERNUMBERS: [{ PARAMETERCODE: 9, PARAMETERNO: 3, LANGUAGE_1: 'Drie' }],
    }));
    await expectCurrent(no);
    await t.services.catalog.putImage(no, 2, png(90));
    await expectCurrent(no);
    expect(JSON.parse((await fromTables(no))?.json ?? '{}').IMAGES).toHaveLength(2);
    await t.services.catalog.putImage(no, 2, png(10));
    await expectCurrent(no);
    await t.services.catalog.deleteImage(no, 1);
    await expectCurrent(no);
    await edit(no, (a) => ({ ...a, RETAIL: false }));
    await expectCurrent(no);
    await edit(no, (a) => ({ ...a, RETAIL: true }));
    await expectCurrent(no);
    await edit(no, (a) => ({ ...a, ACTIVE: false }));
    await expectCurrent(no);
    const written = (await t.call('GET', 'B2B_GetArticle', { token, query: { strarticle: no } })).json()
      .B2BGETARTICLE.ARTICLES[0] as ArticleBody;
    await t.services.catalog.deleteArticle(no);
    await expectCurrent(no);
    const doc = await t.database.db
      .selectFrom('article_document')
      .select('article_no')
      .where('article_no', '=', no)
      .execute();
    expect(doc).toEqual([]);
    // saved again after its deletion, it is answered again (its images went with the deletion)
    await t.services.catalog.saveArticle(articleInput({ ...written, ACTIVE: true }));
    await expectCurrent(no);
    expect(JSON.parse((await fromTables(no))?.json ?? '{}').IMAGES).toEqual([]);
  });

  it('serves an article whose document is missing or stale from its tables', async () => {
    const no = String(nos[6]);
    await t.database.db.deleteFrom('article_document').where('article_no', '=', no).execute();
    const service = countedService();
    expect(await service.articleJson('B2B', { articleNo: no })).toBe((await fromTables(no))?.json);
    // a change of the row alone (no document written with it): the document no longer counts
    const since = await currentScn(t.database.db);
    const other = String(nos[7]);
    const scn = await inWriteTransaction(t.database, async (uow) => {
      const stamp = await uow.stamp();
      await uow.db
        .updateTable('article')
        .set({ brand: 'BY HAND', scn: stamp })
        .where('article_no', '=', other)
        .execute();
      return stamp;
    });
    const answer = JSON.parse(await countedService().articleJson('B2B', { articleNo: other }));
    expect(answer.BRAND).toBe('BY HAND');
    expect(answer.SCN).toBe(scn);
    // the lists too
    await expectListsAsBuilt('B2B');
    await expectListsAsBuilt('B2B', since);
  });

  it('migration 0016 writes the documents of a database without them, and keeps the image feed exact', async () => {
    const shown = String(nos[9]);
    await edit(shown, (a) => ({ ...a, RETAIL: true, ACTIVE: true }), null);
    const image = () =>
      t.database.db
        .selectFrom('article_image')
        .select('scn')
        .where('article_no', '=', shown)
        .executeTakeFirstOrThrow();
    const { scn: imageScn } = await image();
    const feedScn = (
      await t.call('GET', 'B2C_GetAllArticlesImages', { token, query: { strlimit: '1' } })
    ).json().B2CGETALLARTICLESIMAGES.SCN;
    await edit(shown, (a) => ({ ...a, RETAIL: false }));
    // as a database written before 0016: no documents, the image not stamped when its article was unpublished
    await t.database.db.deleteFrom('article_document').execute();
    await t.database.db
      .updateTable('article_image')
      .set({ scn: imageScn })
      .where('article_no', '=', shown)
      .execute();

    await stampImagesWithArticleScn(t.database.db);
    await fillArticleDocuments(t.database.db);

    const live = await t.database.db
      .selectFrom('article')
      .select('article_no')
      .where('deleted', '=', 0)
      .execute();
    const docs = await t.database.db.selectFrom('article_document').select('article_no').execute();
    expect(docs.map((d) => d.article_no).sort()).toEqual(live.map((a) => a.article_no).sort());
    for (const no of nos.slice(0, 12)) await expectCurrent(no);
    const feed = (
      await t.call('GET', 'B2C_GetAllArticlesImages', { token, query: { strscn: String(feedScn) } })
    ).json().B2CGETALLARTICLESIMAGES;
    expect(feed.DELETED).toContainEqual({ ARTICLE: shown, IMAGENO: 1 });
  });
});
