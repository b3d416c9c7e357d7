import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { etagOf, samePicture } from '../../../../test/helpers/images.ts';
import { expectScnStep } from '../../../../test/helpers/scn.ts';
import { freshDatabaseUrl } from '../../../../test/helpers/test-app.ts';
import { AREAS, MIGRATIONS } from '../../../areas.ts';
import { loadConfig } from '../../../config.ts';
import { buildApp } from '../../../http/server.ts';
import { migrate, openDatabase } from '../../../kernel/db/database.ts';
import { currentScn } from '../../../kernel/db/unit-of-work.ts';
import { runImport } from '../../../kernel/import/run-import.ts';
import { createServices, type Services } from '../../../services.ts';
import { shopDetails } from '../import-kinds.ts';

/**
 * The shops' admin routes, on the server as start-up builds it (buildApp over every area of
 * AREAS): nothing is added here, so a route the shops area stops registering fails these tests.
 */
let app: Awaited<ReturnType<typeof buildApp>>;
let services: Services;
let close: () => Promise<void>;
let admin: string;
let retail: string;

async function tokenFor(roles: Array<'ADMIN' | 'B2C' | 'B2B'>): Promise<string> {
  const name = `u${Math.random().toString(36).slice(2, 10)}`;
  const { secret } = await services.general.auth.createUser({ name, roles });
  const res = await app.inject({
    method: 'GET',
    url: '/TV2/GetToken',
    headers: { authorization: `Basic ${Buffer.from(`${name}:${secret}`).toString('base64')}` },
  });
  return res.json().GETTOKEN.TOKEN as string;
}

function png(shade: number): Buffer {
  const image = new PNG({ width: 3, height: 3 });
  image.data.fill(shade);
  return PNG.sync.write(image);
}

const send = (method: 'PUT' | 'DELETE', url: string, payload?: unknown, token = admin) =>
  app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${token}`,
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
  });

const putBytes = (url: string, data: Buffer, type: string) =>
  app.inject({
    method: 'PUT',
    url,
    headers: { authorization: `Bearer ${admin}`, 'content-type': type },
    payload: data,
  });

const read = async (op: string, query: Record<string, string> = {}) => {
  const res = await app.inject({
    method: 'GET',
    url: `/TV2/Execute/APIPACK.${op}`,
    query,
    headers: { authorization: `Bearer ${retail}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  return Object.values(res.json())[0] as Record<string, unknown> & { SCN: number };
};

const names = (res: { json(): { errors?: Array<{ name: string }> } }) =>
  (res.json().errors ?? []).map((e) => e.name);

beforeAll(async () => {
  const fresh = await freshDatabaseUrl();
  const config = loadConfig({}, { databaseUrl: fresh.url, demo: false });
  const database = openDatabase(config.databaseUrl);
  await migrate(database, MIGRATIONS);
  services = createServices(config, database);
  app = await buildApp(services, { areas: AREAS });
  await app.ready();
  close = async () => {
    await app.close();
    await database.close();
    await fresh.drop();
  };
  admin = await tokenFor(['ADMIN']);
  retail = await tokenFor(['B2C']);
  const location = {
    name: 'Shop',
    kind: 'SHOP' as const,
    servesWholesale: false,
    servesRetail: true,
    country: 'NL',
  };
  await services.stock.locations.createLocation({ ...location, code: 'AMS' });
  await services.stock.locations.createLocation({ ...location, code: 'UTR' });
  await services.stock.locations.createLocation({ ...location, code: 'WH', kind: 'WAREHOUSE' });
});
afterAll(() => close());

const AMS = {
  LOCATION: 'AMS',
  PHONE: '+31 20 123 45 67',
  EMAIL: 'ams@example.com',
  LATITUDE: '52.370216',
  LONGITUDE: 4.895168,
  PICKUP: true,
  DESCRIPTION: { LANGUAGE_2: 'Flagship' },
  OPENINGHOURS: [{ WEEKDAY: 1, HOURS: [{ OPENS: '09:00', CLOSES: '18:00' }] }],
  EXCEPTIONS: [{ DATE: '2026-12-25', HOURS: [] }],
};

