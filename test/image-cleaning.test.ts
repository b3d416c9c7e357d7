import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { article, sizeTable } from './helpers/fixtures.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * Article and shop images uploaded through the back office are stored as a decoder sees them:
 * decoded and encoded again, so a polyglot (an image that is also a script or an archive) or an
 * image carrying its author's GPS position is served clean. Checked as a user sees it: the upload
 * through the admin route, the bytes through the B2C image operations.
 */

let t: TestApp;
let admin: string;
let retail: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.tokenFor(['ADMIN']);
  retail = await t.tokenFor(['B2C']);
  await t.services.catalog.saveSizeTable(sizeTable('CONF', ['S', 'M']));
  await t.services.catalog.saveArticle(article('IMG-1'));
  await t.services.stock.locations.createLocation({
    code: 'AMS',
    name: 'Shop AMS',
    kind: 'SHOP',
    servesWholesale: false,
    servesRetail: true,
    address: 'Kalverstraat',
    houseNumber: '1',
    postalCode: '1012 PK',
    city: 'Amsterdam',
    country: 'NL',
  });
  await t.services.shops.shops.saveShopDetail({ locationCode: 'AMS', latitude: '52.37', longitude: 4.89 });
});
afterAll(() => t.close());

const SCRIPT = Buffer.from('<script>alert(document.cookie)</script><?php system($_GET["c"]); ?>');
/** A ZIP archive's end-of-central-directory record: what makes a file also open as a ZIP. */
const ZIP_TAIL = Buffer.concat([
  Buffer.from([0x50, 0x4b, 0x05, 0x06]),
  Buffer.alloc(18),
  Buffer.from('PK-polyglot'),
]);

const picture = (format: 'png' | 'jpeg' | 'webp') =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    [format]()
    .toBuffer();

/** A JPEG with EXIF (camera, GPS position of the photographer) and a comment segment holding a script. */
async function jpegWithGpsAndComment(): Promise<Buffer> {
  const withExif = await sharp({
    create: { width: 40, height: 30, channels: 3, background: { r: 10, g: 120, b: 200 } },
  })
    .jpeg()
    .withExif({
      IFD0: { Make: 'SpyCam', Model: 'Secret-Model-X', Artist: 'Jane Home-Owner' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '52/1 22/1 12/1',
        GPSLongitudeRef: 'E',
        GPSLongitude: '4/1 53/1 42/1',
      },
    })
    .toBuffer();
  const comment = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.alloc(2), SCRIPT]);
  comment.writeUInt16BE(SCRIPT.length + 2, 2);
  return Buffer.concat([withExif.subarray(0, 2), comment, withExif.subarray(2)]);
}

const putImage = (url: string, data: Buffer, type: string) =>
  t.app.inject({
    method: 'PUT',
    url,
    headers: { authorization: `Bearer ${admin}`, 'content-type': type },
    payload: data,
  });

async function servedArticleImage(imageNo: number) {
  return t.call('GET', 'B2C_GetArticleImage', {
    token: retail,
    query: { strarticle: 'IMG-1', strimageno: String(imageNo) },
  });
}

/** What a user relies on: a valid image of the type and size uploaded, its ETag the SHA-256 of what is served. */
async function expectCleanImage(
  res: Awaited<ReturnType<typeof servedArticleImage>>,
  type: string,
  size: { width: number; height: number },
) {
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe(type);
  const bytes = res.rawPayload;
  const meta = await sharp(bytes).metadata();
  expect(`image/${meta.format}`).toBe(type);
  expect({ width: meta.width, height: meta.height }).toEqual(size);
  expect(meta.exif).toBeUndefined();
  expect(meta.xmp).toBeUndefined();
  expect(meta.comments ?? []).toEqual([]);
  expect(res.headers.etag).toBe(`"${createHash('sha256').update(bytes).digest('hex')}"`);
  expect(bytes.includes('<script>')).toBe(false);
  expect(bytes.includes('<?php')).toBe(false);
  expect(bytes.includes('PK-polyglot')).toBe(false);
  return bytes;
}

