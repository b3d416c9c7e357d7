import { swatchPng } from '../../kernel/demo-images.ts';
import { Random } from '../../kernel/random.ts';
import type { Services } from '../../kernel/services.ts';
import type { Interval } from './opening-hours.ts';

/**
 * The demo shops area for the shops `seedStock` creates (AMS, UTR, ANT, GNT): details with
 * opening hours and holidays, a swatch-like shop image and a portrait swatch, two assistants per
 * shop, a pickup point, a few content blocks for the app and validation patterns. Same seed, same
 * data; seeding again writes nothing. A few dozen small transactions.
 */
interface DemoShop {
  code: string;
  phone: string;
  email: string;
  latitude: string;
  longitude: string;
  pickup: boolean;
  lateDay: number;
  nl: boolean;
}

const DEMO_SHOPS: readonly DemoShop[] = [
  {
    code: 'AMS',
    phone: '+31 20 555 0112',
    email: 'amsterdam@nordwind.example',
    latitude: '52.369710',
    longitude: '4.891390',
    pickup: true,
    lateDay: 4,
    nl: true,
  },
  {
    code: 'UTR',
    phone: '+31 30 555 0158',
    email: 'utrecht@nordwind.example',
    latitude: '52.090100',
    longitude: '5.120600',
    pickup: true,
    lateDay: 4,
    nl: true,
  },
  {
    code: 'ANT',
    phone: '+32 3 555 07 78',
    email: 'antwerpen@nordwind.example',
    latitude: '51.218300',
    longitude: '4.408800',
    pickup: true,
    lateDay: 5,
    nl: false,
  },
  {
    code: 'GNT',
    phone: '+32 9 555 03 31',
    email: 'gent@nordwind.example',
    latitude: '51.051800',
    longitude: '3.722700',
    pickup: false,
    lateDay: 5,
    nl: false,
  },
];

const FIRST_NAMES = [
  'Anouk',
  'Bram',
  'Charlotte',
  'Daan',
  'Emma',
  'Finn',
  'Lotte',
  'Milan',
  'Noor',
  'Sem',
  'Lieke',
  'Wout',
];
const LAST_NAMES = [
  'de Vries',
  'Janssens',
  'Peeters',
  'Bakker',
  'Maes',
  'Visser',
  'Claes',
  'Smit',
  'Jacobs',
  'Mulder',
];
const ROLES = [
  {
    LANGUAGE_1: 'Bedrijfsleider',
    LANGUAGE_11: 'Winkelverantwoordelijke',
    LANGUAGE_2: 'Store manager',
    LANGUAGE_3: 'Filialleiter',
    LANGUAGE_4: 'Gérant',
  },
  {
    LANGUAGE_1: 'Stylist',
    LANGUAGE_11: 'Stylist',
    LANGUAGE_2: 'Stylist',
    LANGUAGE_3: 'Stylist',
    LANGUAGE_4: 'Styliste',
  },
  {
    LANGUAGE_1: 'Verkoopadviseur',
    LANGUAGE_11: 'Verkoopadviseur',
    LANGUAGE_2: 'Sales adviser',
    LANGUAGE_3: 'Verkaufsberater',
    LANGUAGE_4: 'Conseiller de vente',
  },
] as const;

const CLOSED = (text: string, date: string) => ({
  date,
  hours: [] as Interval[],
  description: { LANGUAGE_2: text },
});

/** Holidays of the demo years: the shops close or open shorter. */
function exceptionsFor(shop: DemoShop) {
  const common = [
    CLOSED('Christmas', '2026-12-25'),
    {
      date: '2026-12-31',
      hours: [{ opens: '10:00', closes: '16:00' }],
      description: { LANGUAGE_2: 'New Year’s Eve' },
    },
    CLOSED('New Year', '2027-01-01'),
  ];
  const national = shop.nl
    ? [CLOSED('King’s Day', '2026-04-27'), CLOSED('King’s Day', '2027-04-27')]
    : [CLOSED('National Day', '2026-07-21')];
  return [...national, ...common];
}

function weekFor(shop: DemoShop, rnd: Random) {
  const opens = rnd.pick(['09:30', '10:00']);
  return [1, 2, 3, 4, 5, 6, 7].map((weekday) => {
    if (weekday === 1) return { weekday, hours: [{ opens: '12:00', closes: '18:00' }] };
    if (weekday === 7) return { weekday, hours: shop.nl ? [{ opens: '12:00', closes: '17:00' }] : [] };
    return { weekday, hours: [{ opens, closes: weekday === shop.lateDay ? '21:00' : '18:00' }] };
  });
}

