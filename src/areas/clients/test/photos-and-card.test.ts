import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { clientsContext } from './clients-context.ts';

const ctx = clientsContext();
const { create, get } = ctx;

describe('member card', () => {
  it('is issued by the back office, unique per card number, and shown with its validity', async () => {
    const no = await create({ FIRSTNAME: 'Pieter', MIDDLENAME: 'de', LASTNAME: 'Vries' });
    const missing = await ctx.t.call('GET', 'B2C_GetClientMemberCardInfo', {
      token: ctx.token,
      query: { strclient: String(no) },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('MEMBER_CARD_NOT_FOUND');
    await ctx.t.services.clients.profiles.saveClient({
      clientNo: no,
      memberCard: { cardNo: `MC-${no}`, level: 'GOLD', validFrom: '2020-01-01', validTo: '2099-12-31' },
    });
    const card = (await get('B2C_GetClientMemberCardInfo', { strclient: String(no) }))
      .B2CGETCLIENTMEMBERCARDINFO;
    expect(card).toEqual({
      CLIENT: no,
      CARDNO: `MC-${no}`,
      LEVEL: 'GOLD',
      VALIDFROM: '2020-01-01',
      VALIDTO: '2099-12-31',
      NAME: 'Pieter de Vries',
      VALID: true,
      HASPHOTO: false,
    });
    const other = await create();
    await expect(
      ctx.t.services.clients.profiles.saveClient({
        clientNo: other,
        memberCard: { cardNo: `MC-${no}`, level: 'SILVER', validFrom: '2020-01-01', validTo: '2099-12-31' },
      }),
    ).rejects.toMatchObject({ code: 'CARD_TAKEN' });
    await expect(
      ctx.t.services.clients.profiles.saveClient({
        clientNo: other,
        memberCard: { cardNo: 'ok-lower', level: 'GOLD', validFrom: '2020-01-01', validTo: '2019-12-31' },
      }),
    ).rejects.toMatchObject({
      errors: [{ name: '/MEMBERCARD/VALIDTO', message: expect.any(String) }],
    });
    // The card number's form is the schema's: the back office answers 400 naming it.
    const admin = await ctx.t.tokenFor(['ADMIN']);
    const lower = await ctx.t.send(admin, 'PUT', `/TV2/Admin/clients/${other}`, {
      CLIENT: other,
      MEMBERCARD: { CARDNO: 'ok-lower', LEVEL: 'GOLD', VALIDFROM: '2020-01-01', VALIDTO: '2099-12-31' },
    });
    expect(lower.statusCode).toBe(400);
    expect(lower.json().errors.map((e: { name: string }) => e.name)).toContain('/MEMBERCARD/CARDNO');
  });
});

describe('photos', () => {
  const gpsJpeg = () =>
    sharp({ create: { width: 600, height: 400, channels: 3, background: { r: 180, g: 120, b: 90 } } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExifMerge({
        IFD0: { Make: 'PhoneCo', Model: 'X1' },
        IFD3: {
          GPSLatitudeRef: 'N',
          GPSLatitude: '52/1 22/1 0/1',
          GPSLongitudeRef: 'E',
          GPSLongitude: '4/1 53/1 0/1',
        },
      })
      .toBuffer();

  const postPhoto = (data: Record<string, unknown>) =>
    ctx.t.call('POST', 'B2C_PostProfilePhotoBase64', { token: ctx.token, body: { PROFILEPHOTODATA: data } });

  const noisePng = (side: number) =>
    sharp(Buffer.from(Array.from({ length: side * side * 3 }, (_, i) => (i * 7919) % 251)), {
      raw: { width: side, height: side, channels: 3 },
    })
      .png({ compressionLevel: 0 })
      .toBuffer();

  it('takes a photo of up to 2 MiB although its base64 body is larger than the server-wide body limit', async () => {
    const no = await create();
    const big = await noisePng(780); // about 1.8 MiB, about 2.4 MiB as base64
    expect(big.length).toBeGreaterThan(1024 * 1024);
    expect(big.length).toBeLessThan(2 * 1024 * 1024);
    const res = await postPhoto({ CLIENT: no, PHOTO: big.toString('base64') });
    expect(res.statusCode, res.body).toBe(200);
    const tooBig = await noisePng(1000); // about 3 MiB
    const refused = await postPhoto({ CLIENT: no, PHOTO: tooBig.toString('base64') });
    expect(refused.statusCode).toBe(413);
    expect(refused.json().code).toBe('BODY_TOO_LARGE');
  });

  it('stores a JPEG re-encoded without EXIF (no GPS), oriented, and makes the card photo', async () => {
    const no = await create();
    const original = await gpsJpeg();
    const meta = await sharp(original).metadata();
    expect(meta.exif?.length).toBeGreaterThan(0);
    expect(meta.orientation).toBe(6);

    const res = await postPhoto({ CLIENT: no, PHOTO: original.toString('base64') });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().B2CPOSTPROFILEPHOTOBASE64).toMatchObject({
      CLIENT: no,
      CONTENTTYPE: 'image/jpeg',
      WIDTH: 400,
      HEIGHT: 600,
    });

    const profile = (await get('B2C_GetProfilePhotoBase64', { strclient: String(no) }))
      .B2CGETPROFILEPHOTOBASE64;
    const bytes = Buffer.from(profile.PHOTO, 'base64');
    const stored = await sharp(bytes).metadata();
    expect(stored.format).toBe('jpeg');
    expect(stored.exif).toBeUndefined();
    expect(stored.xmp).toBeUndefined();
    expect(stored.orientation).toBeUndefined();
    expect([stored.width, stored.height]).toEqual([400, 600]);
    expect(bytes.includes(Buffer.from('PhoneCo'))).toBe(false);
    expect(bytes.includes(Buffer.from('Exif\0\0'))).toBe(false);

    const card = (await get('B2C_GetMemberCardPhotoBase64', { strclient: String(no) }))
      .B2CGETMEMBERCARDPHOTOBASE64;
    expect(card).toMatchObject({ CLIENT: no, CONTENTTYPE: 'image/jpeg', WIDTH: 420, HEIGHT: 540 });
    const cardMeta = await sharp(Buffer.from(card.PHOTO, 'base64')).metadata();
    expect(cardMeta.exif).toBeUndefined();
    expect(
      (await get('B2C_GetClient', { strclient: String(no) })).B2CGETCLIENT.CLIENTS[0].HASPROFILEPHOTO,
    ).toBe(true);
  });

  it('keeps PNG and WebP in their format', async () => {
    const no = await create();
    for (const [format, type] of [
      ['png', 'image/png'],
      ['webp', 'image/webp'],
    ] as const) {
      const img = await sharp({ create: { width: 32, height: 32, channels: 4, background: '#33669980' } })
        [format]()
        .toBuffer();
      const res = await postPhoto({ CLIENT: no, PHOTO: img.toString('base64'), CONTENTTYPE: type });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().B2CPOSTPROFILEPHOTOBASE64.CONTENTTYPE).toBe(type);
    }
  });

  it('refuses what is not a real JPEG, PNG or WebP, a declared type that lies, bad base64 and big photos', async () => {
    const no = await create();
    const gif = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
    const notImage = await postPhoto({ CLIENT: no, PHOTO: gif.toString('base64') });
    expect(notImage.statusCode).toBe(400);
    expect(notImage.json()).toMatchObject({
      code: 'UNSUPPORTED_IMAGE',
      errors: [{ name: '/PROFILEPHOTODATA/PHOTO' }],
    });
    // A JPEG signature followed by garbage: sniffed as JPEG, but it does not decode.
    const fake = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 7)]);
    const broken = await postPhoto({ CLIENT: no, PHOTO: fake.toString('base64') });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().code).toBe('UNSUPPORTED_IMAGE');

    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const lie = await postPhoto({ CLIENT: no, PHOTO: png.toString('base64'), CONTENTTYPE: 'image/jpeg' });
    expect(lie.statusCode).toBe(400);
    expect(lie.json().code).toBe('CONTENT_TYPE_MISMATCH');

    const bad = await postPhoto({ CLIENT: no, PHOTO: 'not base64!' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].name).toBe('/PROFILEPHOTODATA/PHOTO');

    const big = Buffer.alloc(2 * 1024 * 1024 + 3, 0);
    const tooBig = await postPhoto({ CLIENT: no, PHOTO: big.toString('base64') });
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().errors[0].name).toBe('/PROFILEPHOTODATA/PHOTO');
    await expect(
      ctx.t.services.clients.profiles.putProfilePhoto(no, Buffer.alloc(2 * 1024 * 1024 + 1)),
    ).rejects.toMatchObject({
      errors: [{ name: '/PHOTO' }],
    });
  });

  it('removes both photos with an empty PHOTO', async () => {
    const no = await create();
    await postPhoto({ CLIENT: no, PHOTO: (await gpsJpeg()).toString('base64') });
    const res = await postPhoto({ CLIENT: no, PHOTO: '' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().B2CPOSTPROFILEPHOTOBASE64.CONTENTTYPE).toBeNull();
    for (const op of ['B2C_GetProfilePhotoBase64', 'B2C_GetMemberCardPhotoBase64']) {
      const gone = await ctx.t.call('GET', op, { token: ctx.token, query: { strclient: String(no) } });
      expect(gone.statusCode).toBe(404);
      expect(gone.json().code).toBe('PHOTO_NOT_FOUND');
    }
  });
});
