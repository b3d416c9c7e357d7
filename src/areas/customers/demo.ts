import { Random } from '../../kernel/random.ts';
import type { Services } from '../../kernel/services.ts';
import type { AddressInput } from './customer-validation.ts';
import type { CustomerPatch } from './customer-write-plan.ts';

/**
 * Demo details for the wholesale customers the pricing demo created (numbers from 10001): trade
 * names, VAT numbers that pass their country's check, language, payment terms, credit limit, an
 * invoice address and one to three delivery addresses, a representative each; three
 * representatives; and a few customers' own article numbers. Same seed, same data; seeding again
 * changes nothing.
 */

/** The number of the first demo customer; the pricing demo creates them (with their terms) from it. */
export const FIRST_DEMO_CUSTOMER = 10001;

const REPRESENTATIVES = [
  { code: 'JDV', name: 'Jan de Vries', email: 'jan.devries@example.com', phone: '+31 6 12345678' },
  { code: 'SPE', name: 'Sanne Peeters', email: 'sanne.peeters@example.com', phone: '+32 470 12 34 56' },
  { code: 'TWR', name: 'Tom Wright', email: 'tom.wright@example.com', phone: '+44 7700 900123' },
];

type Country = 'NL' | 'BE' | 'GB' | 'DE';

const PLACES: Record<Country, Array<{ city: string; postalCodes: string[]; streets: string[] }>> = {
  NL: [
    {
      city: 'Amsterdam',
      postalCodes: ['1012 AB', '1017 CN', '1054 GH'],
      streets: ['Kalverstraat', 'Overtoom'],
    },
    { city: 'Utrecht', postalCodes: ['3511 AE', '3581 KP'], streets: ['Oudegracht', 'Biltstraat'] },
    {
      city: 'Rotterdam',
      postalCodes: ['3011 AD', '3014 GK'],
      streets: ['Hoogstraat', 'Witte de Withstraat'],
    },
    { city: 'Zwolle', postalCodes: ['8011 NK', '8021 AB'], streets: ['Diezerstraat', 'Assendorperstraat'] },
    { city: 'Groningen', postalCodes: ['9711 LM', '9712 CP'], streets: ['Herestraat', 'Vismarkt'] },
    { city: 'Eindhoven', postalCodes: ['5611 AB', '5612 AJ'], streets: ['Demer', 'Stratumseind'] },
  ],
  BE: [
    { city: 'Antwerpen', postalCodes: ['2000', '2018'], streets: ['Meir', 'Kammenstraat'] },
    { city: 'Gent', postalCodes: ['9000'], streets: ['Veldstraat', 'Mageleinstraat'] },
  ],
  GB: [
    { city: 'Brighton', postalCodes: ['BN1 1AE', 'BN1 4GH'], streets: ['North Street', 'Bond Street'] },
    {
      city: 'Harrogate',
      postalCodes: ['HG1 1BA', 'HG1 2RD'],
      streets: ['James Street', 'Parliament Street'],
    },
    { city: 'Leeds', postalCodes: ['LS1 6HW'], streets: ['Briggate'] },
  ],
  DE: [
    { city: 'Köln', postalCodes: ['50667', '50672'], streets: ['Schildergasse', 'Ehrenstraße'] },
    { city: 'Düsseldorf', postalCodes: ['40212', '40213'], streets: ['Königsallee', 'Schadowstraße'] },
  ],
};

const LANGUAGE: Record<Country, string> = {
  NL: 'LANGUAGE_1',
  BE: 'LANGUAGE_11',
  GB: 'LANGUAGE_2',
  DE: 'LANGUAGE_3',
};

/** The country of each demo customer, by position (see price-data.ts). */
function countryOf(index: number): Country {
  if (index === 8) return 'BE';
  if (index === 9 || index === 10) return 'GB';
  if (index === 11) return 'DE';
  return 'NL';
}

function digits(rng: Random, n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += String(rng.int(0, 9));
  return out;
}

