import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { ClientRepository } from '../client-repository.ts';
import { ClientService, DELETION_GRACE_DAYS } from '../client-service.ts';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await startTestApp();
  token = await t.tokenFor(['B2C']);
});
afterAll(() => t.close());

let emailCounter = 0;
const freshEmail = () => `client${++emailCounter}.${Date.now()}@example.nl`;

async function post(data: Record<string, unknown>) {
  return t.call('POST', 'B2C_PostClient', { token, body: { CLIENTDATA: data } });
}

async function create(data: Record<string, unknown> = {}): Promise<number> {
  const res = await post({ EMAIL: freshEmail(), FIRSTNAME: 'Anna', LASTNAME: 'Jansen', ...data });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().B2CPOSTCLIENT.CLIENT;
}

async function get(op: string, query: Record<string, string>) {
  const res = await t.call('GET', op, { token, query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('B2C_PostClient and B2C_GetClient', () => {
  it('creates a client with normalised contact data and finds it by number and by e-mail', async () => {
    const email = freshEmail();
    const res = await post({
      EMAIL: `  ${email.toUpperCase()} `,
      FIRSTNAME: 'Sanne',
      MIDDLENAME: 'van der',
      LASTNAME: 'Berg',
      PHONE: '06-1234 5678',
      ADDRESS: 'Keizersgracht',
      HOUSENUMBER: '12a',
      POSTALCODE: '1015cs',
      CITY: 'Amsterdam',
      COUNTRY: 'nl',
      BIRTHDATE: '1990-04-01',
      LANGUAGE: 'LANGUAGE_1',
      CONSENTS: { NEWSLETTER: true, SMS: false },
      HOMESHOP: 'AMS',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json().B2CPOSTCLIENT;
    expect(body.CREATED).toBe(true);
    expect(body.CLIENT).toBeGreaterThanOrEqual(100_001);
    const client = body.CLIENTS[0];
    expect(client).toMatchObject({
      CLIENT: body.CLIENT,
      EMAIL: email.toUpperCase(),
      PHONE: '+31612345678',
      POSTALCODE: '1015 CS',
      COUNTRY: 'NL',
      BIRTHDATE: '1990-04-01',
      MIDDLENAME: 'van der',
      HOMESHOP: 'AMS',
      MEMBERCARD: null,
      HASPROFILEPHOTO: false,
      MARKEDFORDELETION: false,
      DELETIONDUE: null,
    });
    expect(client.CONSENTS.NEWSLETTER.GIVEN).toBe(true);
    expect(client.CONSENTS.NEWSLETTER.GIVENAT).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(client.CONSENTS.SMS).toEqual({ GIVEN: false, GIVENAT: null });
    expect(client.CREATED).toMatch(/Z$/);

    const byNo = (await get('B2C_GetClient', { strclient: String(body.CLIENT) })).B2CGETCLIENT.CLIENTS;
    expect(byNo).toEqual([client]);
    const byEmail = (await get('B2C_GetClient', { stremail: email })).B2CGETCLIENT.CLIENTS;
    expect(byEmail[0].CLIENT).toBe(body.CLIENT);
  });

  it('changes only the given fields, clears with null, and moves no SCN for an unchanged post', async () => {
    const no = await create({
      PHONE: '+32 470 12 34 56',
      COUNTRY: 'BE',
      POSTALCODE: '1000',
      CITY: 'Brussel',
    });
    const before = (await get('B2C_GetClient', { strclient: String(no) })).B2CGETCLIENT.CLIENTS[0];
    const res = await post({ CLIENT: no, CITY: 'Bruxelles', PHONE: null });
    expect(res.statusCode, res.body).toBe(200);
    const after = res.json().B2CPOSTCLIENT;
    expect(after.CREATED).toBe(false);
    expect(after.CLIENTS[0]).toMatchObject({
      CITY: 'Bruxelles',
      PHONE: '',
      POSTALCODE: '1000',
      FIRSTNAME: 'Anna',
    });
    expect(after.CLIENTS[0].SCN).toBeGreaterThan(before.SCN);
    const again = (await post({ CLIENT: no, CITY: 'Bruxelles' })).json().B2CPOSTCLIENT.CLIENTS[0];
    expect(again.SCN).toBe(after.CLIENTS[0].SCN);
  });

  it('stamps a consent when given, keeps the instant when repeated, clears it when withdrawn', async () => {
    const no = await create({ CONSENTS: { PROFILING: true } });
    const first = (await get('B2C_GetClient', { strclient: String(no) })).B2CGETCLIENT.CLIENTS[0];
    const given = first.CONSENTS.PROFILING.GIVENAT;
    expect(first.CONSENTS.PROFILING.GIVEN).toBe(true);
    expect(given).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    expect(Math.abs(Date.parse(given) - Date.now())).toBeLessThan(60_000);
    await new Promise((r) => setTimeout(r, 1100));
    const repeated = (await post({ CLIENT: no, CONSENTS: { PROFILING: true, SMS: true } })).json()
      .B2CPOSTCLIENT.CLIENTS[0];
    expect(repeated.CONSENTS.PROFILING.GIVENAT).toBe(given);
    expect(repeated.CONSENTS.SMS.GIVENAT > given).toBe(true);
    const withdrawn = (await post({ CLIENT: no, CONSENTS: { PROFILING: false } })).json().B2CPOSTCLIENT
      .CLIENTS[0];
    expect(withdrawn.CONSENTS.PROFILING).toEqual({ GIVEN: false, GIVENAT: null });
    expect(withdrawn.CONSENTS.SMS.GIVEN).toBe(true);
  });

  it('refuses a second client with the same e-mail address, in any case', async () => {
    const email = freshEmail();
    await create({ EMAIL: email });
    const dup = await post({ EMAIL: email.toUpperCase(), LASTNAME: 'Other' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().code).toBe('EMAIL_TAKEN');
    const other = await create();
    const change = await post({ CLIENT: other, EMAIL: email });
    expect(change.statusCode).toBe(409);
    expect(change.json().code).toBe('EMAIL_TAKEN');
  });

  it.each([
    [{ EMAIL: 'not-an-address' }, '/CLIENTDATA/EMAIL'],
    [{ EMAIL: 'a@b' }, '/CLIENTDATA/EMAIL'],
    [{ EMAIL: 'a..b@example.nl' }, '/CLIENTDATA/EMAIL'],
    [{ PHONE: '12345', COUNTRY: 'NL' }, '/CLIENTDATA/PHONE'],
    [{ PHONE: '0612345678' }, '/CLIENTDATA/PHONE'],
    [{ PHONE: '+31 6 abc' }, '/CLIENTDATA/PHONE'],
    [{ POSTALCODE: '0123 AB', COUNTRY: 'NL' }, '/CLIENTDATA/POSTALCODE'],
    [{ POSTALCODE: '1234 SA', COUNTRY: 'NL' }, '/CLIENTDATA/POSTALCODE'],
    [{ POSTALCODE: '10000', COUNTRY: 'BE' }, '/CLIENTDATA/POSTALCODE'],
    [{ POSTALCODE: '1011', COUNTRY: 'DE' }, '/CLIENTDATA/POSTALCODE'],
    [{ POSTALCODE: '7500', COUNTRY: 'FR' }, '/CLIENTDATA/POSTALCODE'],
    [{ POSTALCODE: '12345', COUNTRY: 'GB' }, '/CLIENTDATA/POSTALCODE'],
    [{ POSTALCODE: '#!', COUNTRY: 'US' }, '/CLIENTDATA/POSTALCODE'],
    [{ COUNTRY: 'XX' }, '/CLIENTDATA/COUNTRY'],
    [{ BIRTHDATE: '1990-02-30' }, '/CLIENTDATA/BIRTHDATE'],
    [{ BIRTHDATE: '30-02-1990' }, '/CLIENTDATA/BIRTHDATE'],
    [{ FIRSTNAME: 'Anna\u0007' }, '/CLIENTDATA/FIRSTNAME'],
    [{ HOMESHOP: 'no spaces' }, '/CLIENTDATA/HOMESHOP'],
    [{ LANGUAGE: 'nl' }, '/CLIENTDATA/LANGUAGE'],
    [{ CONSENTS: { MARKETING: true } }, '/CLIENTDATA/CONSENTS/MARKETING'],
    [{ MEMBERCARD: { CARDNO: 'X' } }, '/CLIENTDATA/MEMBERCARD'],
  ])('answers 400 naming the field for %j', async (data, pointer) => {
    const res = await post({ EMAIL: freshEmail(), LASTNAME: 'Jansen', ...data });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors.map((e: { name: string }) => e.name)).toContain(pointer);
  });

  it('accepts postal codes of NL, BE, DE, FR, GB and others in their normal form', async () => {
    const cases: Array<[string, string, string]> = [
      ['NL', '2511cv', '2511 CV'],
      ['BE', '9000', '9000'],
      ['DE', '10115', '10115'],
      ['FR', '75001', '75001'],
      ['GB', 'sw1a1aa', 'SW1A 1AA'],
      ['GB', 'M1 1AE', 'M1 1AE'],
      ['US', '94103-1234', '94103-1234'],
    ];
    for (const [country, given, stored] of cases) {
      const res = await post({ EMAIL: freshEmail(), LASTNAME: 'X', COUNTRY: country, POSTALCODE: given });
      expect(res.statusCode, `${country} ${given}: ${res.body}`).toBe(200);
      expect(res.json().B2CPOSTCLIENT.CLIENTS[0].POSTALCODE).toBe(stored);
    }
  });

  it('checks the stored postal code again when the country changes', async () => {
    const no = await create({ COUNTRY: 'DE', POSTALCODE: '10115' });
    const res = await post({ CLIENT: no, COUNTRY: 'NL' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].name).toBe('/CLIENTDATA/POSTALCODE');
  });

  it('needs EMAIL and LASTNAME to create, and a known client to change', async () => {
    const res = await post({ FIRSTNAME: 'X' });
    expect(res.statusCode).toBe(400);
    expect(
      res
        .json()
        .errors.map((e: { name: string }) => e.name)
        .sort(),
    ).toEqual(['/CLIENTDATA/EMAIL', '/CLIENTDATA/LASTNAME']);
    const unknown = await post({ CLIENT: 999_999, CITY: 'X' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('CLIENT_NOT_FOUND');
  });

  it('answers 404 for an unknown client and 400 without a client number', async () => {
    const res = await t.call('GET', 'B2C_GetClient', { token, query: { strclient: '999999' } });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('CLIENT_NOT_FOUND');
    const none = await t.call('GET', 'B2C_GetClient', { token });
    expect(none.statusCode).toBe(400);
    expect(none.json().errors[0].name).toBe('strclient');
  });
});

describe('member card', () => {
  it('is issued by the back office, unique per card number, and shown with its validity', async () => {
    const no = await create({ FIRSTNAME: 'Pieter', MIDDLENAME: 'de', LASTNAME: 'Vries' });
    const missing = await t.call('GET', 'B2C_GetClientMemberCardInfo', {
      token,
      query: { strclient: String(no) },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('MEMBER_CARD_NOT_FOUND');
    await t.services.clients.profiles.saveClient({
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
      t.services.clients.profiles.saveClient({
        clientNo: other,
        memberCard: { cardNo: `MC-${no}`, level: 'SILVER', validFrom: '2020-01-01', validTo: '2099-12-31' },
      }),
    ).rejects.toMatchObject({ code: 'CARD_TAKEN' });
    await expect(
      t.services.clients.profiles.saveClient({
        clientNo: other,
        memberCard: { cardNo: 'ok-lower', level: 'GOLD', validFrom: '2020-01-01', validTo: '2019-12-31' },
      }),
    ).rejects.toMatchObject({
      errors: [{ name: '/MEMBERCARD/VALIDTO', message: expect.any(String) }],
    });
    // The card number's form is the schema's: the back office answers 400 naming it.
    const admin = await t.tokenFor(['ADMIN']);
    const lower = await t.send(admin, 'PUT', `/TV2/Admin/clients/${other}`, {
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
    t.call('POST', 'B2C_PostProfilePhotoBase64', { token, body: { PROFILEPHOTODATA: data } });

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
      t.services.clients.profiles.putProfilePhoto(no, Buffer.alloc(2 * 1024 * 1024 + 1)),
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
      const gone = await t.call('GET', op, { token, query: { strclient: String(no) } });
      expect(gone.statusCode).toBe(404);
      expect(gone.json().code).toBe('PHOTO_NOT_FOUND');
    }
  });
});

describe('purchases', () => {
  it('is an empty list until purchases are recorded, then lists them with lines; recording is idempotent', async () => {
    const no = await create();
    const empty = (await get('B2C_GetClient_Purchase', { strclient: String(no) })).B2CGETCLIENTPURCHASE;
    expect(empty).toMatchObject({ CLIENT: no, PURCHASES: [], NEXTOFFSET: null, DELETED: [] });

    const purchase = {
      clientNo: no,
      source: 'SHOP' as const,
      shopCode: 'AMS',
      reference: `R-${no}-1`,
      purchasedAt: '2026-03-01T10:15:00Z',
      currency: 'EUR',
      lines: [
        { articleNo: 'A100-010', sizex: 'M', quantity: 2, unitPriceMinor: 1999, amountMinor: 3598 },
        { articleNo: 'A200-010', sizex: 'L', quantity: 1, unitPriceMinor: 4995, amountMinor: 4495 },
      ],
    };
    const first = await t.services.clients.purchases.recordPurchase(purchase);
    expect(first.recorded).toBe(true);
    expect(await t.services.clients.purchases.recordPurchase(purchase)).toEqual({
      purchaseNo: first.purchaseNo,
      recorded: false,
    });
    await t.services.clients.purchases.recordPurchase({
      ...purchase,
      source: 'WEB',
      shopCode: null,
      reference: `W-${no}`,
    });

    const list = (await get('B2C_GetClient_Purchase', { strclient: String(no), strlimit: '1' }))
      .B2CGETCLIENTPURCHASE;
    expect(list.NEXTOFFSET).toBe(2);
    expect(list.PURCHASES).toEqual([
      {
        PURCHASENO: first.purchaseNo,
        SOURCE: 'SHOP',
        SHOP: 'AMS',
        REFERENCE: `R-${no}-1`,
        DATE: '2026-03-01T10:15:00Z',
        CURRENCY: 'EUR',
        TOTAL: 80.93,
        LINES: [
          { LINENO: 1, ARTICLE: 'A100-010', SIZEX: 'M', QUANTITY: 2, PRICE: 19.99, AMOUNT: 35.98 },
          { LINENO: 2, ARTICLE: 'A200-010', SIZEX: 'L', QUANTITY: 1, PRICE: 49.95, AMOUNT: 44.95 },
        ],
        SCN: expect.any(Number),
      },
    ]);
    const second = (await get('B2C_GetClient_Purchase', { strclient: String(no), stroffset: '2' }))
      .B2CGETCLIENTPURCHASE;
    expect(second.PURCHASES.map((p: { SOURCE: string }) => p.SOURCE)).toEqual(['WEB']);
    const since = (
      await get('B2C_GetClient_Purchase', { strclient: String(no), strscn: String(list.PURCHASES[0].SCN) })
    ).B2CGETCLIENTPURCHASE;
    expect(since.PURCHASES.map((p: { SOURCE: string }) => p.SOURCE)).toEqual(['WEB']);

    const other = await create();
    await expect(
      t.services.clients.purchases.recordPurchase({ ...purchase, clientNo: other }),
    ).rejects.toMatchObject({
      code: 'PURCHASE_REFERENCE_TAKEN',
    });
  });
});

describe('on-account entries', () => {
  it('lists open items with totals per currency, and the detail of every entry', async () => {
    const no = await create();
    const entry = {
      clientNo: no,
      documentType: 'INVOICE' as const,
      currency: 'EUR',
    };
    await t.services.clients.purchases.saveOnAccountEntry({
      ...entry,
      documentNo: `INV-${no}-1`,
      documentDate: '2026-01-10',
      dueDate: '2026-02-10',
      description: 'Order 1',
      amountMinor: 12_550,
      openMinor: 12_550,
    });
    await t.services.clients.purchases.saveOnAccountEntry({
      ...entry,
      documentNo: `INV-${no}-2`,
      documentDate: '2026-01-20',
      amountMinor: 5000,
      openMinor: 0,
    });
    await t.services.clients.purchases.saveOnAccountEntry({
      ...entry,
      documentNo: `CN-${no}-1`,
      documentType: 'CREDITNOTE',
      documentDate: '2026-01-25',
      amountMinor: -1001,
      openMinor: -1001,
    });
    await t.services.clients.purchases.saveOnAccountEntry({
      ...entry,
      documentNo: `INV-${no}-3`,
      documentDate: '2026-01-26',
      currency: 'GBP',
      amountMinor: 700,
      openMinor: 300,
    });

    const open = (await get('B2C_GetClient_OpenOnAccount', { strclient: String(no) }))
      .B2CGETCLIENTOPENONACCOUNT;
    expect(open.TOTALS).toEqual([
      { CURRENCY: 'EUR', OPEN: 115.49 },
      { CURRENCY: 'GBP', OPEN: 3 },
    ]);
    expect(open.ITEMS.map((i: { DOCUMENTNO: string }) => i.DOCUMENTNO)).toEqual([
      `INV-${no}-1`,
      `CN-${no}-1`,
      `INV-${no}-3`,
    ]);
    expect(open.ITEMS[0]).toMatchObject({
      DOCUMENTTYPE: 'INVOICE',
      DATE: '2026-01-10',
      DUEDATE: '2026-02-10',
      DESCRIPTION: 'Order 1',
      AMOUNT: 125.5,
      OPEN: 125.5,
      SETTLED: false,
    });

    const detail = (await get('B2C_GetClient_OnAccountDetail', { strclient: String(no), strlimit: '3' }))
      .B2CGETCLIENTONACCOUNTDETAIL;
    expect(detail.ITEMS).toHaveLength(3);
    expect(detail.ITEMS[1]).toMatchObject({ DOCUMENTNO: `INV-${no}-2`, OPEN: 0, SETTLED: true });
    expect(detail.NEXTOFFSET).toBe(4);
    const one = (
      await get('B2C_GetClient_OnAccountDetail', { strclient: String(no), strdocumentno: `CN-${no}-1` })
    ).B2CGETCLIENTONACCOUNTDETAIL;
    expect(one.ITEMS).toEqual([expect.objectContaining({ AMOUNT: -10.01, DOCUMENTTYPE: 'CREDITNOTE' })]);
    const unknown = await t.call('GET', 'B2C_GetClient_OnAccountDetail', {
      token,
      query: { strclient: String(no), strdocumentno: 'NOPE' },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('DOCUMENT_NOT_FOUND');

    await expect(
      t.services.clients.purchases.saveOnAccountEntry({
        ...entry,
        documentNo: `X-${no}`,
        documentDate: '2026-01-01',
        amountMinor: 100,
        openMinor: 200,
      }),
    ).rejects.toMatchObject({ errors: [{ name: '/OPEN' }] });
    const other = await create();
    await expect(
      t.services.clients.purchases.saveOnAccountEntry({
        ...entry,
        clientNo: other,
        documentNo: `INV-${no}-1`,
        documentDate: '2026-01-01',
        amountMinor: 100,
        openMinor: 100,
      }),
    ).rejects.toMatchObject({ code: 'DOCUMENT_TAKEN' });
  });
});

describe('user messages', () => {
  it('lists without marking read; reading one (strmessage) marks it read', async () => {
    const no = await create();
    const { messageNo: m1 } = await t.services.clients.messages.sendMessage(no, {
      subject: 'Welkom',
      body: 'Fijn dat je er bent.',
    });
    const { messageNo: m2 } = await t.services.clients.messages.sendMessage(no, {
      subject: 'Actie',
      body: '20% korting.',
    });

    const list = (await get('B2C_GetUserMessages', { strclient: String(no) })).B2CGETUSERMESSAGES;
    expect(list.UNREAD).toBe(2);
    expect(list.MESSAGES.map((m: { MESSAGENO: number }) => m.MESSAGENO)).toEqual([m2, m1]);
    expect(list.MESSAGES[0]).toMatchObject({
      SUBJECT: 'Actie',
      BODY: '20% korting.',
      READ: false,
      READAT: null,
    });

    const read = (await get('B2C_GetUserMessages', { strclient: String(no), strmessage: String(m1) }))
      .B2CGETUSERMESSAGES;
    expect(read.UNREAD).toBe(1);
    expect(read.MESSAGES).toEqual([expect.objectContaining({ MESSAGENO: m1, READ: true })]);
    const readAt = read.MESSAGES[0].READAT;
    const again = (await get('B2C_GetUserMessages', { strclient: String(no), strmessage: String(m1) }))
      .B2CGETUSERMESSAGES;
    expect(again.MESSAGES[0].READAT).toBe(readAt);

    const unread = (await get('B2C_GetUserMessages', { strclient: String(no), strunread: '1' }))
      .B2CGETUSERMESSAGES;
    expect(unread.MESSAGES.map((m: { MESSAGENO: number }) => m.MESSAGENO)).toEqual([m2]);

    const missing = await t.call('GET', 'B2C_GetUserMessages', {
      token,
      query: { strclient: String(no), strmessage: '99999999' },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('MESSAGE_NOT_FOUND');
    await expect(
      t.services.clients.messages.sendMessage(no, { subject: ' ', body: 'x' }),
    ).rejects.toMatchObject({
      errors: [{ name: '/SUBJECT' }],
    });
  });
});

describe('client actions', () => {
  it('offers actions to everyone, to one client or to a member level, and lets each be claimed once', async () => {
    const gold = await create();
    await t.services.clients.profiles.saveClient({
      clientNo: gold,
      memberCard: { cardNo: `G-${gold}`, level: 'GOLD', validFrom: '2020-01-01', validTo: '2099-12-31' },
    });
    const plain = await create();
    const d = (text: string) => ({ LANGUAGE_1: text, LANGUAGE_2: text });
    await t.services.clients.messages.saveAction({
      code: 'ALL10',
      description: d('10 off'),
      validFrom: '2020-01-01',
      validTo: '2099-12-31',
    });
    await t.services.clients.messages.saveAction({
      code: 'GOLD20',
      description: d('20 off'),
      memberLevel: 'GOLD',
      validFrom: '2020-01-01',
      validTo: '2099-12-31',
    });
    await t.services.clients.messages.saveAction({
      code: `BDAY-${plain}`,
      description: d('Birthday'),
      clientNo: plain,
      validFrom: '2020-01-01',
      validTo: '2099-12-31',
    });
    await t.services.clients.messages.saveAction({
      code: 'OLD',
      description: d('Old'),
      validFrom: '2020-01-01',
      validTo: '2020-12-31',
    });

    const codes = async (no: number) =>
      (await get('B2C_GetClientActions', { strclient: String(no) })).B2CGETCLIENTACTIONS.ACTIONS.map(
        (a: { ACTION: string }) => a.ACTION,
      );
    expect((await codes(gold)).sort()).toEqual(['ALL10', 'GOLD20']);
    expect((await codes(plain)).sort()).toEqual(['ALL10', `BDAY-${plain}`]);

    const claim = (no: number, action: string) =>
      t.call('GET', 'B2C_ClaimClientAction', { token, query: { strclient: String(no), straction: action } });
    const ok = await claim(gold, 'GOLD20');
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().B2CCLAIMCLIENTACTION.ACTIONS[0]).toMatchObject({
      ACTION: 'GOLD20',
      CLAIMED: true,
      DESCRIPTION: { LANGUAGE_1: '20 off', LANGUAGE_3: '' },
    });
    const twice = await claim(gold, 'GOLD20');
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('ACTION_ALREADY_CLAIMED');
    const listed = (await get('B2C_GetClientActions', { strclient: String(gold) })).B2CGETCLIENTACTIONS
      .ACTIONS;
    expect(listed.find((a: { ACTION: string }) => a.ACTION === 'GOLD20').CLAIMED).toBe(true);
    expect(listed.find((a: { ACTION: string }) => a.ACTION === 'ALL10').CLAIMED).toBe(false);

    expect((await claim(plain, 'GOLD20')).json().code).toBe('ACTION_NOT_FOUND');
    expect((await claim(gold, `BDAY-${plain}`)).statusCode).toBe(404);
    expect((await claim(gold, 'NOPE')).statusCode).toBe(404);
    const old = await claim(gold, 'OLD');
    expect(old.statusCode).toBe(409);
    expect(old.json().code).toBe('ACTION_NOT_VALID');
    expect((await claim(plain, `BDAY-${plain}`)).statusCode).toBe(200);
  });
});

describe('marked for deletion and anonymisation', () => {
  it('marks and unmarks; after the grace period anonymises personal data and keeps the accounting', async () => {
    const email = freshEmail();
    const no = await create({
      EMAIL: email,
      PHONE: '+31612345678',
      ADDRESS: 'Dorpsstraat',
      HOUSENUMBER: '1',
      POSTALCODE: '1234 AB',
      CITY: 'Ergens',
      COUNTRY: 'NL',
      BIRTHDATE: '1980-05-05',
      CONSENTS: { NEWSLETTER: true },
      HOMESHOP: 'UTR',
    });
    await t.services.clients.profiles.saveClient({
      clientNo: no,
      memberCard: { cardNo: `D-${no}`, level: 'SILVER', validFrom: '2020-01-01', validTo: '2099-12-31' },
    });
    await t.services.clients.purchases.recordPurchase({
      clientNo: no,
      source: 'WEB',
      reference: `DEL-${no}`,
      purchasedAt: '2026-01-01T12:00:00Z',
      currency: 'EUR',
      lines: [{ articleNo: 'A1', sizex: 'M', quantity: 1, unitPriceMinor: 1000, amountMinor: 1000 }],
    });
    await t.services.clients.purchases.saveOnAccountEntry({
      clientNo: no,
      documentNo: `DEL-INV-${no}`,
      documentType: 'INVOICE',
      documentDate: '2026-01-01',
      currency: 'EUR',
      amountMinor: 1000,
      openMinor: 1000,
    });
    await t.services.clients.messages.sendMessage(no, { subject: 'Hallo', body: 'Persoonlijk bericht' });
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#abc' } })
      .png()
      .toBuffer();
    await t.services.clients.profiles.putProfilePhoto(no, png);

    // The clock of this service is ours to move.
    let clock = new Date('2026-05-01T08:00:00Z');
    const service = new ClientService(t.database, () => clock);

    const mark = await t.call('GET', 'B2C_UpdateMarkedForDeletion', {
      token,
      query: { strclient: String(no), strflag: '1' },
    });
    expect(mark.statusCode, mark.body).toBe(200);
    expect(mark.json().B2CUPDATEMARKEDFORDELETION).toMatchObject({ CLIENT: no, MARKEDFORDELETION: true });
    const unmark = await t.call('GET', 'B2C_UpdateMarkedForDeletion', {
      token,
      query: { strclient: String(no), strflag: '0' },
    });
    expect(unmark.json().B2CUPDATEMARKEDFORDELETION).toMatchObject({
      MARKEDFORDELETION: false,
      MARKEDFORDELETIONAT: null,
      DELETIONDUE: null,
    });

    const marked = await service.setMarkedForDeletion(no, true);
    expect(marked.markedAt).toBe('2026-05-01T08:00:00.000Z');
    expect(marked.due).toBe('2026-05-31T08:00:00.000Z');
    clock = new Date('2026-05-10T08:00:00Z');
    expect((await service.setMarkedForDeletion(no, true)).markedAt).toBe('2026-05-01T08:00:00.000Z');
    const shown = (await get('B2C_GetClient', { strclient: String(no) })).B2CGETCLIENT.CLIENTS[0];
    expect(shown).toMatchObject({
      MARKEDFORDELETION: true,
      MARKEDFORDELETIONAT: '2026-05-01T08:00:00Z',
      DELETIONDUE: '2026-05-31T08:00:00Z',
    });

    expect(DELETION_GRACE_DAYS).toBe(30);
    expect(await service.anonymiseDue(new Date('2026-05-31T07:59:59Z'))).not.toContain(no);
    const repo = new ClientRepository(t.database.db);
    const scnBefore = (await repo.findClient(no))?.scn ?? 0;
    expect(await service.anonymiseDue(new Date('2026-05-31T08:00:00Z'))).toContain(no);
    expect(await service.anonymiseDue(new Date('2026-06-30T08:00:00Z'))).not.toContain(no);

    const row = await repo.findClient(no);
    expect(row).toMatchObject({
      client_no: no,
      email: null,
      email_norm: null,
      first_name: null,
      middle_name: null,
      last_name: null,
      phone: null,
      address: null,
      house_number: null,
      postal_code: null,
      city: null,
      birth_date: null,
      consent_newsletter_at: null,
      card_no: null,
      card_level: null,
      anonymised: 1,
      anonymised_at: '2026-05-31T08:00:00.000Z',
      country: 'NL',
      home_shop: 'UTR',
    });
    expect(row?.scn).toBeGreaterThan(scnBefore);
    expect(await repo.findPhoto(no, 'PROFILE')).toBeUndefined();
    expect(await repo.findPhoto(no, 'CARD')).toBeUndefined();
    expect(await repo.messagesPage(no, false, 0, 10)).toEqual([]);
    // accounting stays
    expect(await repo.purchasesPage(no, 0, 0, 10)).toHaveLength(1);
    expect(await repo.onAccountEntries(no, {})).toHaveLength(1);

    const gone = await t.call('GET', 'B2C_GetClient', { token, query: { strclient: String(no) } });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().code).toBe('CLIENT_NOT_FOUND');
    expect((await t.call('GET', 'B2C_GetClient', { token, query: { stremail: email } })).statusCode).toBe(
      404,
    );
    // the address is free again
    const again = await post({ EMAIL: email, LASTNAME: 'Nieuw' });
    expect(again.statusCode).toBe(200);
    expect(again.json().B2CPOSTCLIENT.CLIENT).not.toBe(no);
  });

  it('does not anonymise a client whose request was taken back', async () => {
    const no = await create();
    let clock = new Date('2026-01-01T00:00:00Z');
    const service = new ClientService(t.database, () => clock);
    await service.setMarkedForDeletion(no, true);
    clock = new Date('2026-01-15T00:00:00Z');
    await service.setMarkedForDeletion(no, false);
    expect(await service.anonymiseDue(new Date('2026-12-31T00:00:00Z'))).not.toContain(no);
    expect((await get('B2C_GetClient', { strclient: String(no) })).B2CGETCLIENT.CLIENTS[0].LASTNAME).toBe(
      'Jansen',
    );
  });
});