export async function seedShops(services: Services, options: { seed?: number }): Promise<{ shops: number }> {
  const rnd = new Random(((options.seed ?? 1) * 7919) >>> 0);
  const { shops, stock } = services;
  const present = new Set(
    (await stock.locations.locations({ includeDeleted: false }))
      .filter((l) => l.kind === 'SHOP')
      .map((l) => l.code),
  );
  let seeded = 0;
  for (const shop of DEMO_SHOPS) {
    const hue = [rnd.int(40, 220), rnd.int(40, 220), rnd.int(40, 220)] as const;
    const week = weekFor(shop, rnd);
    const people = rnd.sample(FIRST_NAMES, 2).map((first) => `${first} ${rnd.pick(LAST_NAMES)}`);
    const roles = [ROLES[0], rnd.pick(ROLES.slice(1))];
    if (!present.has(shop.code)) continue;
    await shops.shops.saveShopDetail({
      locationCode: shop.code,
      phone: shop.phone,
      email: shop.email,
      latitude: shop.latitude,
      longitude: shop.longitude,
      pickup: shop.pickup,
      description: {
        LANGUAGE_1: 'Mode voor het hele gezin, met passervice.',
        LANGUAGE_11: 'Mode voor het hele gezin, met passervice.',
        LANGUAGE_2: 'Fashion for the whole family, with alterations.',
        LANGUAGE_3: 'Mode für die ganze Familie, mit Änderungsservice.',
        LANGUAGE_4: 'Mode pour toute la famille, avec retouches.',
      },
      openingHours: week,
      exceptions: exceptionsFor(shop),
    });
    await shops.shops.putShopImage(shop.code, 1, swatchPng(hue, 32));
    await shops.shops.putShopImage(shop.code, 2, swatchPng([hue[2], hue[0], hue[1]], 16));
    for (const [i, name] of people.entries()) {
      await shops.shops.saveAssistant({
        locationCode: shop.code,
        assistantNo: i + 1,
        name,
        role: roles[i] ?? ROLES[2],
        photoImageNo: i === 0 ? 2 : null,
      });
    }
    seeded++;
  }

  await shops.pickup.savePickupPoint({
    code: 'PP-TLB-01',
    name: 'Pakketpunt Tilburg Centrum',
    address: 'Heuvelstraat',
    houseNumber: '10',
    postalCode: '5038 AA',
    city: 'Tilburg',
    country: 'NL',
    latitude: '51.556700',
    longitude: '5.091300',
    description: { LANGUAGE_1: 'Afhalen in de boekhandel', LANGUAGE_2: 'Pick up at the bookshop' },
  });

  const blocks = [
    {
      blockNo: 1,
      position: 10,
      title: { LANGUAGE_1: 'Nieuwe collectie', LANGUAGE_2: 'New collection' },
      image: 'SHOP:AMS/1',
      link: 'tv2app://collections/new',
    },
    {
      blockNo: 2,
      position: 20,
      title: { LANGUAGE_1: 'Afhalen in de winkel', LANGUAGE_2: 'Click and collect' },
      image: null,
      link: 'tv2app://pickup',
    },
    {
      blockNo: 3,
      position: 30,
      title: { LANGUAGE_1: 'Wintersale', LANGUAGE_2: 'Winter sale' },
      image: null,
      link: 'https://nordwind.example/sale',
      validFrom: '2026-12-27T00:00:00Z',
      validTo: '2027-01-31T00:00:00Z',
    },
  ];
  for (const b of blocks) {
    await shops.content.saveHomePageBlock({
      page: 'HOME',
      text: { LANGUAGE_1: 'Bekijk het in de app.', LANGUAGE_2: 'Have a look in the app.' },
      ...b,
    });
  }

  const patterns = [
    {
      name: 'VATNO',
      country: 'NL',
      pattern: '^NL[0-9]{9}B[0-9]{2}$',
      description: { LANGUAGE_2: 'VAT number, e.g. NL123456789B01' },
    },
    {
      name: 'VATNO',
      country: 'BE',
      pattern: '^BE[01][0-9]{9}$',
      description: { LANGUAGE_2: 'VAT number, e.g. BE0123456789' },
    },
    {
      name: 'MOBILE',
      country: 'NL',
      pattern: '^\\+316[0-9]{8}$',
      description: { LANGUAGE_2: 'Mobile number, e.g. +31612345678' },
    },
    {
      name: 'MOBILE',
      country: 'BE',
      pattern: '^\\+324[0-9]{8}$',
      description: { LANGUAGE_2: 'Mobile number, e.g. +32470123456' },
    },
    {
      name: 'HOUSENUMBER',
      country: null,
      pattern: '^[0-9]{1,5}(?:[ -]?[A-Za-z0-9]{1,4})?$',
      description: { LANGUAGE_2: 'House number, e.g. 12A' },
    },
  ];
  for (const p of patterns) await shops.content.saveRegex(p);
  return { shops: seeded };
}
