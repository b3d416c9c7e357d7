import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { article, sizeTable } from '../../../../test/helpers/fixtures.ts';
import { etagOf, samePicture } from '../../../../test/helpers/images.ts';
import { expectScnStep } from '../../../../test/helpers/scn.ts';
import { startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';

let t: TestApp;
let both: string;

function png(): Buffer {
  const image = new PNG({ width: 4, height: 4 });
  image.data.fill(200);
  return PNG.sync.write(image);
}

beforeAll(async () => {
  t = await startTestApp();
  both = await t.tokenFor(['B2B', 'B2C']);
  await t.services.catalog.saveSizeTables([
    sizeTable('CONF', ['S', 'M', 'L', 'XL']),
    sizeTable('ONE', ['ONESIZE']),
  ]);
  await t.services.catalog.saveArticles([
    article('A100-010'),
    article('A100-020', { retail: false }),
    article('A200-010', { active: false }),
    article('A300-050', {
      sizeTableCode: 'ONE',
      sizes: [{ sizex: 'ONESIZE', barcode: '4006381333931' }],
      vatRateBp: 950,
    }),
    article('A400-010'),
  ]);
});
afterAll(() => t.close());

const list = async (op: string, query: Record<string, string> = {}) => {
  const res = await t.call('GET', op, { token: both, query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('B2B_GetAllArticles and B2C_GetAllArticles', () => {
  it('lists every article for wholesale with its structure and texts', async () => {
    const body = (await list('B2B_GetAllArticles')).B2BGETALLARTICLES;
    expect(body.ARTICLES.map((a: { ARTICLE: string }) => a.ARTICLE)).toEqual([
      'A100-010',
      'A100-020',
      'A200-010',
      'A300-050',
      'A400-010',
    ]);
    expect(body.NEXTOFFSET).toBeNull();
    expect(body.DELETED).toEqual([]);
    expect(body.SCN).toBeGreaterThan(0);
    const a = body.ARTICLES[0];
    expect(a).toMatchObject({
      ARTICLE: 'A100-010',
      MODEL: 'A100',
      COLOUR: '010',
      ARTICLEDESCRIPTION: {
        LANGUAGE_1: 'Artikel A100-010',
        LANGUAGE_2: 'Article A100-010',
        LANGUAGE_11: '',
        LANGUAGE_4: '',
      },
      ARTICLEPARAMETERCODES: [{ PARAMETERCODE: 1, LANGUAGE_1: 'Katoen', LANGUAGE_2: 'Cotton' }],
      ARTICLEPARAMETERNUMBERS: [{ PARAMETERCODE: 10, PARAMETERNO: 40, LANGUAGE_2: 'Wash at 40 °C' }],
      PERCVAT: 21,
      SIZETABLE: 'CONF',
      ACTIVE: true,
      RETAIL: true,
    });
    expect(a.SIZES.map((s: { SIZEX: string; POSITION: number }) => [s.SIZEX, s.POSITION])).toEqual([
      ['S', 1],
      ['M', 2],
    ]);
    expect(body.ARTICLES[3].PERCVAT).toBe(9.5);
  });

  it('shows retail only the active articles published for retail', async () => {
    const body = (await list('B2C_GetAllArticles')).B2CGETALLARTICLES;
    expect(body.ARTICLES.map((a: { ARTICLE: string }) => a.ARTICLE)).toEqual([
      'A100-010',
      'A300-050',
      'A400-010',
    ]);
  });

  it('pages by position from stroffset, strlimit records, and names the next page', async () => {
    const first = (await list('B2B_GetAllArticles', { strlimit: '2' })).B2BGETALLARTICLES;
    expect(first.ARTICLES.map((a: { ARTICLE: string }) => a.ARTICLE)).toEqual(['A100-010', 'A100-020']);
    expect(first.NEXTOFFSET).toBe(3);
    const last = (await list('B2B_GetAllArticles', { strlimit: '2', stroffset: '5' })).B2BGETALLARTICLES;
    expect(last.ARTICLES.map((a: { ARTICLE: string }) => a.ARTICLE)).toEqual(['A400-010']);
    expect(last.NEXTOFFSET).toBeNull();
    // NEXTOFFSET is the position of the next record shown, past those retail does not see
    const retail = (await list('B2C_GetAllArticles', { strlimit: '1' })).B2CGETALLARTICLES;
    expect(retail.ARTICLES.map((a: { ARTICLE: string }) => a.ARTICLE)).toEqual(['A100-010']);
    expect(retail.NEXTOFFSET).toBe(4);
    const next = (await list('B2C_GetAllArticles', { strlimit: '1', stroffset: '4' })).B2CGETALLARTICLES;
    expect(next.ARTICLES.map((a: { ARTICLE: string }) => a.ARTICLE)).toEqual(['A300-050']);
    expect(next.NEXTOFFSET).toBe(5);
  });

  it('returns only what changed after strscn, deletions included', async () => {
    const before = (await list('B2B_GetAllArticles')).B2BGETALLARTICLES.SCN;
    expect((await list('B2B_GetAllArticles', { strscn: String(before) })).B2BGETALLARTICLES.ARTICLES).toEqual(
      [],
    );

    await t.services.catalog.saveArticle(article('A500-010'));
    await t.services.catalog.deleteArticle('A400-010');
    await t.services.catalog.saveArticle(article('A100-010', { retail: false, sizes: [] }));

    const b2b = (await list('B2B_GetAllArticles', { strscn: String(before) })).B2BGETALLARTICLES;
    expect(b2b.ARTICLES.map((a: { ARTICLE: string }) => a.ARTICLE)).toEqual(['A100-010', 'A500-010']);
    expect(b2b.DELETED).toEqual(['A400-010']);
    expectScnStep(before, b2b.SCN, 3);

    // for retail, an article taken off retail is gone just like a deleted one
    const b2c = (await list('B2C_GetAllArticles', { strscn: String(before) })).B2CGETALLARTICLES;
    expect(b2c.ARTICLES.map((a: { ARTICLE: string }) => a.ARTICLE)).toEqual(['A500-010']);
    expect(b2c.DELETED).toEqual(['A100-010', 'A400-010']);

    // a full list no longer shows the deleted article
    const all = (await list('B2B_GetAllArticles')).B2BGETALLARTICLES;
    expect(all.ARTICLES.map((a: { ARTICLE: string }) => a.ARTICLE)).not.toContain('A400-010');
    expect(all.DELETED).toEqual([]);

    // restore for the other tests
    await t.services.catalog.saveArticle(article('A100-010'));
  });
});

describe('B2B_GetArticle and B2C_GetArticle', () => {
  it('finds an article by number or by the barcode of a size', async () => {
    const byNo = await t.call('GET', 'B2B_GetArticle', { token: both, query: { strarticle: 'A300-050' } });
    expect(byNo.statusCode).toBe(200);
    expect(byNo.headers['content-type']).toMatch(/^application\/json/);
    const wire = byNo.json().B2BGETARTICLE.ARTICLES;
    expect(wire).toHaveLength(1);
    expect(wire[0].SIZES).toEqual([{ SIZEX: 'ONESIZE', POSITION: 1, BARCODE: '4006381333931' }]);
    const byBarcode = await t.call('GET', 'B2C_GetArticle', {
      token: both,
      query: { strbarcode: '4006381333931' },
    });
    expect(byBarcode.json().B2CGETARTICLE.ARTICLES[0].ARTICLE).toBe('A300-050');
  });

  it('answers 404 for an unknown article and for one not published for retail', async () => {
    const unknown = await t.call('GET', 'B2B_GetArticle', { token: both, query: { strarticle: 'NOPE' } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('ARTICLE_NOT_FOUND');
    expect(
      (await t.call('GET', 'B2B_GetArticle', { token: both, query: { strarticle: 'A100-020' } })).statusCode,
    ).toBe(200);
    const hidden = await t.call('GET', 'B2C_GetArticle', { token: both, query: { strarticle: 'A100-020' } });
    expect(hidden.statusCode).toBe(404);
  });

  it('needs exactly one of strarticle and strbarcode', async () => {
    const none = await t.call('GET', 'B2B_GetArticle', { token: both });
    expect(none.statusCode).toBe(400);
    expect(none.json().errors[0].name).toBe('strarticle');
    const bad = await t.call('GET', 'B2B_GetArticle', { token: both, query: { strbarcode: '12ab' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].name).toBe('strbarcode');
  });

  it('shows a change at once (the answer cache follows the article SCN)', async () => {
    const get = async () =>
      (await t.call('GET', 'B2B_GetArticle', { token: both, query: { strarticle: 'A500-010' } })).json()
        .B2BGETARTICLE.ARTICLES[0];
    const before = await get();
    expect(before.BRAND).toBe('NORDWIND');
    await t.services.catalog.saveArticle(article('A500-010', { brand: 'ZUIDERZEE' }));
    const after = await get();
    expect(after.BRAND).toBe('ZUIDERZEE');
    expect(after.SCN).toBeGreaterThan(before.SCN);
    await t.services.catalog.deleteArticle('A500-010');
    expect(
      (await t.call('GET', 'B2B_GetArticle', { token: both, query: { strarticle: 'A500-010' } })).statusCode,
    ).toBe(404);
  });
});

describe('article images', () => {
  it('stores an image with its sniffed type, lists it and serves its bytes with an ETag', async () => {
    const bytes = png();
    const { contentType } = await t.services.catalog.putImage('A300-050', 1, bytes);
    expect(contentType).toBe('image/png');

    const listed = (await list('B2C_GetAllArticlesImages')).B2CGETALLARTICLESIMAGES;
    expect(listed.IMAGES).toEqual([
      expect.objectContaining({
        ARTICLE: 'A300-050',
        IMAGENO: 1,
        CONTENTTYPE: 'image/png',
        BYTES: expect.any(Number),
      }),
    ]);

    const res = await t.call('GET', 'B2C_GetArticleImage', {
      token: both,
      query: { strarticle: 'A300-050' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    // stored as decoded and encoded again: the same picture, listed with the size served
    expect(await samePicture(res.rawPayload, bytes)).toBe(true);
    expect(listed.IMAGES[0].BYTES).toBe(res.rawPayload.length);
    expect(res.headers.etag).toBe(etagOf(res.rawPayload));
    const etag = String(res.headers.etag);
    const again = await t.call('GET', 'B2C_GetArticleImage', {
      token: both,
      query: { strarticle: 'A300-050', strimageno: '1' },
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);

    // the article's own SCN moved with its image
    const a = (
      await t.call('GET', 'B2B_GetArticle', { token: both, query: { strarticle: 'A300-050' } })
    ).json();
    expect(a.B2BGETARTICLE.ARTICLES[0].IMAGES).toEqual([
      expect.objectContaining({ IMAGENO: 1, CONTENTTYPE: 'image/png', BYTES: res.rawPayload.length }),
    ]);
  });

  it('reports an image as deleted for retail when its article is taken off retail', async () => {
    await t.services.catalog.saveArticle(article('F1-1'));
    await t.services.catalog.putImage('F1-1', 1, png());
    const before = (await list('B2C_GetAllArticlesImages')).B2CGETALLARTICLESIMAGES.SCN;
    await t.services.catalog.saveArticle(article('F1-1', { retail: false }));
    const feed = (await list('B2C_GetAllArticlesImages', { strscn: String(before) })).B2CGETALLARTICLESIMAGES;
    expect(feed.DELETED).toEqual([{ ARTICLE: 'F1-1', IMAGENO: 1 }]);
    await t.services.catalog.deleteArticle('F1-1');
  });

  it('refuses bytes that are not an image, whatever the client claims', async () => {
    await expect(
      t.services.catalog.putImage('A300-050', 2, Buffer.from('<svg onload=alert(1)>')),
    ).rejects.toMatchObject({
      code: 'UNSUPPORTED_IMAGE',
    });
  });

  it('reports a deleted image in the change feed and no longer serves it', async () => {
    const before = (await list('B2C_GetAllArticlesImages')).B2CGETALLARTICLESIMAGES.SCN;
    await t.services.catalog.deleteImage('A300-050', 1);
    const feed = (await list('B2C_GetAllArticlesImages', { strscn: String(before) })).B2CGETALLARTICLESIMAGES;
    expect(feed.IMAGES).toEqual([]);
    expect(feed.DELETED).toEqual([{ ARTICLE: 'A300-050', IMAGENO: 1 }]);
    const res = await t.call('GET', 'B2C_GetArticleImage', {
      token: both,
      query: { strarticle: 'A300-050' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('IMAGE_NOT_FOUND');
  });
});

describe('GetSizeTables', () => {
  it('lists size tables with their sizes in order, for either audience', async () => {
    const retail = await t.tokenFor(['B2C']);
    const res = await t.call('GET', 'GetSizeTables', { token: retail });
    expect(res.statusCode).toBe(200);
    const body = res.json().GETSIZETABLES;
    expect(body.SIZETABLES.map((s: { SIZETABLE: string }) => s.SIZETABLE)).toEqual(['CONF', 'ONE']);
    expect(body.SIZETABLES[0].SIZES).toEqual([
      { POSITION: 1, SIZEX: 'S' },
      { POSITION: 2, SIZEX: 'M' },
      { POSITION: 3, SIZEX: 'L' },
      { POSITION: 4, SIZEX: 'XL' },
    ]);
    expect(body.SIZETABLES[0].DESCRIPTION.LANGUAGE_2).toBe('Sizes CONF');
  });
});

describe('catalogue writes', () => {
  it('refuses an invalid barcode, a size outside the size table and a barcode of another article', async () => {
    await expect(
      t.services.catalog.saveArticle(article('B1-1', { sizes: [{ sizex: 'S', barcode: '4006381333932' }] })),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(
      t.services.catalog.saveArticle(
        article('B1-1', { sizes: [{ sizex: 'XXXL', barcode: '5901234123457' }] }),
      ),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(
      t.services.catalog.saveArticle(article('B1-1', { sizes: [{ sizex: 'S', barcode: '4006381333931' }] })),
    ).rejects.toMatchObject({ code: 'BARCODE_TAKEN' });
  });

  it('writes a batch as one transaction: one bad article leaves nothing behind', async () => {
    const scnBefore = (await list('B2B_GetAllArticles')).B2BGETALLARTICLES.SCN;
    await expect(
      t.services.catalog.saveArticles([article('C1-1'), article('C2-1', { sizeTableCode: 'MISSING' })]),
    ).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      // named by the article's index in the list, then its pointer in the written form
      errors: [{ name: '/1/SIZETABLE', message: 'no size table "MISSING"' }],
    });
    await expect(t.services.catalog.saveArticles([article('C1-1'), article('C1-1')])).rejects.toMatchObject({
      errors: [{ name: '/1/ARTICLE', message: 'article C1-1 appears twice' }],
    });
    expect(
      (await t.call('GET', 'B2B_GetArticle', { token: both, query: { strarticle: 'C1-1' } })).statusCode,
    ).toBe(404);
    expectScnStep(scnBefore, (await list('B2B_GetAllArticles')).B2BGETALLARTICLES.SCN, 0);
  });

  it('moves no SCN when the same data is saved again', async () => {
    const scn = async () => (await list('B2B_GetAllArticles')).B2BGETALLARTICLES.SCN;
    const a = article('D1-1');
    expect(await t.services.catalog.saveArticle(a)).toEqual({ written: 1, unchanged: 0 });
    const after = await scn();
    expect(await t.services.catalog.saveArticle(a)).toEqual({ written: 0, unchanged: 1 });
    expect(await t.services.catalog.saveSizeTable(sizeTable('CONF', ['S', 'M', 'L', 'XL']))).toEqual({
      written: 0,
      unchanged: 1,
    });
    expectScnStep(after, await scn(), 0);
    const changed = await t.services.catalog.saveArticles([a, { ...a, articleNo: 'D1-2', sizes: [] }]);
    expect(changed).toEqual({ written: 1, unchanged: 1 });
    expectScnStep(after, await scn(), 1);
  });

  it('refuses two articles of one batch claiming the same barcode', async () => {
    await expect(
      t.services.catalog.saveArticles([
        article('E1-1', { sizes: [{ sizex: 'S', barcode: '5901234123457' }] }),
        article('E1-2', { sizes: [{ sizex: 'S', barcode: '5901234123457' }] }),
      ]),
    ).rejects.toMatchObject({ code: 'BARCODE_TAKEN' });
  });

  it('deletes a size table only when no article uses it', async () => {
    await expect(t.services.catalog.deleteSizeTable('CONF')).rejects.toMatchObject({
      code: 'SIZE_TABLE_IN_USE',
    });
    await t.services.catalog.saveSizeTable(sizeTable('TMP', ['X']));
    const before = (await list('GetSizeTables')).GETSIZETABLES.SCN;
    await t.services.catalog.deleteSizeTable('TMP');
    const feed = (await list('GetSizeTables', { strscn: String(before) })).GETSIZETABLES;
    expect(feed.DELETED).toEqual(['TMP']);
    await expect(t.services.catalog.deleteSizeTable('TMP')).rejects.toMatchObject({
      code: 'SIZE_TABLE_NOT_FOUND',
    });
  });
});
