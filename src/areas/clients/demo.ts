import type { LanguageSlot } from '../../kernel/language.ts';
import { Random } from '../../kernel/random.ts';
import type { Services } from '../../kernel/services.ts';
import { FIRST_CLIENT_NO } from './client-service.ts';

/** Number of demo clients. */
export const DEMO_CLIENTS = 36;

interface Place {
  country: 'NL' | 'BE' | 'DE';
  city: string;
  postalCodes: string[];
  streets: string[];
  /** Area code without the trunk 0 (national form "0" + area + subscriber). */
  area: string;
  shop: string;
}

const PLACES: Place[] = [
  {
    country: 'NL',
    city: 'Amsterdam',
    postalCodes: ['1012 AB', '1015 CS', '1071 XX', '1091 GH'],
    streets: ['Keizersgracht', 'Prinsengracht', 'Overtoom', 'Wibautstraat'],
    area: '20',
    shop: 'AMS',
  },
  {
    country: 'NL',
    city: 'Utrecht',
    postalCodes: ['3511 AD', '3512 JE', '3581 KP'],
    streets: ['Oudegracht', 'Biltstraat', 'Nachtegaalstraat'],
    area: '30',
    shop: 'UTR',
  },
  {
    country: 'NL',
    city: 'Rotterdam',
    postalCodes: ['3011 AA', '3012 CN', '3061 BA'],
    streets: ['Coolsingel', 'Witte de Withstraat', 'Oostzeedijk'],
    area: '10',
    shop: 'RTM',
  },
  {
    country: 'BE',
    city: 'Antwerpen',
    postalCodes: ['2000', '2018', '2060'],
    streets: ['Meir', 'Nationalestraat', 'Lange Kievitstraat'],
    area: '3',
    shop: 'ANT',
  },
  {
    country: 'BE',
    city: 'Gent',
    postalCodes: ['9000', '9050'],
    streets: ['Veldstraat', 'Korenmarkt', 'Sint-Pietersnieuwstraat'],
    area: '9',
    shop: 'GNT',
  },
  {
    country: 'DE',
    city: 'Köln',
    postalCodes: ['50667', '50672', '50823'],
    streets: ['Hohe Straße', 'Ehrenstraße', 'Venloer Straße'],
    area: '221',
    shop: 'CGN',
  },
  {
    country: 'DE',
    city: 'Düsseldorf',
    postalCodes: ['40212', '40215', '40477'],
    streets: ['Königsallee', 'Schadowstraße', 'Nordstraße'],
    area: '211',
    shop: 'DUS',
  },
];

const FIRST_NAMES: Record<Place['country'], string[]> = {
  NL: ['Anna', 'Sanne', 'Lotte', 'Emma', 'Daan', 'Bram', 'Thijs', 'Femke', 'Ruben', 'Noor', 'Jeroen', 'Iris'],
  BE: ['Lore', 'Wout', 'Elise', 'Arne', 'Fien', 'Jonas', 'Marie', 'Seppe', 'Hanne', 'Pieter-Jan'],
  DE: ['Lena', 'Jonas', 'Sophie', 'Felix', 'Hannah', 'Lukas', 'Mia', 'Paul', 'Katharina', 'Maximilian'],
};
const LAST_NAMES: Record<Place['country'], Array<[string | null, string]>> = {
  NL: [
    ['de', 'Vries'],
    ['van den', 'Berg'],
    [null, 'Jansen'],
    [null, 'Bakker'],
    ['van', 'Dijk'],
    [null, 'Visser'],
    [null, 'Smit'],
    ['de', 'Jong'],
    [null, 'Mulder'],
  ],
  BE: [
    [null, 'Peeters'],
    [null, 'Janssens'],
    [null, 'Maes'],
    ['Van', 'Damme'],
    [null, 'Claes'],
    ['De', 'Smet'],
    [null, 'Willems'],
  ],
  DE: [
    [null, 'Müller'],
    [null, 'Schmidt'],
    [null, 'Schneider'],
    [null, 'Fischer'],
    [null, 'Weber'],
    ['von', 'Brandt'],
    [null, 'Hoffmann'],
  ],
};
const LANGUAGE_OF: Record<Place['country'], LanguageSlot> = {
  NL: 'LANGUAGE_1',
  BE: 'LANGUAGE_11',
  DE: 'LANGUAGE_3',
};
const LEVELS = ['BASIC', 'SILVER', 'GOLD'] as const;

const MESSAGES = [
  { subject: 'Welkom bij onze klantenkaart', body: 'Met je kaart spaar je bij elke aankoop punten.' },
  { subject: 'Je bestelling is onderweg', body: 'Je pakket wordt morgen bezorgd.' },
  { subject: 'Nieuwe collectie binnen', body: 'De voorjaarscollectie ligt nu in de winkel.' },
  { subject: 'Fijne verjaardag!', body: 'Kom langs voor een verrassing in je vaste winkel.' },
];

