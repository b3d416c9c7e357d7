import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import type { LocationInput } from '../../stock/index.ts';
import { SERVER_PATTERNS } from '../company-regex.ts';

/**
 * Paging by stable position (docs/shops.md, "Paging"): a page of a full list holds strlimit records
 * whenever that many remain (hidden shops, deleted or inactive records take no place), walking
 * NEXTOFFSET gives every record exactly once, and a deletion during a pass never shifts a live
 * record into a page the client already read.
 */

let t: TestApp;
let retail: string;

const SHOPS = ['S1', 'S2', 'S3', 'S4', 'S5', 'S6'];

function png(shade: number): Buffer {
  const image = new PNG({ width: 4, height: 4 });
  image.data.fill(shade);
  return PNG.sync.write(image);
}

const location = (code: string, kind: 'SHOP' | 'WAREHOUSE' = 'SHOP'): LocationInput => ({
  code,
  name: `Location ${code}`,
  kind,
  servesWholesale: kind === 'WAREHOUSE',
  servesRetail: kind === 'SHOP',
  address: 'Kalverstraat',
  houseNumber: '1',
  postalCode: '1012 PK',
  city: 'Amsterdam',
  country: 'NL',
});

beforeAll(async () => {
  t = await startTestApp();
  retail = await t.tokenFor(['B2C']);
  const { stock, shops } = t.services;
  // Created out of code order, a warehouse among them: lists follow the positions, skip what retail does not see.
  for (const code of ['S1', 'W1', 'S2', 'S3', 'S4', 'S5', 'S6']) {
    await stock.locations.createLocation(location(code, code === 'W1' ? 'WAREHOUSE' : 'SHOP'));
  }
  for (const code of SHOPS) {
    await shops.shops.saveShopDetail({ locationCode: code, latitude: '52', longitude: '5', pickup: true });
  }
  for (const [code, imageNo] of [
    ['S1', 1],
    ['S1', 2],
    ['S2', 1],
    ['S3', 1],
    ['S3', 2],
    ['S4', 1],
  ] as const) {
    await shops.shops.putShopImage(code, imageNo, png(imageNo * 10));
  }
  for (const [code, assistantNo] of [
    ['S1', 1],
    ['S1', 2],
    ['S2', 1],
    ['S3', 1],
  ] as const) {
    await shops.shops.saveAssistant({
      locationCode: code,
      assistantNo,
      name: `Assistant ${code}-${assistantNo}`,
    });
  }
  for (const code of ['P1', 'P2', 'P3']) {
    await shops.pickup.savePickupPoint({ code, name: `Point ${code}`, latitude: '51', longitude: '4' });
  }
  for (const blockNo of [1, 2, 3, 4, 5, 6]) {
    await shops.content.saveHomePageBlock({ page: 'HOME', blockNo, position: blockNo * 10 });
  }
  for (const name of ['RA', 'RB', 'RC', 'RD']) {
    await shops.content.saveRegex({ name, country: 'NL', pattern: '^[0-9]+$', description: {} });
  }
});
afterAll(() => t.close());

type Record_ = Record<string, unknown>;

interface Walked {
  /** The keys of the records in the order the pages gave them (DELETED after each page's list). */
  keys: string[];
  /** Records (live and deleted) per page. */
  sizes: number[];
}

/** Follows NEXTOFFSET from `from` to the end; `key` names a record and an entry of DELETED alike. */
async function walk(
  op: string,
  list: string,
  key: (r: Record_) => string,
  query: Record<string, string>,
  from = 1,
): Promise<Walked> {
  const out: Walked = { keys: [], sizes: [] };
  let offset: number | null = from;
  while (offset !== null) {
    const res = await t.call('GET', op, { token: retail, query: { ...query, stroffset: String(offset) } });
    expect(res.statusCode, res.body).toBe(200);
    const body = Object.values(res.json())[0] as Record_;
    const records = body[list] as Record_[];
    const deleted = body.DELETED as Record_[];
    out.keys.push(...records.map(key), ...deleted.map(key));
    out.sizes.push(records.length + deleted.length);
    const next = body.NEXTOFFSET as number | null;
    if (next !== null) expect(next).toBeGreaterThan(offset);
    offset = next;
  }
  return out;
}

/** The page sizes of a walk over `total` records when every page is full. */
const full = (total: number, limit: number) =>
  Array.from({ length: Math.max(1, Math.ceil(total / limit)) }, (_, i) => Math.min(limit, total - i * limit));