describe('shop details in the admin area', () => {
  it('sets details, moves the SCN once, and a repeat changes nothing', async () => {
    const before = await currentScn(services.database.db);
    const first = await send('PUT', '/TV2/Admin/shops/AMS', AMS);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ WRITTEN: 1, UNCHANGED: 0 });
    const after = await currentScn(services.database.db);
    expectScnStep(before, after, 1);
    expect((await send('PUT', '/TV2/Admin/shops/AMS', AMS)).json()).toEqual({ WRITTEN: 0, UNCHANGED: 1 });
    expectScnStep(after, await currentScn(services.database.db), 0);

    // A record read through the API can be written back as it is.
    const shops = (await read('B2C_GetAllShops')).SHOPS as Array<Record<string, unknown>>;
    const ams = shops.find((s) => s.LOCATION === 'AMS');
    expect(ams).toMatchObject({ PHONE: '+31201234567', LATITUDE: 52.370216, PICKUP: true });
    expect((await send('PUT', '/TV2/Admin/shops/AMS', ams)).json()).toEqual({ WRITTEN: 0, UNCHANGED: 1 });
  });

  it('answers 400 naming each bad field, all at once', async () => {
    const res = await send('PUT', '/TV2/Admin/shops/UTR', {
      LOCATION: 'UTR',
      PHONE: 'call us',
      EMAIL: 'nobody',
      LATITUDE: '95',
      TIMEZONE: 'Mars/Olympus',
      OPENINGHOURS: [{ WEEKDAY: 2, HOURS: [{ OPENS: '18:00', CLOSES: '09:00' }] }],
      EXCEPTIONS: [{ DATE: '2026-13-01', HOURS: [] }],
    });
    expect(res.statusCode).toBe(400);
    expect(names(res).sort()).toEqual(
      [
        '/PHONE',
        '/EMAIL',
        '/LATITUDE',
        '/LONGITUDE',
        '/TIMEZONE',
        '/OPENINGHOURS/0/HOURS/0/CLOSES',
        '/EXCEPTIONS/0/DATE',
      ].sort(),
    );
    const schema = await send('PUT', '/TV2/Admin/shops/UTR', { LOCATION: 'UTR', PICKUP: 'yes' });
    expect(schema.statusCode).toBe(400);
    expect(schema.body).toContain('PICKUP');
    const path = await send('PUT', '/TV2/Admin/shops/UTR', { LOCATION: 'AMS' });
    expect(path.statusCode).toBe(400);
    expect(names(path)).toEqual(['/LOCATION']);
    // the shape of weekdays, times and dates is the schema's
    const shape = await send('PUT', '/TV2/Admin/shops/UTR', {
      LOCATION: 'UTR',
      OPENINGHOURS: [
        { WEEKDAY: 8, HOURS: [] },
        { WEEKDAY: 2, HOURS: [{ OPENS: '9:00', CLOSES: '25:00' }] },
        { WEEKDAY: 3, HOURS: Array.from({ length: 7 }, () => ({ OPENS: '09:00', CLOSES: '10:00' })) },
      ],
      EXCEPTIONS: [{ DATE: '26-1-1', HOURS: [] }],
    });
    expect(shape.statusCode).toBe(400);
    expect(names(shape).sort()).toEqual(
      [
        '/OPENINGHOURS/0/WEEKDAY',
        '/OPENINGHOURS/1/HOURS/0/OPENS',
        '/OPENINGHOURS/1/HOURS/0/CLOSES',
        '/OPENINGHOURS/2/HOURS',
        '/EXCEPTIONS/0/DATE',
      ].sort(),
    );
  });

  it('refuses details for a warehouse or an unknown location, and callers without ADMIN', async () => {
    for (const code of ['WH', 'NOPE']) {
      const res = await send('PUT', `/TV2/Admin/shops/${code}`, { LOCATION: code });
      expect(res.statusCode, code).toBe(404);
      expect(res.json().code).toBe('SHOP_NOT_FOUND');
    }
    expect((await send('PUT', '/TV2/Admin/shops/AMS', AMS, retail)).statusCode).toBe(403);
  });

  it('imports shop details from CSV; a second import changes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tv2-shops-'));
    const file = join(dir, 'shops.csv');
    writeFileSync(
      file,
      'LOCATION,PHONE,LATITUDE,LONGITUDE,PICKUP,HOURS_1,HOURS_6,DESCRIPTION_LANGUAGE_2\n' +
        'UTR,030 123 4567,52.090737,5.121420,yes,09:00-12:30 13:30-18:00,10:00-17:00,Canal shop\n' +
        'WH,,,,no,,,\n',
    );
    const kind = shopDetails;
    const result = await runImport(services, kind, file);
    expect(result).toMatchObject({ records: 2, written: 1 });
    expect(result.rejected).toHaveLength(1);
    const utr = ((await read('B2C_GetAllShops')).SHOPS as Array<Record<string, unknown>>).find(
      (s) => s.LOCATION === 'UTR',
    );
    expect(utr).toMatchObject({ PHONE: '+31301234567', LONGITUDE: 5.12142, PICKUP: true });
    expect((utr?.OPENINGHOURS as Array<{ HOURS: unknown[] }>)[0]?.HOURS).toHaveLength(2);
    expect(await runImport(services, kind, file)).toMatchObject({ written: 0, unchanged: 1 });
  });
});