const ascii = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .replace(/[^A-Za-z0-9]+/g, '.')
    .replace(/^\.|\.$/g, '')
    .toLowerCase();

/**
 * Loads the demo retail clients: a few dozen Dutch, Flemish and German clients with addresses,
 * phone numbers, consents, member cards for most of them, a few messages and on-account entries,
 * and two claimable actions. Deterministic for a seed; seeding again changes nothing (clients are
 * numbered from FIRST_CLIENT_NO, messages are sent only to clients this call created).
 */
export async function seedClients(
  services: Services,
  options: { seed?: number } = {},
): Promise<{ clients: number }> {
  const rng = new Random((options.seed ?? 1) * 7919 + 4);
  const clients = services.clients.profiles;
  const year = new Date().getUTCFullYear();

  for (let i = 0; i < DEMO_CLIENTS; i++) {
    const place = rng.pick(PLACES);
    const first = rng.pick(FIRST_NAMES[place.country]);
    const [middle, last] = rng.pick(LAST_NAMES[place.country]);
    const clientNo = FIRST_CLIENT_NO + i;
    const domain = rng.chance(0.25) ? 'example.com' : `example.${place.country.toLowerCase()}`;
    const level = rng.weighted(LEVELS, (l) => (l === 'GOLD' ? 1 : l === 'SILVER' ? 3 : 6));
    const withCard = rng.chance(0.8);
    const saved = await clients.saveClient(
      {
        clientNo,
        email: `${ascii(first)}.${ascii([middle, last].filter(Boolean).join(' '))}${i}@${domain}`,
        firstName: first,
        middleName: middle,
        lastName: last,
        phone: rng.chance(0.85)
          ? place.country === 'NL' && rng.chance(0.6)
            ? `06 ${rng.int(10_000_000, 99_999_999)}`
            : `0${place.area} ${rng.int(100_000, 999_999)}${rng.int(0, 9)}`
          : null,
        address: rng.pick(place.streets),
        houseNumber: `${rng.int(1, 240)}${rng.chance(0.15) ? rng.pick(['a', 'b', '-2', ' bis']) : ''}`,
        postalCode: rng.pick(place.postalCodes),
        city: place.city,
        country: place.country,
        birthDate: rng.chance(0.7)
          ? `${rng.int(1950, 2005)}-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`
          : null,
        language: LANGUAGE_OF[place.country],
        consents: { newsletter: rng.chance(0.6), sms: rng.chance(0.25), profiling: rng.chance(0.3) },
        homeShop: place.shop,
        memberCard: withCard
          ? {
              cardNo: `TV2-${String(clientNo).padStart(8, '0')}`,
              level,
              validFrom: `${year - rng.int(0, 3)}-01-01`,
              validTo: `${year + rng.int(0, 2)}-12-31`,
            }
          : null,
      },
      { createWithNumber: true },
    );

    // Drawn every time, so a second seeding draws the same values for the clients that follow.
    const messages = rng.sample(MESSAGES, rng.int(0, 2));
    if (saved.created) for (const m of messages) await services.clients.messages.sendMessage(clientNo, m);
    if (rng.chance(0.25)) {
      const amount = rng.int(20, 400) * 100 + rng.pick([0, 50, 95, 99]);
      await services.clients.purchases.saveOnAccountEntry({
        clientNo,
        documentNo: `OA-${clientNo}-1`,
        documentType: 'INVOICE',
        documentDate: `${year}-0${rng.int(1, 6)}-${String(rng.int(10, 28))}`,
        dueDate: null,
        description: 'Bestelling op rekening',
        currency: 'EUR',
        amountMinor: amount,
        openMinor: rng.chance(0.5) ? amount : 0,
      });
    }
  }

  await services.clients.messages.saveAction({
    code: 'WELCOME10',
    description: {
      LANGUAGE_1: '€ 10 korting op je volgende aankoop',
      LANGUAGE_11: '€ 10 korting op je volgende aankoop',
      LANGUAGE_2: '€10 off your next purchase',
      LANGUAGE_3: '10 € Rabatt auf Ihren nächsten Einkauf',
      LANGUAGE_4: '10 € de réduction sur votre prochain achat',
    },
    validFrom: `${year}-01-01`,
    validTo: `${year + 1}-12-31`,
  });
  await services.clients.messages.saveAction({
    code: 'GOLD-SALE',
    description: {
      LANGUAGE_1: 'Gold-leden: 20% korting tijdens de preview sale',
      LANGUAGE_11: 'Gold-leden: 20% korting tijdens de preview sale',
      LANGUAGE_2: 'Gold members: 20% off during the preview sale',
      LANGUAGE_3: 'Gold-Mitglieder: 20 % Rabatt im Preview-Sale',
      LANGUAGE_4: 'Membres Gold : 20 % de remise pendant la vente privée',
    },
    memberLevel: 'GOLD',
    validFrom: `${year}-01-01`,
    validTo: `${year + 1}-12-31`,
  });
  return { clients: DEMO_CLIENTS };
}
