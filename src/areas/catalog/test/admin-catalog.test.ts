import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { etagOf, samePicture } from '../../../../test/helpers/images.ts';
import { startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';

let t: TestApp;
let admin: string;
let reader: string;

const articleBody = {
  ARTICLE: 'K1-100',
  MODEL: 'K1',
  COLOUR: '100',
  SIZETABLE: 'TOPS',
  PERCVAT: 21,
  RETAIL: true,
  BRAND: 'NORDWIND',
  ARTICLEDESCRIPTION: { LANGUAGE_2: 'Knit sweater' },
  SIZES: [
    { SIZEX: 'S', BARCODE: '8700000000018' },
    { SIZEX: 'M', BARCODE: '8700000000025' },
  ],
  ARTICLEPARAMETERCODES: [{ PARAMETERCODE: 1, LANGUAGE_2: 'Wool' }],
};

function png(): Buffer {
  const image = new PNG({ width: 2, height: 2 });
  image.data.fill(90);
  return PNG.sync.write(image);
}

const send = (
  method: 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
  token = admin,
  type = 'application/json',
) =>
  t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, ...(payload !== undefined ? { 'content-type': type } : {}) },
    ...(payload !== undefined
      ? { payload: Buffer.isBuffer(payload) ? payload : JSON.stringify(payload) }
      : {}),
  });

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.tokenFor(['ADMIN']);
  reader = await t.tokenFor(['B2B', 'B2C']);
});
afterAll(() => t.close());