describe('shop images, assistants, pickup points, blocks and patterns in the admin area', () => {
  it('stores an image by its sniffed type and refuses mismatches and non-images', async () => {
    const put = await putBytes('/TV2/Admin/shops/AMS/images/1', png(50), 'image/png');
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual({ CONTENTTYPE: 'image/png', WRITTEN: true });
    expect((await putBytes('/TV2/Admin/shops/AMS/images/1', png(50), 'image/png')).json().WRITTEN).toBe(
      false,
    );
    const mismatch = await putBytes('/TV2/Admin/shops/AMS/images/2', png(50), 'image/jpeg');
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().code).toBe('CONTENT_TYPE_MISMATCH');
    const junk = await putBytes(
      '/TV2/Admin/shops/AMS/images/2',
      Buffer.from('not an image at all'),
      'image/png',
    );
    expect(junk.statusCode).toBe(400);
    expect(junk.json().code).toBe('UNSUPPORTED_IMAGE');
    expect((await putBytes('/TV2/Admin/shops/WH/images/1', png(50), 'image/png')).statusCode).toBe(404);
    const image = await app.inject({
      method: 'GET',
      url: '/TV2/Execute/APIPACK.B2C_GetShopImage?strlocation=AMS',
      headers: { authorization: `Bearer ${retail}` },
    });
    expect(await samePicture(image.rawPayload, png(50))).toBe(true);
    expect(image.headers.etag).toBe(etagOf(image.rawPayload));
  });

  it('keeps assistants, with a photo that must be an image of the shop while it is shown', async () => {
    const anna = {
      LOCATION: 'AMS',
      ASSISTANT: 1,
      NAME: 'Anna',
      ROLE: { LANGUAGE_2: 'Manager' },
      PHOTOIMAGENO: 1,
    };
    const put = await send('PUT', '/TV2/Admin/shops/AMS/assistants/1', anna);
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual({ WRITTEN: 1, UNCHANGED: 0 });
    const noPhoto = await send('PUT', '/TV2/Admin/shops/AMS/assistants/2', {
      ...anna,
      ASSISTANT: 2,
      PHOTOIMAGENO: 7,
    });
    expect(noPhoto.statusCode).toBe(400);
    expect(names(noPhoto)).toEqual(['/PHOTOIMAGENO']);
    const shape = await send('PUT', '/TV2/Admin/shops/AMS/assistants/0', {
      ...anna,
      ASSISTANT: 0,
      NAME: '  ',
      PHOTOIMAGENO: 100,
    });
    expect(shape.statusCode).toBe(400);
    expect(names(shape).sort()).toEqual(['/ASSISTANT', '/NAME', '/PHOTOIMAGENO']);
    const imageZero = await putBytes('/TV2/Admin/shops/AMS/images/0', png(50), 'image/png');
    expect(imageZero.statusCode).toBe(400);
    expect(names(imageZero)).toEqual(['imageno']);
    const inUse = await send('DELETE', '/TV2/Admin/shops/AMS/images/1');
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().code).toBe('IMAGE_IN_USE');
    const mismatch = await send('PUT', '/TV2/Admin/shops/AMS/assistants/3', anna);
    expect(names(mismatch)).toEqual(['/ASSISTANT']);

    expect((await send('DELETE', '/TV2/Admin/shops/AMS/assistants/1')).statusCode).toBe(204);
    expect((await send('DELETE', '/TV2/Admin/shops/AMS/assistants/1')).json().code).toBe(
      'ASSISTANT_NOT_FOUND',
    );
    expect((await send('DELETE', '/TV2/Admin/shops/AMS/images/1')).statusCode).toBe(204);
    expect((await send('DELETE', '/TV2/Admin/shops/AMS/images/1')).json().code).toBe('IMAGE_NOT_FOUND');
  });

  it('keeps pickup points with a checked postal code and position', async () => {
    const point = {
      LOCATION: 'PP1',
      NAME: 'Bookshop pickup point',
      POSTALCODE: '3511az',
      COUNTRY: 'NL',
      LATITUDE: '52.1',
      LONGITUDE: '5.1',
    };
    const put = await send('PUT', '/TV2/Admin/pickuppoints/PP1', point);
    expect(put.statusCode, put.body).toBe(200);
    const listed = (await read('B2C_GetPickUpLocations')).LOCATIONS as Array<Record<string, unknown>>;
    expect(listed.find((l) => l.LOCATION === 'PP1')).toMatchObject({ TYPE: 'POINT', POSTALCODE: '3511 AZ' });
    const bad = await send('PUT', '/TV2/Admin/pickuppoints/PP2', {
      ...point,
      LOCATION: 'PP2',
      POSTALCODE: '35',
      COUNTRY: 'XX',
      LATITUDE: '52.1234567',
    });
    expect(names(bad).sort()).toEqual(['/COUNTRY', '/LATITUDE']);
    const badPostal = await send('PUT', '/TV2/Admin/pickuppoints/PP2', {
      ...point,
      LOCATION: 'PP2',
      POSTALCODE: '35',
    });
    expect(names(badPostal)).toEqual(['/POSTALCODE']);
    const shape = await send('PUT', '/TV2/Admin/pickuppoints/PP2', {
      ...point,
      LOCATION: 'PP 2',
      NAME: ' ',
      LATITUDE: 'x',
    });
    expect(shape.statusCode).toBe(400);
    expect(names(shape).sort()).toEqual(['/LOCATION', '/NAME']);
    expect((await send('DELETE', '/TV2/Admin/pickuppoints/PP1')).statusCode).toBe(204);
    expect((await send('DELETE', '/TV2/Admin/pickuppoints/PP1')).statusCode).toBe(404);
  });

  it('keeps content blocks with checked references, links and validity', async () => {
    const block = {
      PAGE: 'HOME',
      BLOCK: 1,
      POSITION: 1,
      TITLE: { LANGUAGE_2: 'Hello' },
      IMAGE: 'ARTICLE:A100-010/1',
      LINK: 'tv2app://articles/A100-010',
      VALIDFROM: '2026-01-01T00:00:00Z',
    };
    expect((await send('PUT', '/TV2/Admin/homepages/HOME/blocks/1', block)).json()).toEqual({
      WRITTEN: 1,
      UNCHANGED: 0,
    });
    const bad = await send('PUT', '/TV2/Admin/homepages/HOME/blocks/2', {
      ...block,
      BLOCK: 2,
      IMAGE: 'http://insecure.example.com/a.png',
      LINK: 'not a link',
      VALIDTO: '2025-01-01T00:00:00Z',
      POSITION: -1,
    });
    expect(names(bad).sort()).toEqual(['/IMAGE', '/LINK', '/POSITION', '/VALIDTO']);
    const shape = await send('PUT', '/TV2/Admin/homepages/home/blocks/0', {
      ...block,
      PAGE: 'home',
      BLOCK: 0,
    });
    expect(shape.statusCode).toBe(400);
    expect(names(shape).sort()).toEqual(['/BLOCK', '/PAGE']);
    expect((await send('DELETE', '/TV2/Admin/homepages/HOME/blocks/1')).statusCode).toBe(204);
    expect((await send('DELETE', '/TV2/Admin/homepages/HOME/blocks/1')).json().code).toBe('BLOCK_NOT_FOUND');
  });

  it('keeps validation patterns; the server’s own are fixed', async () => {
    const vat = {
      NAME: 'VATNO',
      COUNTRY: 'NL',
      PATTERN: '^NL[0-9]{9}B[0-9]{2}$',
      DESCRIPTION: { LANGUAGE_2: 'VAT' },
    };
    expect((await send('PUT', '/TV2/Admin/regexes/VATNO/NL', vat)).json()).toEqual({
      WRITTEN: 1,
      UNCHANGED: 0,
    });
    const all = { NAME: 'HOUSENUMBER', PATTERN: '^[0-9]{1,5}[A-Za-z]?$' };
    expect((await send('PUT', '/TV2/Admin/regexes/HOUSENUMBER', all)).statusCode).toBe(200);
    const listed = (await read('B2C_GetCompanyRegEx')).REGEXES as Array<Record<string, unknown>>;
    // After the server's own, in the order they were stored (their stable positions).
    expect(listed.filter((r) => !r.SERVER).map((r) => `${r.NAME}/${r.COUNTRY}`)).toEqual([
      'VATNO/NL',
      'HOUSENUMBER/null',
    ]);

    const fixed = await send('PUT', '/TV2/Admin/regexes/POSTALCODE/NL', {
      NAME: 'POSTALCODE',
      COUNTRY: 'NL',
      PATTERN: '^.*$',
    });
    expect(fixed.statusCode).toBe(409);
    expect(fixed.json().code).toBe('PATTERN_FIXED');
    expect((await send('DELETE', '/TV2/Admin/regexes/EMAIL')).statusCode).toBe(409);
    const broken = await send('PUT', '/TV2/Admin/regexes/VATNO/BE', {
      NAME: 'VATNO',
      COUNTRY: 'BE',
      PATTERN: '^BE[0-9$',
    });
    expect(broken.statusCode).toBe(400);
    expect(names(broken)).toEqual(['PATTERN']);
    const shape = await send('PUT', '/TV2/Admin/regexes/vat/nl', { ...vat, NAME: 'vat', COUNTRY: 'nl' });
    expect(shape.statusCode).toBe(400);
    expect(names(shape).sort()).toEqual(['/COUNTRY', '/NAME']);
    const wrongCountry = await send('PUT', '/TV2/Admin/regexes/VATNO/BE', vat);
    expect(names(wrongCountry)).toEqual(['/COUNTRY']);
    expect((await send('DELETE', '/TV2/Admin/regexes/VATNO/NL')).statusCode).toBe(204);
    expect((await send('DELETE', '/TV2/Admin/regexes/VATNO/NL')).json().code).toBe('PATTERN_NOT_FOUND');
  });
});
