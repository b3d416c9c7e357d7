import { Random } from '../../kernel/random.ts';
import type { Services } from '../../kernel/services.ts';
import type { LocationInput, StockLine } from './stock-rules.ts';

/**
 * The demo stock: a central warehouse that serves wholesale and the retail webshop, and four shops
 * (two in the Netherlands, two in Flanders) that serve retail, with receipts for the articles in
 * the catalogue. Shops carry only articles published for retail, and not all of them.
 */
export const DEMO_LOCATIONS: readonly LocationInput[] = [
  {
    code: 'WH',
    name: 'Centraal magazijn Tilburg',
    kind: 'WAREHOUSE',
    servesWholesale: true,
    servesRetail: true,
    address: 'Ringbaan-West',
    houseNumber: '240',
    postalCode: '5038 KE',
    city: 'Tilburg',
    country: 'NL',
  },
  {
    code: 'AMS',
    name: 'Amsterdam Kalverstraat',
    kind: 'SHOP',
    servesWholesale: false,
    servesRetail: true,
    address: 'Kalverstraat',
    houseNumber: '112',
    postalCode: '1012 PK',
    city: 'Amsterdam',
    country: 'NL',
  },
  {
    code: 'UTR',
    name: 'Utrecht Oudegracht',
    kind: 'SHOP',
    servesWholesale: false,
    servesRetail: true,
    address: 'Oudegracht',
    houseNumber: '158',
    postalCode: '3511 AZ',
    city: 'Utrecht',
    country: 'NL',
  },
  {
    code: 'ANT',
    name: 'Antwerpen Meir',
    kind: 'SHOP',
    servesWholesale: false,
    servesRetail: true,
    address: 'Meir',
    houseNumber: '78',
    postalCode: '2000',
    city: 'Antwerpen',
    country: 'BE',
  },
  {
    code: 'GNT',
    name: 'Gent Veldstraat',
    kind: 'SHOP',
    servesWholesale: false,
    servesRetail: true,
    address: 'Veldstraat',
    houseNumber: '31',
    postalCode: '9000',
    city: 'Gent',
    country: 'BE',
  },
];

const PAGE = 1000;

/** A per-article random source, so an article's stock does not depend on which others were seeded. */
function randomFor(seed: number, articleNo: string): Random {
  let h = 2_166_136_261;
  for (let i = 0; i < articleNo.length; i++) h = Math.imul(h ^ articleNo.charCodeAt(i), 16_777_619);
  return new Random((Math.imul(seed, 1_000_003) ^ h) >>> 0);
}

/** Middle sizes sell best: a weight from 0.4 at the ends of the run to 1 in the middle. */
function sizeWeight(position: number, count: number): number {
  if (count <= 1) return 1;
  const x = position / (count - 1);
  return 0.4 + 0.6 * (1 - Math.abs(2 * x - 1));
}

/**
 * Creates the demo locations that are missing and receipts for every article that has no stock yet
 * (one transaction per page of articles). Same seed, same stock; seeding again adds nothing.
 */
export async function seedStock(
  services: Services,
  options: { seed?: number },
): Promise<{ locations: number; levels: number }> {
  const seed = options.seed ?? 1;
  const existing = new Set((await services.stock.locations.locations()).map((l) => l.code));
  for (const location of DEMO_LOCATIONS) {
    if (!existing.has(location.code)) await services.stock.locations.createLocation(location);
  }
  const shops = DEMO_LOCATIONS.filter((l) => l.kind === 'SHOP').map((l) => l.code);

  let levels = 0;
  let offset: number | null = 1;
  while (offset !== null) {
    const page = await services.catalog.listArticles('B2B', { sinceScn: 0, offset, limit: PAGE });
    offset = page.nextOffset;
    const stocked = await services.stock.ledger.stockedArticles(page.items.map((a) => a.ARTICLE));
    const lines: StockLine[] = [];
    for (const a of page.items) {
      if (stocked.has(a.ARTICLE) || a.SIZES.length === 0) continue;
      const random = randomFor(seed, a.ARTICLE);
      const reference = 'DEMO-RECEIPT';
      // The warehouse: most articles, a few sold out; depth varies by article and size.
      if (!random.chance(0.08)) {
        const depth = random.int(8, 60);
        for (const [i, s] of a.SIZES.entries()) {
          const quantity = Math.round(depth * sizeWeight(i, a.SIZES.length) * (0.6 + 0.8 * random.next()));
          if (quantity > 0)
            lines.push({ locationCode: 'WH', articleNo: a.ARTICLE, sizex: s.SIZEX, quantity, reference });
        }
      }
      // The shops carry what is published for retail, each about half of it, a few per size.
      if (a.RETAIL && a.ACTIVE) {
        for (const shop of shops) {
          if (!random.chance(0.55)) continue;
          for (const [i, s] of a.SIZES.entries()) {
            const quantity = random.int(0, Math.round(6 * sizeWeight(i, a.SIZES.length)));
            if (quantity > 0)
              lines.push({ locationCode: shop, articleNo: a.ARTICLE, sizex: s.SIZEX, quantity, reference });
          }
        }
      }
    }
    await services.stock.ledger.receiveAll(lines);
    levels += lines.length;
  }
  return { locations: DEMO_LOCATIONS.length, levels };
}
