import type { AreaSqlExamples } from '../../kernel/db/sql-examples.ts';
import { sqlExamplesOf } from '../../kernel/db/sql-examples.ts';
import { PICKUP_POINT_POSITIONS, PickupRepository } from './pickup-repository.ts';
import {
  type AssistantRow,
  type BlockRow,
  type PickupPointRow,
  type RegexRow,
  type ShopDetailRow,
  type ShopImageRow,
  ShopRepository,
} from './shop-repository.ts';

// Example calls of the shops repository for the SQL snapshots (scripts/sql-snapshots.ts); they
// use the stock area's seeded shop SHOP1.

const AT = '2026-03-02T09:30:00.000Z';
const text = (en: string) => JSON.stringify({ LANGUAGE_1: en, LANGUAGE_2: en });

function detail(scn: number): ShopDetailRow {
  return {
    location_code: 'SHOP1',
    phone: '+31 30 123 4567',
    email: 'utrecht@nordwind.example',
    latitude_micro: 52_090_737,
    longitude_micro: 5_121_420,
    pickup: 1,
    time_zone: 'Europe/Amsterdam',
    description: text('Our shop by the canal'),
    opening_hours: JSON.stringify({ MON: [['09:00', '18:00']] }),
    hours_exceptions: '[]',
    scn,
    updated_at: AT,
  };
}

function image(imageNo: number, scn: number): ShopImageRow {
  return {
    location_code: 'SHOP1',
    image_no: imageNo,
    content_type: 'image/jpeg',
    byte_size: 4,
    sha256: 'b'.repeat(64),
    data: Buffer.from([0xff, 0xd8, 0xff, 0xd9]),
    deleted: 0,
    scn,
  };
}

function assistant(assistantNo: number, scn: number): AssistantRow {
  return {
    location_code: 'SHOP1',
    assistant_no: assistantNo,
    name: 'Sanne de Vries',
    role: text('Shop manager'),
    photo_image_no: 1,
    active: 1,
    deleted: 0,
    scn,
    updated_at: AT,
  };
}

function pickupPoint(code: string, scn: number): PickupPointRow {
  return {
    code,
    name: 'Parcel point Centraal',
    address: 'Stationsplein',
    house_number: '1',
    postal_code: '3511 ED',
    city: 'Utrecht',
    country: 'NL',
    latitude_micro: 52_089_444,
    longitude_micro: 5_110_278,
    description: text('At the station'),
    active: 1,
    deleted: 0,
    scn,
    updated_at: AT,
  };
}

function block(blockNo: number, scn: number): BlockRow {
  return {
    page: 'HOME',
    block_no: blockNo,
    position: blockNo,
    title: text('Spring collection'),
    body: text('New in: denim for the season'),
    image: 'spring.jpg',
    link: '/collections/spring',
    valid_from: '2026-03-01T00:00:00.000Z',
    valid_to: null,
    active: 1,
    deleted: 0,
    scn,
    updated_at: AT,
  };
}

function regex(country: string, scn: number): RegexRow {
  return {
    name: 'KVK',
    country,
    pattern: '^[0-9]{8}$',
    description: text('Chamber of commerce number'),
    deleted: 0,
    scn,
    updated_at: AT,
  };
}

export const sqlExamples: AreaSqlExamples = {
  // SHOP1's details, image 1 and assistant 1; pickup point PP1; home page block 1; regex KVK/NL.
  async seed(db) {
    await db.insertInto('shop_detail').values(detail(7)).execute();
    await db.insertInto('shop_image').values(image(1, 7)).execute();
    await db.insertInto('shop_assistant').values(assistant(1, 7)).execute();
    await db.insertInto('pickup_point').values(pickupPoint('PP1', 7)).execute();
    await db.insertInto('home_page_block').values(block(1, 7)).execute();
    await db.insertInto('company_regex').values(regex('NL', 7)).execute();
  },
  repositories: [
    sqlExamplesOf(ShopRepository, {
      assistantsPage: {
        'every shop': (r) => r.assistantsPage(0, 1, 100),
        'one shop': (r) => r.assistantsPage(0, 1, 100, 'SHOP1'),
        feed: (r) => r.assistantsPage(5, 1, 100),
        'feed of one shop': (r) => r.assistantsPage(5, 1, 100, 'SHOP1'),
      },
      assistantsShowingImage: (r) => r.assistantsShowingImage('SHOP1', 1),
      blocksPage: {
        'every page': (r) => r.blocksPage(0, 1, 100),
        'one page': (r) => r.blocksPage(0, 1, 100, 'HOME'),
        feed: (r) => r.blocksPage(5, 1, 100),
      },
      findAssistant: (r) => r.findAssistant('SHOP1', 1),
      findBlock: (r) => r.findBlock('HOME', 1),
      findDetail: (r) => r.findDetail('SHOP1'),
      findImage: (r) => r.findImage('SHOP1', 1),
      findRegex: (r) => r.findRegex('KVK', 'NL'),
      putImage: (r) => r.putImage(image(2, 100)),
      regexPage: {
        'full list': (r) => r.regexPage(0, 1, 100),
        'feed, shadowed keys left out': (r) =>
          r.regexPage(5, 1, 100, [
            { name: 'EMAIL', country: '' },
            { name: 'POSTALCODE', country: 'NL' },
          ]),
      },
      shopImagesPage: {
        'full list': (r) => r.shopImagesPage(0, 1, 100),
        feed: (r) => r.shopImagesPage(5, 1, 100),
      },
      shopsPage: {
        'full list': (r) => r.shopsPage(0, 1, 100),
        feed: (r) => r.shopsPage(5, 1, 100),
      },
      softDeleteImage: (r) => r.softDeleteImage('SHOP1', 1, 100),
      upsertAssistant: (r) => r.upsertAssistant(assistant(2, 100)),
      upsertBlock: (r) => r.upsertBlock(block(2, 100)),
      upsertDetail: (r) => r.upsertDetail(detail(100)),
      upsertRegex: (r) => r.upsertRegex(regex('BE', 100)),
    }),
    sqlExamplesOf(PickupRepository, {
      findPickupPoint: (r) => r.findPickupPoint('PP1'),
      pickupPage: {
        'full list (shops, then points)': (r) => r.pickupPage(0, 1, 100),
        'full list from the points on': (r) => r.pickupPage(0, PICKUP_POINT_POSITIONS + 1, 100),
        'feed (shops, then points)': (r) => r.pickupPage(5, 1, 100),
      },
      upsertPickupPoint: (r) => r.upsertPickupPoint(pickupPoint('PP2', 100)),
      visiblePickups: (r) => r.visiblePickups(),
    }),
  ],
};