describe('uploaded article and shop images are decoded and encoded again', () => {
  it('drops a script and a ZIP appended to a PNG (polyglot), keeping the picture', async () => {
    const clean = await picture('png');
    const polyglot = Buffer.concat([clean, SCRIPT, ZIP_TAIL]);
    const put = await putImage('/TV2/Admin/articles/IMG-1/images/1', polyglot, 'image/png');
    expect(put.statusCode, put.body).toBe(200);
    const bytes = await expectCleanImage(await servedArticleImage(1), 'image/png', { width: 40, height: 30 });
    const pixels = async (b: Buffer) => (await sharp(b).raw().toBuffer()).toString('hex');
    expect(await pixels(bytes)).toBe(await pixels(clean)); // PNG is lossless: the same picture
    const listed = (await t.call('GET', 'B2C_GetAllArticlesImages', { token: retail })).json()
      .B2CGETALLARTICLESIMAGES.IMAGES;
    expect(listed).toEqual([expect.objectContaining({ ARTICLE: 'IMG-1', IMAGENO: 1, BYTES: bytes.length })]);
  });

  it('drops EXIF with the GPS position, the camera and a script in a comment from a JPEG', async () => {
    const upload = await jpegWithGpsAndComment();
    const before = await sharp(upload).metadata();
    expect(before.exif?.length).toBeGreaterThan(0); // the upload does carry them
    expect(upload.includes('Secret-Model-X')).toBe(true);
    const put = await putImage(
      '/TV2/Admin/articles/IMG-1/images/2',
      Buffer.concat([upload, ZIP_TAIL]),
      'image/jpeg',
    );
    expect(put.statusCode, put.body).toBe(200);
    const bytes = await expectCleanImage(await servedArticleImage(2), 'image/jpeg', {
      width: 40,
      height: 30,
    });
    expect(bytes.includes('Secret-Model-X')).toBe(false);
    expect(bytes.includes('SpyCam')).toBe(false);
  });

  it('cleans shop images the same way (WebP with bytes appended, JPEG with GPS)', async () => {
    const webp = Buffer.concat([await picture('webp'), SCRIPT]);
    expect((await putImage('/TV2/Admin/shops/AMS/images/1', webp, 'image/webp')).statusCode).toBe(200);
    const jpeg = await jpegWithGpsAndComment();
    expect((await putImage('/TV2/Admin/shops/AMS/images/2', jpeg, 'image/jpeg')).statusCode).toBe(200);
    const served = (imageNo: number) =>
      t.call('GET', 'B2C_GetShopImage', {
        token: retail,
        query: { strlocation: 'AMS', strimageno: String(imageNo) },
      });
    await expectCleanImage(await served(1), 'image/webp', { width: 40, height: 30 });
    const bytes = await expectCleanImage(await served(2), 'image/jpeg', { width: 40, height: 30 });
    expect(bytes.includes('Secret-Model-X')).toBe(false);
  });

  it('refuses an image whose canvas is over the pixel limit (decompression bomb) and one that does not decode', async () => {
    // 8000 x 6000 = 48 million pixels of one colour: a small file that would take 144 MB to decode
    const bomb = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#000' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const refused = await putImage('/TV2/Admin/articles/IMG-1/images/3', bomb, 'image/png');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('UNSUPPORTED_IMAGE');
    expect(refused.json().errors[0].message).toMatch(/more than 40000000 pixels/);

    const truncated = (await picture('png')).subarray(0, 60); // a PNG signature and header, no pixels
    const broken = await putImage('/TV2/Admin/shops/AMS/images/3', truncated, 'image/png');
    expect(broken.statusCode).toBe(400);
    expect(broken.json().code).toBe('UNSUPPORTED_IMAGE');
    expect((await servedArticleImage(3)).statusCode).toBe(404);
  });
});