const shopKey = (r: Record_) => String(typeof r === 'string' ? r : r.LOCATION);
const imageKey = (r: Record_) => `${r.LOCATION}/${r.IMAGENO}`;
const assistantKey = (r: Record_) => `${r.LOCATION}/${r.ASSISTANT}`;
const pickupKey = (r: Record_) => String(r.LOCATION);
const blockKey = (r: Record_) => `${r.PAGE}/${r.BLOCK}`;
const regexKey = (r: Record_) => `${r.NAME}/${r.COUNTRY}`;
const scnNow = async () =>
  (await t.call('GET', 'B2C_GetHomePages', { token: retail, query: { strlimit: '1' } })).json()
    .B2CGETHOMEPAGES.SCN as number;

describe('paging by stable position', () => {
  it('full lists hold strlimit records a page and give every live record once; feeds too', async () => {
    const since = await scnNow();
    const { stock, shops } = t.services;
    await stock.locations.changeLocation('S3', { active: false });
    await shops.shops.deleteShopImage('S1', 1);
    await shops.shops.deleteAssistant('S2', 1);
    await shops.pickup.deletePickupPoint('P2');
    await shops.content.deleteHomePageBlock('HOME', 2);
    await shops.content.saveHomePageBlock({ page: 'HOME', blockNo: 4, position: 40, active: false });
    await shops.content.deleteRegex('RB', 'NL');

    const cases: Array<[string, string, (r: Record_) => string, number, string[]]> = [
      ['B2C_GetAllShops', 'SHOPS', shopKey, 2, ['S1', 'S2', 'S4', 'S5', 'S6']],
      ['B2C_GetAllShopImages', 'IMAGES', imageKey, 2, ['S1/2', 'S2/1', 'S4/1']],
      ['B2C_GetShopAssistants', 'ASSISTANTS', assistantKey, 1, ['S1/1', 'S1/2']],
      // Shops that allow pickup, then the points: a page crosses from one to the other.
      ['B2C_GetPickUpLocations', 'LOCATIONS', pickupKey, 4, ['S1', 'S2', 'S4', 'S5', 'S6', 'P1', 'P3']],
      ['B2C_GetHomePages', 'BLOCKS', blockKey, 2, ['HOME/1', 'HOME/3', 'HOME/5', 'HOME/6']],
      [
        'B2C_GetCompanyRegEx',
        'REGEXES',
        regexKey,
        2,
        [...SERVER_PATTERNS.map((p) => `${p.name}/${p.country}`), 'RA/NL', 'RC/NL', 'RD/NL'],
      ],
    ];
    for (const [op, list, key, limit, live] of cases) {
      const walked = await walk(op, list, key, { strlimit: String(limit) });
      expect(walked.keys, op).toEqual(live);
      expect(walked.sizes, op).toEqual(full(live.length, limit));
    }

    // A feed gives each change once, tombstones (and what the hidden shop takes with it) under DELETED.
    const images = await walk('B2C_GetAllShopImages', 'IMAGES', imageKey, {
      strscn: String(since),
      strlimit: '2',
    });
    expect(images.keys).toEqual(['S1/1', 'S3/1', 'S3/2']);
    expect(images.sizes).toEqual([2, 1]);
    const pickup = await walk('B2C_GetPickUpLocations', 'LOCATIONS', pickupKey, {
      strscn: String(since),
      strlimit: '1',
    });
    expect(pickup.keys).toEqual(['S3', 'P2']);
    expect(pickup.sizes).toEqual([1, 1]);
  });

  it('a deletion during a pass never shifts a live record into a page already read', async () => {
    const { stock, shops } = t.services;
    const passes: Array<
      [string, string, (r: Record_) => string, string[], () => Promise<unknown>, string[]]
    > = [
      [
        'B2C_GetAllShops',
        'SHOPS',
        shopKey,
        ['S1', 'S2'],
        () => stock.locations.changeLocation('S2', { active: false }),
        ['S4', 'S5', 'S6'],
      ],
      [
        'B2C_GetHomePages',
        'BLOCKS',
        blockKey,
        ['HOME/1', 'HOME/3'],
        () => shops.content.deleteHomePageBlock('HOME', 1),
        ['HOME/5', 'HOME/6'],
      ],
      [
        'B2C_GetPickUpLocations',
        'LOCATIONS',
        pickupKey,
        ['S1', 'S4'],
        () =>
          shops.shops.saveShopDetail({ locationCode: 'S1', latitude: '52', longitude: '5', pickup: false }),
        ['S5', 'S6', 'P1', 'P3'],
      ],
    ];
    for (const [op, list, key, firstPage, remove, rest] of passes) {
      const res = await t.call('GET', op, { token: retail, query: { strlimit: '2' } });
      const first = Object.values(res.json())[0] as Record_;
      expect((first[list] as Record_[]).map(key), op).toEqual(firstPage);
      // The client has read the first page; one of its records goes.
      await remove();
      expect((await walk(op, list, key, { strlimit: '2' }, first.NEXTOFFSET as number)).keys, op).toEqual(
        rest,
      );
    }
  });
});
