import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { etagOf, samePicture } from '../../../../test/helpers/images.ts';
import { expectScnStep } from '../../../../test/helpers/scn.ts';
import { startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { type LocationInput, seedStock } from '../../stock/index.ts';
import { SERVER_PATTERNS } from '../company-regex.ts';
import { seedShops } from '../demo.ts';

let t: TestApp;
let retail: string;

function png(shade: number): Buffer {
  const image = new PNG({ width: 4, height: 4 });
  image.data.fill(shade);
  return PNG.sync.write(image);
}

const shop = (code: string, overrides: Partial<LocationInput> = {}): LocationInput => ({
  code,
  name: `Shop ${code}`,
  kind: 'SHOP',
  servesWholesale: false,
  servesRetail: true,
  address: 'Kalverstraat',
  houseNumber: '1',
  postalCode: '1012 PK',
  city: 'Amsterdam',
  country: 'NL',
  ...overrides,
});

const week = [1, 2, 3, 4, 5].map((weekday) => ({
  weekday,
  hours: [
    { opens: '13:00', closes: '18:00' },
    { opens: '09:30', closes: '12:30' },
  ],
}));

beforeAll(async () => {
  t = await startTestApp();
  retail = await t.tokenFor(['B2C']);
  const { stock, shops } = t.services;
  await stock.locations.createLocation(shop('AMS'));
  await stock.locations.createLocation(shop('ANT', { city: 'Antwerpen', country: 'BE', postalCode: '2000' }));
  await stock.locations.createLocation(shop('BARE'));
  await stock.locations.createLocation(shop('HIDDEN', { servesRetail: false }));
  await stock.locations.createLocation(shop('SLEEP', { active: false }));
  await stock.locations.createLocation({ ...shop('WH'), kind: 'WAREHOUSE', servesWholesale: true });
  await shops.shops.saveShopDetail({
    locationCode: 'AMS',
    phone: '020 123 4567',
    email: 'ams@example.com',
    latitude: '52.370216',
    longitude: 4.895168,
    pickup: true,
    description: { LANGUAGE_1: 'Onze winkel', LANGUAGE_2: 'Our shop' },
    openingHours: [...week, { weekday: 6, hours: [{ opens: '10:00', closes: '17:00' }] }],
    exceptions: [{ date: '2026-12-25', hours: [], description: { LANGUAGE_2: 'Christmas' } }],
  });
  await shops.shops.saveShopDetail({
    locationCode: 'ANT',
    latitude: '51.218',
    longitude: '4.4025',
    pickup: true,
  });
  await shops.shops.saveShopDetail({ locationCode: 'HIDDEN', latitude: '52', longitude: '5', pickup: true });
  await shops.shops.putShopImage('AMS', 1, png(10));
  await shops.shops.putShopImage('AMS', 2, png(20));
  await shops.shops.putShopImage('HIDDEN', 1, png(30));
  await shops.shops.saveAssistant({
    locationCode: 'AMS',
    assistantNo: 1,
    name: 'Anna',
    role: { LANGUAGE_2: 'Manager' },
    photoImageNo: 2,
  });
  await shops.shops.saveAssistant({ locationCode: 'AMS', assistantNo: 2, name: 'Bram' });
  await shops.shops.saveAssistant({ locationCode: 'ANT', assistantNo: 1, name: 'Chris', active: false });
  await shops.shops.saveAssistant({ locationCode: 'HIDDEN', assistantNo: 1, name: 'Dana' });
  await shops.pickup.savePickupPoint({
    code: 'P-UTR',
    name: 'Parcel point Utrecht',
    city: 'Utrecht',
    country: 'NL',
    postalCode: '3511az',
    latitude: '52.090737',
    longitude: '5.121420',
  });
  await shops.pickup.savePickupPoint({
    code: 'P-OFF',
    name: 'Closed point',
    latitude: 50,
    longitude: 4,
    active: false,
  });
  await shops.content.saveHomePageBlock({
    page: 'HOME',
    blockNo: 1,
    position: 20,
    title: { LANGUAGE_2: 'Summer sale' },
    image: 'SHOP:AMS/1',
    link: 'https://example.com/sale',
    validFrom: '2026-06-01T00:00:00Z',
    validTo: '2026-07-01T00:00:00Z',
  });
  await shops.content.saveHomePageBlock({
    page: 'HOME',
    blockNo: 2,
    position: 10,
    title: { LANGUAGE_2: 'New in' },
  });
  await shops.content.saveHomePageBlock({ page: 'MEN', blockNo: 1, position: 1, active: false });
  await shops.content.saveRegex({
    name: 'VATNO',
    country: 'NL',
    pattern: '^NL[0-9]{9}B[0-9]{2}$',
    description: {},
  });
});
afterAll(() => t.close());

const get = async (op: string, query: Record<string, string> = {}) => {
  const res = await t.call('GET', op, { token: retail, query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

const codes = (rows: Array<{ LOCATION: string }>) => rows.map((r) => r.LOCATION);

describe('B2C_GetAllShops', () => {
  it('lists the active retail shops with address, contact, position and hours', async () => {
    const body = (await get('B2C_GetAllShops')).B2CGETALLSHOPS;
    expect(codes(body.SHOPS)).toEqual(['AMS', 'ANT', 'BARE']);
    expect(body).toMatchObject({ NEXTOFFSET: null, DELETED: [] });
    const ams = body.SHOPS[0];
    expect(ams).toMatchObject({
      LOCATION: 'AMS',
      NAME: 'Shop AMS',
      ADDRESS: 'Kalverstraat',
      HOUSENUMBER: '1',
      POSTALCODE: '1012 PK',
      CITY: 'Amsterdam',
      COUNTRY: 'NL',
      PHONE: '+31201234567',
      EMAIL: 'ams@example.com',
      LATITUDE: 52.370216,
      LONGITUDE: 4.895168,
      PICKUP: true,
      TIMEZONE: 'Europe/Amsterdam',
      DESCRIPTION: {
        LANGUAGE_1: 'Onze winkel',
        LANGUAGE_11: '',
        LANGUAGE_2: 'Our shop',
        LANGUAGE_3: '',
        LANGUAGE_4: '',
      },
      EXCEPTIONS: [
        { DATE: '2026-12-25', HOURS: [], DESCRIPTION: expect.objectContaining({ LANGUAGE_2: 'Christmas' }) },
      ],
    });
    expect(ams.OPENINGHOURS).toHaveLength(7);
    expect(ams.OPENINGHOURS[0]).toEqual({
      WEEKDAY: 1,
      HOURS: [
        { OPENS: '09:30', CLOSES: '12:30' },
        { OPENS: '13:00', CLOSES: '18:00' },
      ],
    });
    expect(ams.OPENINGHOURS[6]).toEqual({ WEEKDAY: 7, HOURS: [] });
    expect(body.SHOPS[1]).toMatchObject({ LOCATION: 'ANT', TIMEZONE: 'Europe/Brussels', LATITUDE: 51.218 });
    // A shop without details is listed with empty ones.
    expect(body.SHOPS[2]).toMatchObject({
      LOCATION: 'BARE',
      PHONE: '',
      LATITUDE: null,
      PICKUP: false,
      EXCEPTIONS: [],
    });
  });

  it('pages by stroffset and strlimit', async () => {
    const first = (await get('B2C_GetAllShops', { strlimit: '2' })).B2CGETALLSHOPS;
    expect(codes(first.SHOPS)).toEqual(['AMS', 'ANT']);
    // NEXTOFFSET is the position of BARE's location, the next shop retail sees.
    const second = (await get('B2C_GetAllShops', { strlimit: '2', stroffset: String(first.NEXTOFFSET) }))
      .B2CGETALLSHOPS;
    // Locations retail does not see take no place (the list skips them), and none is left after BARE.
    expect(codes(second.SHOPS)).toEqual(['BARE']);
    expect(second.NEXTOFFSET).toBeNull();
  });

  it('feeds changes after an SCN: changed details, and shops retail no longer sees under DELETED', async () => {
    const since = (await get('B2C_GetAllShops')).B2CGETALLSHOPS.SCN;
    expect((await get('B2C_GetAllShops', { strscn: String(since) })).B2CGETALLSHOPS).toMatchObject({
      SHOPS: [],
      DELETED: [],
      SCN: since,
    });
    await t.services.shops.shops.saveShopDetail({ locationCode: 'BARE', phone: '+31301234567' });
    await t.services.stock.locations.changeLocation('ANT', { servesRetail: false });
    const feed = (await get('B2C_GetAllShops', { strscn: String(since) })).B2CGETALLSHOPS;
    expect(codes(feed.SHOPS)).toEqual(['BARE']);
    expect(feed.SHOPS[0].PHONE).toBe('+31301234567');
    expect(feed.SHOPS[0].SCN).toBeGreaterThan(since);
    expect(feed.DELETED).toEqual(['ANT']);
    expect(feed.SCN).toBeGreaterThan(since);
    await t.services.stock.locations.changeLocation('ANT', { servesRetail: true });
    const back = (await get('B2C_GetAllShops', { strscn: String(feed.SCN) })).B2CGETALLSHOPS;
    expect(codes(back.SHOPS)).toEqual(['ANT']);
  });

  it('answers 400 naming each bad parameter, and 403 without the retail role', async () => {
    const bad = await t.call('GET', 'B2C_GetAllShops', {
      token: retail,
      query: { strlimit: '0', stroffset: '0' },
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .errors.map((e: { name: string }) => e.name)
        .sort(),
    ).toEqual(['strlimit', 'stroffset']);
    const notDigits = await t.call('GET', 'B2C_GetAllShops', { token: retail, query: { strscn: '1x' } });
    expect(notDigits.statusCode).toBe(400);
    expect(notDigits.body).toContain('strscn');
    const unknown = await t.call('GET', 'B2C_GetAllShops', { token: retail, query: { strshop: 'AMS' } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('strshop');
    const wholesale = await t.tokenFor(['B2B']);
    expect((await t.call('GET', 'B2C_GetAllShops', { token: wholesale })).statusCode).toBe(403);
  });
});

describe('shop images', () => {
  it('lists image metadata of the shops retail sees', async () => {
    const body = (await get('B2C_GetAllShopImages')).B2CGETALLSHOPIMAGES;
    expect(
      body.IMAGES.map((i: { LOCATION: string; IMAGENO: number }) => `${i.LOCATION}/${i.IMAGENO}`),
    ).toEqual(['AMS/1', 'AMS/2']);
    expect(body.IMAGES[0]).toMatchObject({ CONTENTTYPE: 'image/png', BYTES: expect.any(Number) });
    expect(body.IMAGES[0].SHA256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('answers the bytes with their type and an ETag, 304 for a matching If-None-Match', async () => {
    const res = await t.call('GET', 'B2C_GetShopImage', {
      token: retail,
      query: { strlocation: 'AMS', strimageno: '2' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    // stored as decoded and encoded again: the same picture, its ETag the SHA-256 of what is served
    expect(await samePicture(res.rawPayload, png(20))).toBe(true);
    expect(res.headers.etag).toBe(etagOf(res.rawPayload));
    const etag = String(res.headers.etag);
    const again = await t.call('GET', 'B2C_GetShopImage', {
      token: retail,
      query: { strlocation: 'AMS', strimageno: '2' },
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    const first = await t.call('GET', 'B2C_GetShopImage', { token: retail, query: { strlocation: 'AMS' } });
    expect(await samePicture(first.rawPayload, png(10))).toBe(true);
  });

  it('is 404 for an unknown image or a shop retail does not see, 400 for a bad number', async () => {
    const queries: Array<Record<string, string>> = [
      { strlocation: 'AMS', strimageno: '9' },
      { strlocation: 'HIDDEN', strimageno: '1' },
      { strlocation: 'NOPE' },
    ];
    for (const query of queries) {
      const res = await t.call('GET', 'B2C_GetShopImage', { token: retail, query });
      expect(res.statusCode, JSON.stringify(query)).toBe(404);
      expect(res.json().code).toBe('IMAGE_NOT_FOUND');
    }
    const bad = await t.call('GET', 'B2C_GetShopImage', {
      token: retail,
      query: { strlocation: 'AMS', strimageno: '0' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].name).toBe('strimageno');
    expect((await t.call('GET', 'B2C_GetShopImage', { token: retail })).body).toContain('strlocation');
  });

  it('reports a deleted image under DELETED in the feed', async () => {
    await t.services.shops.shops.putShopImage('AMS', 3, png(40));
    const since = (await get('B2C_GetAllShopImages')).B2CGETALLSHOPIMAGES.SCN;
    await t.services.shops.shops.deleteShopImage('AMS', 3);
    const feed = (await get('B2C_GetAllShopImages', { strscn: String(since) })).B2CGETALLSHOPIMAGES;
    expect(feed).toMatchObject({ IMAGES: [], DELETED: [{ LOCATION: 'AMS', IMAGENO: 3 }] });
  });
});

describe('B2C_GetShopAssistants', () => {
  it('lists the active assistants of visible shops, or of one shop', async () => {
    const body = (await get('B2C_GetShopAssistants')).B2CGETSHOPASSISTANTS;
    expect(body.ASSISTANTS).toEqual([
      expect.objectContaining({ LOCATION: 'AMS', ASSISTANT: 1, NAME: 'Anna', PHOTOIMAGENO: 2 }),
      expect.objectContaining({ LOCATION: 'AMS', ASSISTANT: 2, NAME: 'Bram', PHOTOIMAGENO: null }),
    ]);
    expect(body.ASSISTANTS[0].ROLE).toMatchObject({ LANGUAGE_2: 'Manager', LANGUAGE_1: '' });
    const one = (await get('B2C_GetShopAssistants', { strlocation: 'ANT' })).B2CGETSHOPASSISTANTS;
    expect(one.ASSISTANTS).toEqual([]);
  });

  it('feeds an assistant made inactive under DELETED; an unseen shop is a 404', async () => {
    const since = (await get('B2C_GetShopAssistants')).B2CGETSHOPASSISTANTS.SCN;
    await t.services.shops.shops.saveAssistant({
      locationCode: 'AMS',
      assistantNo: 2,
      name: 'Bram',
      active: false,
    });
    const feed = (await get('B2C_GetShopAssistants', { strscn: String(since) })).B2CGETSHOPASSISTANTS;
    expect(feed).toMatchObject({ ASSISTANTS: [], DELETED: [{ LOCATION: 'AMS', ASSISTANT: 2 }] });
    for (const location of ['HIDDEN', 'WH', 'NOPE']) {
      const res = await t.call('GET', 'B2C_GetShopAssistants', {
        token: retail,
        query: { strlocation: location },
      });
      expect(res.statusCode, location).toBe(404);
      expect(res.json().code).toBe('LOCATION_NOT_FOUND');
    }
  });
});

describe('B2C_GetPickUpLocations', () => {
  it('lists shops that allow pickup, then active pickup points', async () => {
    const body = (await get('B2C_GetPickUpLocations')).B2CGETPICKUPLOCATIONS;
    expect(body.LOCATIONS.map((l: { TYPE: string; LOCATION: string }) => `${l.TYPE}:${l.LOCATION}`)).toEqual([
      'SHOP:AMS',
      'SHOP:ANT',
      'POINT:P-UTR',
    ]);
    expect(body.LOCATIONS[2]).toMatchObject({
      NAME: 'Parcel point Utrecht',
      POSTALCODE: '3511 AZ',
      LATITUDE: 52.090737,
      LONGITUDE: 5.12142,
      DISTANCE: null,
    });
  });

  it('sorts by distance from strlat/strlon, in metres', async () => {
    const body = (await get('B2C_GetPickUpLocations', { strlat: '52.0907', strlon: '5.1214' }))
      .B2CGETPICKUPLOCATIONS;
    expect(codes(body.LOCATIONS)).toEqual(['P-UTR', 'AMS', 'ANT']);
    expect(body.LOCATIONS[0].DISTANCE).toBeLessThan(10);
    expect(body.LOCATIONS[1].DISTANCE).toBeGreaterThan(30_000);
    expect(body.LOCATIONS[1].DISTANCE).toBeLessThan(body.LOCATIONS[2].DISTANCE);
    const paged = (
      await get('B2C_GetPickUpLocations', { strlat: '52.0907', strlon: '5.1214', strlimit: '2' })
    ).B2CGETPICKUPLOCATIONS;
    expect(paged).toMatchObject({ NEXTOFFSET: 3 });
    expect(codes(paged.LOCATIONS)).toEqual(['P-UTR', 'AMS']);
  });

  it('answers 400 for half a position, a bad one, or a position with strscn', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ strlat: '52.1' }, 'strlon'],
      [{ strlon: '5.1' }, 'strlat'],
      [{ strlat: '91', strlon: '5' }, 'strlat'],
      [{ strlat: '52,1', strlon: '5' }, 'strlat'],
      [{ strlat: '52.1', strlon: '5', strscn: '3' }, 'strscn'],
    ];
    for (const [query, name] of cases) {
      const res = await t.call('GET', 'B2C_GetPickUpLocations', { token: retail, query });
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.body, JSON.stringify(query)).toContain(name);
    }
  });

  it('feeds a shop that stops allowing pickup and a deleted point under DELETED', async () => {
    const since = (await get('B2C_GetPickUpLocations')).B2CGETPICKUPLOCATIONS.SCN;
    await t.services.shops.shops.saveShopDetail({
      locationCode: 'ANT',
      latitude: '51.218',
      longitude: '4.4025',
      pickup: false,
    });
    await t.services.shops.pickup.deletePickupPoint('P-UTR');
    const feed = (await get('B2C_GetPickUpLocations', { strscn: String(since) })).B2CGETPICKUPLOCATIONS;
    expect(feed.LOCATIONS).toEqual([]);
    expect(feed.DELETED).toEqual([
      { TYPE: 'SHOP', LOCATION: 'ANT' },
      { TYPE: 'POINT', LOCATION: 'P-UTR' },
    ]);
  });
});

describe('B2C_GetHomePages', () => {
  it('lists active blocks of every page or of one', async () => {
    const body = (await get('B2C_GetHomePages')).B2CGETHOMEPAGES;
    expect(body.BLOCKS).toEqual([
      {
        PAGE: 'HOME',
        BLOCK: 1,
        POSITION: 20,
        TITLE: expect.objectContaining({ LANGUAGE_2: 'Summer sale' }),
        TEXT: { LANGUAGE_1: '', LANGUAGE_11: '', LANGUAGE_2: '', LANGUAGE_3: '', LANGUAGE_4: '' },
        IMAGE: 'SHOP:AMS/1',
        LINK: 'https://example.com/sale',
        VALIDFROM: '2026-06-01T00:00:00Z',
        VALIDTO: '2026-07-01T00:00:00Z',
        SCN: expect.any(Number),
      },
      expect.objectContaining({ PAGE: 'HOME', BLOCK: 2, POSITION: 10, IMAGE: '', VALIDFROM: null }),
    ]);
    expect((await get('B2C_GetHomePages', { strpage: 'MEN' })).B2CGETHOMEPAGES.BLOCKS).toEqual([]);
  });

  it('feeds a deleted block under DELETED', async () => {
    const since = (await get('B2C_GetHomePages')).B2CGETHOMEPAGES.SCN;
    await t.services.shops.content.deleteHomePageBlock('HOME', 2);
    const feed = (await get('B2C_GetHomePages', { strscn: String(since) })).B2CGETHOMEPAGES;
    expect(feed).toMatchObject({ BLOCKS: [], DELETED: [{ PAGE: 'HOME', BLOCK: 2 }] });
  });
});

describe('B2C_GetCompanyRegEx', () => {
  it('answers the server’s own patterns first, then the table’s, each compiling', async () => {
    const body = (await get('B2C_GetCompanyRegEx')).B2CGETCOMPANYREGEX;
    const n = SERVER_PATTERNS.length;
    expect(body.REGEXES).toHaveLength(n + 1);
    expect(
      body.REGEXES.slice(0, n).every((r: { SERVER: boolean; SCN: number }) => r.SERVER && r.SCN === 0),
    ).toBe(true);
    expect(body.REGEXES[n]).toMatchObject({ NAME: 'VATNO', COUNTRY: 'NL', SERVER: false });
    for (const r of body.REGEXES) expect(() => new RegExp(r.PATTERN)).not.toThrow();
    const nl = body.REGEXES.find(
      (r: { NAME: string; COUNTRY: string }) => r.NAME === 'POSTALCODE' && r.COUNTRY === 'NL',
    );
    expect(new RegExp(nl.PATTERN).test('1012 PK')).toBe(true);
    expect(new RegExp(nl.PATTERN).test('1012 SS')).toBe(false);
    expect(body.REGEXES.find((r: { NAME: string }) => r.NAME === 'EMAIL').COUNTRY).toBeNull();
  });

  it('pages across the built-in patterns and the table', async () => {
    const n = SERVER_PATTERNS.length;
    const first = (await get('B2C_GetCompanyRegEx', { strlimit: String(n - 1) })).B2CGETCOMPANYREGEX;
    expect(first.REGEXES).toHaveLength(n - 1);
    expect(first.NEXTOFFSET).toBe(n);
    const second = (await get('B2C_GetCompanyRegEx', { strlimit: '5', stroffset: String(n) }))
      .B2CGETCOMPANYREGEX;
    expect(second.REGEXES.map((r: { NAME: string }) => r.NAME)).toEqual([
      SERVER_PATTERNS[n - 1]?.name,
      'VATNO',
    ]);
    expect(second.NEXTOFFSET).toBeNull();
  });

  it('feeds table changes after the built-in patterns, deletions under DELETED', async () => {
    const since = (await get('B2C_GetCompanyRegEx')).B2CGETCOMPANYREGEX.SCN;
    await t.services.shops.content.saveRegex({
      name: 'VATNO',
      country: 'BE',
      pattern: '^BE[01][0-9]{9}$',
      description: {},
    });
    await t.services.shops.content.deleteRegex('VATNO', 'NL');
    const feed = (await get('B2C_GetCompanyRegEx', { strscn: String(since) })).B2CGETCOMPANYREGEX;
    expect(feed.REGEXES.filter((r: { SERVER: boolean }) => !r.SERVER)).toEqual([
      expect.objectContaining({ NAME: 'VATNO', COUNTRY: 'BE', PATTERN: '^BE[01][0-9]{9}$' }),
    ]);
    expect(feed.DELETED).toEqual([{ NAME: 'VATNO', COUNTRY: 'NL' }]);
  });
});

describe('the demo shops', () => {
  it('seeds details, images, assistants, content and patterns for the demo shops; again changes nothing', async () => {
    const demo = await startTestApp();
    try {
      await seedStock(demo.services, {});
      expect(await seedShops(demo.services, {})).toEqual({ shops: 4 });
      const token = await demo.tokenFor(['B2C']);
      const body = (await demo.call('GET', 'B2C_GetAllShops', { token })).json().B2CGETALLSHOPS;
      // In the order the demo creates the locations (their stable positions).
      expect(codes(body.SHOPS)).toEqual(['AMS', 'UTR', 'ANT', 'GNT']);
      for (const s of body.SHOPS) {
        expect(s.LATITUDE).toEqual(expect.any(Number));
        expect(s.OPENINGHOURS.some((d: { HOURS: unknown[] }) => d.HOURS.length > 0)).toBe(true);
        expect(s.EXCEPTIONS.length).toBeGreaterThan(0);
      }
      const assistants = (await demo.call('GET', 'B2C_GetShopAssistants', { token })).json()
        .B2CGETSHOPASSISTANTS;
      expect(assistants.ASSISTANTS).toHaveLength(8);
      const images = (await demo.call('GET', 'B2C_GetAllShopImages', { token })).json().B2CGETALLSHOPIMAGES;
      expect(images.IMAGES).toHaveLength(8);
      const pickup = (await demo.call('GET', 'B2C_GetPickUpLocations', { token })).json()
        .B2CGETPICKUPLOCATIONS;
      // Shops in the order their details were stored, then the points.
      expect(codes(pickup.LOCATIONS)).toEqual(['AMS', 'UTR', 'ANT', 'PP-TLB-01']);
      const scn = body.SCN;
      await seedShops(demo.services, {});
      const again = (await demo.call('GET', 'B2C_GetAllShops', { token })).json().B2CGETALLSHOPS;
      expectScnStep(scn, again.SCN, 0);
    } finally {
      await demo.close();
    }
  });
});