/** A VAT number that passes its country's check (docs/customers.md, "VAT numbers"). */
export function demoVatNumber(rng: Random, country: Country): string {
  for (;;) {
    if (country === 'NL') {
      const eight = String(rng.int(1, 9)) + digits(rng, 7);
      let sum = 0;
      for (let i = 0; i < 8; i++) sum += Number(eight[i]) * (9 - i);
      const check = sum % 11;
      if (check < 10) return `NL${eight}${check}B01`;
    } else if (country === 'BE') {
      const eight = `0${rng.int(2, 9)}${digits(rng, 6)}`;
      return `BE${eight}${String(97 - (Number(eight) % 97)).padStart(2, '0')}`;
    } else if (country === 'DE') {
      const eight = String(rng.int(1, 9)) + digits(rng, 7);
      let product = 10;
      for (const d of eight) {
        let sum = (Number(d) + product) % 10;
        if (sum === 0) sum = 10;
        product = (2 * sum) % 11;
      }
      const check = 11 - product;
      return `DE${eight}${check === 10 ? 0 : check}`;
    } else {
      return `GB${rng.int(1, 9)}${digits(rng, 8)}`;
    }
  }
}

function address(rng: Random, country: Country): AddressInput {
  const place = rng.pick(PLACES[country]);
  return {
    address: rng.pick(place.streets),
    houseNumber: String(rng.int(1, 180)) + (rng.chance(0.2) ? rng.pick(['a', 'b', '-1']) : ''),
    postalCode: rng.pick(place.postalCodes),
    city: place.city,
    country,
    mapArea: '',
    postBox: '',
  };
}

export async function seedCustomers(
  services: Services,
  options: { seed?: number },
): Promise<{ customers: number; representatives: number }> {
  const rng = new Random((options.seed ?? 1) * 7919 + 17);
  const customersArea = services.customers.customers;
  await services.customers.representatives.saveRepresentatives(REPRESENTATIVES);

  const existing = await customersArea.listCustomers({ sinceScn: 0, offset: 1, limit: 1000 });
  const demo = existing.items
    .filter((c) => c.CUSTOMER >= FIRST_DEMO_CUSTOMER && c.CUSTOMER < FIRST_DEMO_CUSTOMER + 100)
    .sort((a, b) => a.CUSTOMER - b.CUSTOMER);

  for (const c of demo) {
    const index = c.CUSTOMER - FIRST_DEMO_CUSTOMER;
    const country = countryOf(index);
    const deliveries = rng.int(1, 3);
    const patch: CustomerPatch = {
      customerNo: c.CUSTOMER,
      externalKey: `DEMO-${c.CUSTOMER}`,
      name2: rng.chance(0.5) ? `${c.NAME.split(' ')[0]} Store` : '',
      vatNo: demoVatNumber(rng, country),
      language: LANGUAGE[country],
      paymentDays: rng.pick([14, 30, 30, 60]),
      creditLimitMinor: rng.pick([500_000, 1_000_000, 2_500_000, 5_000_000]),
      representative: country === 'GB' ? 'TWR' : country === 'BE' ? 'SPE' : rng.pick(['JDV', 'JDV', 'SPE']),
      invoiceAddress: address(rng, country),
      // Numbered 1..n: seeding again finds them equal and changes nothing.
      deliveryAddresses: Array.from({ length: deliveries }, (_, i) => ({
        ...address(rng, country),
        addressNo: i + 1,
      })),
    };
    // The first run adds the delivery addresses (a change must name a live number).
    const stored = await customersArea.getCustomer(c.CUSTOMER);
    const live = new Set(stored['DELIVERY ADDRESSES'].map((a) => Number(a.EXTRAADDRESSNO)));
    patch.deliveryAddresses = patch.deliveryAddresses?.map((a) =>
      live.has(a.addressNo ?? -1) ? a : { ...a, addressNo: undefined },
    );
    await customersArea.postCustomer(patch);
  }

  // Own article numbers of the first three customers for a handful of articles.
  const articles = await services.catalog.listArticles('B2B', { sinceScn: 0, offset: 1, limit: 40 });
  const links = demo.slice(0, 3).flatMap((c, n) =>
    rng.sample(articles.items, Math.min(8, articles.items.length)).map((a, i) => ({
      customerNo: c.CUSTOMER,
      articleNo: a.ARTICLE,
      customerArticleNo: `${['MJ', 'KDV', 'VDF'][n]}-${String(1001 + i)}`,
      customerDescription: `${a.ARTICLEDESCRIPTION.LANGUAGE_1 || a.ARTICLE}`.slice(0, 200),
      customerBarcode: i % 3 === 0 ? `2${String(c.CUSTOMER).slice(-4)}${String(i).padStart(7, '0')}` : null,
    })),
  );
  if (links.length > 0) await services.customers.articleLinks.saveArticleLinks(links);
  return { customers: demo.length, representatives: REPRESENTATIVES.length };
}