describe('the admin area', () => {
  it('is for the ADMIN role only', async () => {
    const res = await send('PUT', '/TV2/Admin/sizetables/TOPS', { SIZETABLE: 'TOPS', SIZES: ['S'] }, reader);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('ROLE_REQUIRED');
    const anonymous = await t.app.inject({ method: 'DELETE', url: '/TV2/Admin/articles/X' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('creates size tables and articles that the TV2 operations then serve, and reports unchanged saves', async () => {
    const table = await send('PUT', '/TV2/Admin/sizetables/TOPS', {
      SIZETABLE: 'TOPS',
      SIZES: ['S', 'M', 'L'],
    });
    expect(table.statusCode).toBe(200);
    expect(table.json()).toEqual({ WRITTEN: 1, UNCHANGED: 0 });

    const created = await send('PUT', '/TV2/Admin/articles/K1-100', articleBody);
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toEqual({ WRITTEN: 1, UNCHANGED: 0 });
    expect((await send('PUT', '/TV2/Admin/articles/K1-100', articleBody)).json()).toEqual({
      WRITTEN: 0,
      UNCHANGED: 1,
    });

    const got = await t.call('GET', 'B2C_GetArticle', { token: reader, query: { strarticle: 'K1-100' } });
    const wire = got.json().B2CGETARTICLE.ARTICLES[0];
    expect(wire).toMatchObject({
      ARTICLE: 'K1-100',
      PERCVAT: 21,
      RETAIL: true,
      ACTIVE: true,
      SIZETABLE: 'TOPS',
    });
    expect(wire.ARTICLEPARAMETERCODES[0]).toMatchObject({ PARAMETERCODE: 1, LANGUAGE_2: 'Wool' });

    // an article read from the API can be written back as it is
    const roundTrip = await send('PUT', '/TV2/Admin/articles/K1-100', wire);
    expect(roundTrip.json()).toEqual({ WRITTEN: 0, UNCHANGED: 1 });
  });

  it('names the offending field in the wire terms', async () => {
    const badBarcode = await send('PUT', '/TV2/Admin/articles/K1-200', {
      ...articleBody,
      ARTICLE: 'K1-200',
      SIZES: [{ SIZEX: 'S', BARCODE: '1234567890123' }],
    });
    expect(badBarcode.statusCode).toBe(400);
    expect(badBarcode.json().errors).toEqual([{ name: '/SIZES/0/BARCODE', message: 'not a valid EAN-13' }]);

    const mismatch = await send('PUT', '/TV2/Admin/articles/OTHER', articleBody);
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().errors[0].name).toBe('/ARTICLE');

    const missing = await send('PUT', '/TV2/Admin/articles/K1-300', { ARTICLE: 'K1-300' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.map((e: { name: string }) => e.name)).toEqual(
      expect.arrayContaining(['/MODEL', '/SIZETABLE', '/PERCVAT', '/SIZES']),
    );

    const taken = await send('PUT', '/TV2/Admin/articles/K1-400', { ...articleBody, ARTICLE: 'K1-400' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('BARCODE_TAKEN');
  });

  it('checks the shape of a record by its schema, the rest by the rules, each named by its pointer', async () => {
    const names = async (url: string, body: unknown) => {
      const res = await send('PUT', url, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
      return res.json().errors.map((e: { name: string }) => e.name);
    };
    // the schema: an article number or size table code of letters, digits and . _ / -
    expect(await names('/TV2/Admin/articles/K1%20500', { ...articleBody, ARTICLE: 'K1 500' })).toEqual([
      '/ARTICLE',
    ]);
    expect(await names('/TV2/Admin/sizetables/-TOPS', { SIZETABLE: '-TOPS', SIZES: ['S'] })).toEqual([
      '/SIZETABLE',
    ]);
    expect(await names('/TV2/Admin/sizetables/NONE', { SIZETABLE: 'NONE', SIZES: [] })).toEqual(['/SIZES']);
    // the rules: a VAT rate of 0 to 100 percent once read, a size once, each barcode's check digit
    const vat = await send('PUT', '/TV2/Admin/articles/K1-500', {
      ...articleBody,
      ARTICLE: 'K1-500',
      PERCVAT: 101,
    });
    expect(vat.json().errors).toEqual([
      { name: '/PERCVAT', message: 'a VAT rate is 0 to 10000 basis points' },
    ]);
    expect(await names('/TV2/Admin/sizetables/TWICE', { SIZETABLE: 'TWICE', SIZES: ['S', 'S'] })).toEqual([
      '/SIZES',
    ]);
    const twice = { ...articleBody, ARTICLE: 'K1-500', SIZES: [articleBody.SIZES[0], articleBody.SIZES[0]] };
    expect(await names('/TV2/Admin/articles/K1-500', twice)).toEqual(['/SIZES/1/SIZEX']);
    const unknown = { ...articleBody, ARTICLE: 'K1-500', SIZETABLE: 'NOPE' };
    expect(await names('/TV2/Admin/articles/K1-500', unknown)).toEqual(['/SIZETABLE']);
  });

  it('stores an image under a number from 1 to 99', async () => {
    for (const imageNo of ['0', '00', '100']) {
      const res = await send(
        'PUT',
        `/TV2/Admin/articles/K1-100/images/${imageNo}`,
        png(),
        admin,
        'image/png',
      );
      expect(res.statusCode, imageNo).toBe(400);
      expect(res.json().errors.map((e: { name: string }) => e.name)).toEqual(['imageno']);
    }
  });

  it('stores images whose declared type matches their bytes', async () => {
    const bytes = png();
    const stored = await send('PUT', '/TV2/Admin/articles/K1-100/images/1', bytes, admin, 'image/png');
    expect(stored.statusCode, stored.body).toBe(200);
    expect(stored.json()).toEqual({ CONTENTTYPE: 'image/png' });
    const served = await t.call('GET', 'B2C_GetArticleImage', {
      token: reader,
      query: { strarticle: 'K1-100' },
    });
    // stored as decoded and encoded again: the same picture, not the same bytes
    expect(await samePicture(served.rawPayload, bytes)).toBe(true);
    expect(served.headers.etag).toBe(etagOf(served.rawPayload));

    const lying = await send('PUT', '/TV2/Admin/articles/K1-100/images/2', bytes, admin, 'image/jpeg');
    expect(lying.statusCode).toBe(400);
    expect(lying.json().code).toBe('CONTENT_TYPE_MISMATCH');
    const gif = await send(
      'PUT',
      '/TV2/Admin/articles/K1-100/images/2',
      Buffer.from('GIF89a'),
      admin,
      'image/gif',
    );
    expect(gif.statusCode).toBe(415);

    expect((await send('DELETE', '/TV2/Admin/articles/K1-100/images/1')).statusCode).toBe(204);
    const gone = await t.call('GET', 'B2C_GetArticleImage', {
      token: reader,
      query: { strarticle: 'K1-100' },
    });
    expect(gone.statusCode).toBe(404);
  });

  it('deletes articles and size tables, with the rules that guard them', async () => {
    expect((await send('DELETE', '/TV2/Admin/sizetables/TOPS')).json().code).toBe('SIZE_TABLE_IN_USE');
    expect((await send('DELETE', '/TV2/Admin/articles/K1-100')).statusCode).toBe(204);
    expect((await send('DELETE', '/TV2/Admin/articles/K1-100')).statusCode).toBe(404);
    expect((await send('DELETE', '/TV2/Admin/sizetables/TOPS')).statusCode).toBe(204);
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/TV2/openapi.json' })).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/TV2/Admin/articles/{article}', '/TV2/Admin/sizetables/{sizetable}']),
    );
    expect(doc.paths['/TV2/Admin/articles/{article}'].put.tags).toEqual(['Admin']);
  });
});
