import { Random } from '../../kernel/random.ts';
import type { Services } from '../../kernel/services.ts';
import { FIRST_DEMO_CUSTOMER } from '../customers/index.ts';
import type { ListPriceInput } from './list-price-service.ts';
import type { CustomerInput } from './price-customer-service.ts';

/**
 * Demo prices for the articles already in the database: price group 1 (retail) and 2 (wholesale),
 * in EUR and, for part of the range, GBP; a dozen wholesale customers; a few agreements, line
 * discounts and current action prices. Same seed and catalogue, same prices (dates follow today).
 */

/** An article as services.catalog lists it (the catalog area is reached through its services only). */
type CatalogArticle = Awaited<ReturnType<Services['catalog']['listArticles']>>['items'][number];

/** Retail price points per article group, in cents. */
const RETAIL_POINTS: Record<string, number[]> = {
  BAG: [3995, 4995, 5995, 7995],
  DRESS: [4995, 5995, 6995, 7995],
  HATS: [1495, 1995, 2495],
  JACKET: [8995, 9995, 12995, 14995, 17995],
  JEANS: [5995, 6995, 7995, 8995],
  KIDS: [1495, 1995, 2495, 2995],
  SCARF: [1995, 2495, 2995],
  SHIRT: [3995, 4495, 4995, 5995],
  SHOES: [6995, 7995, 8995, 9995],
  SKIRT: [3995, 4495, 4995],
  SNEAKERS: [6995, 7995, 8995, 10995],
  SOCKS: [795, 995, 1295],
  SWEATER: [4995, 5995, 6995, 7995],
  TROUSERS: [4995, 5995, 6995],
  TSHIRT: [1495, 1995, 2495, 2995],
};
const DEFAULT_POINTS = [1995, 2995, 3995, 4995];

const CUSTOMERS: Array<Omit<CustomerInput, 'customerNo'>> = [
  { name: 'Mode Jansen B.V.', priceGroup: 2, customerGroup: 'BOUTIQUE', currency: 'EUR' },
  {
    name: 'Kledinghuis De Vries',
    priceGroup: 2,
    customerGroup: 'BOUTIQUE',
    currency: 'EUR',
    discountBp: 200,
  },
  { name: 'Van Dijk Fashion', priceGroup: 2, customerGroup: 'CHAIN', currency: 'EUR' },
  { name: 'Boutique Bakker', priceGroup: 2, currency: 'EUR', discountBp: 300 },
  { name: 'Modehuis Visser', priceGroup: 2, customerGroup: 'BOUTIQUE', currency: 'EUR' },
  { name: 'Smit Schoenen & Mode', priceGroup: 2, currency: 'EUR' },
  { name: 'Textiel Meijer', priceGroup: 2, customerGroup: 'CHAIN', currency: 'EUR', discountBp: 150 },
  { name: 'Mode De Boer', priceGroup: 2, currency: 'EUR' },
  { name: 'Mulder Mode Antwerpen', priceGroup: 2, customerGroup: 'BOUTIQUE', currency: 'EUR' },
  { name: 'Brighton Clothing Co.', priceGroup: 2, currency: 'GBP' },
  {
    name: 'Harrogate Outfitters Ltd',
    priceGroup: 2,
    customerGroup: 'CHAIN',
    currency: 'GBP',
    discountBp: 250,
  },
  { name: 'Modehaus Schneider', priceGroup: 2, currency: 'EUR', active: false },
];

/** GBP list prices for articles of these groups (the range sold in the UK). */
const GBP_GROUPS = new Set(['JEANS', 'JACKET', 'SWEATER', 'SNEAKERS', 'TSHIRT', 'SHIRT']);

function day(now: Date, offset: number): string {
  const d = new Date(now);
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
}

/** Rounds cents to a price ending in .95 (or .45 below 10.00): 2473 -> 2495. */
function priceEnding(cents: number): number {
  if (cents < 1000) return Math.max(95, Math.round(cents / 50) * 50 - 5);
  return Math.max(995, Math.round(cents / 100) * 100 - 5);
}

export async function seedPrices(
  services: Services,
  options: { seed?: number },
): Promise<{ customers: number; prices: number; agreements: number; actionPrices: number }> {
  const rng = new Random(options.seed ?? 1);
  const pricing = services.pricing;
  const now = pricing.agreements.now();

  const articles: CatalogArticle[] = [];
  for (let offset: number | null = 1; offset !== null; ) {
    const page = await services.catalog.listArticles('B2B', { sinceScn: 0, offset, limit: 1000 });
    articles.push(...page.items);
    offset = page.nextOffset;
  }

  // List prices: one retail price per model (all its colours and sizes), wholesale about 45 % of it.
  const retailOfModel = new Map<string, number>();
  let rows: ListPriceInput[] = [];
  let prices = 0;
  const flush = async () => {
    if (rows.length === 0) return;
    await pricing.listPrices.setListPrices(rows);
    prices += rows.length;
    rows = [];
  };
  for (const a of articles) {
    let retail = retailOfModel.get(a.MODEL);
    if (retail === undefined) {
      retail = rng.pick(RETAIL_POINTS[a.ARTICLEGROUP] ?? DEFAULT_POINTS);
      retailOfModel.set(a.MODEL, retail);
    }
    const wholesale = Math.round((retail * rng.int(42, 48)) / 100);
    const gbp = GBP_GROUPS.has(a.ARTICLEGROUP) ? priceEnding(Math.round(retail * 0.86)) : undefined;
    for (const { SIZEX: sizex } of a.SIZES) {
      const add = (
        priceType: 'RECOMMENDED' | 'SELLING',
        priceGroup: number,
        currency: string,
        cents: number,
      ) => rows.push({ articleNo: a.ARTICLE, priceType, priceGroup, currency, sizex, priceMinor: cents });
      // Large sizes of jackets and jeans cost a little more.
      const extra = ['XXL', '3XL', '44', '46'].includes(sizex) && retail >= 5995 ? 500 : 0;
      add('RECOMMENDED', 1, 'EUR', retail + extra);
      add('SELLING', 1, 'EUR', retail + extra);
      add('RECOMMENDED', 2, 'EUR', retail + extra);
      add('SELLING', 2, 'EUR', wholesale + Math.round(extra * 0.45));
      if (gbp !== undefined) {
        add('RECOMMENDED', 1, 'GBP', gbp);
        add('SELLING', 1, 'GBP', gbp);
        add('RECOMMENDED', 2, 'GBP', gbp);
        add('SELLING', 2, 'GBP', Math.round((gbp * 45) / 100));
      }
    }
    if (rows.length >= 5000) await flush();
  }
  await flush();

  await pricing.customers.saveCustomers(
    CUSTOMERS.map((c, i) => ({ ...c, customerNo: FIRST_DEMO_CUSTOMER + i })),
  );

  // Agreements: a few net prices for single articles (with a quantity break), model discounts for
  // the boutique group, an article-group discount for the chains.
  let agreements = 0;
  const live = articles.filter((a) => a.ACTIVE && a.SIZES.length > 0);
  for (const a of rng.sample(live, 3)) {
    const retail = retailOfModel.get(a.MODEL) ?? 0;
    const customerNo = FIRST_DEMO_CUSTOMER + rng.int(0, 8);
    const net = Math.round((retail * 40) / 100);
    await pricing.agreements.createAgreement({
      customerNo,
      scope: 'ARTICLE',
      scopeValue: a.ARTICLE,
      validFrom: day(now, -30),
      validTo: day(now, 150),
      netPrices: { EUR: net },
    });
    await pricing.agreements.createAgreement({
      customerNo,
      scope: 'ARTICLE',
      scopeValue: a.ARTICLE,
      minQuantity: 24,
      validFrom: day(now, -30),
      validTo: day(now, 150),
      netPrices: { EUR: Math.round((net * 92) / 100) },
    });
    agreements += 2;
  }
  for (const a of rng.sample(live, 2)) {
    await pricing.agreements.createAgreement({
      customerGroup: 'BOUTIQUE',
      scope: 'MODEL',
      scopeValue: a.MODEL,
      validFrom: day(now, -10),
      validTo: day(now, 80),
      discountBp: rng.pick([500, 750, 1000]),
    });
    agreements += 1;
  }
  const groups = [...new Set(live.map((a) => a.ARTICLEGROUP))].sort();
  if (groups.length > 0) {
    await pricing.agreements.createAgreement({
      customerGroup: 'CHAIN',
      scope: 'ARTICLEGROUP',
      scopeValue: rng.pick(groups),
      minQuantity: 12,
      validFrom: day(now, -60),
      discountBp: 800,
    });
    // one that has expired, to show it does not apply
    await pricing.agreements.createAgreement({
      customerNo: FIRST_DEMO_CUSTOMER,
      scope: 'ARTICLEGROUP',
      scopeValue: rng.pick(groups),
      validFrom: day(now, -120),
      validTo: day(now, -31),
      discountBp: 1500,
    });
    agreements += 2;

    // Line discounts: per customer and article group (or model).
    for (const customerNo of [FIRST_DEMO_CUSTOMER + 1, FIRST_DEMO_CUSTOMER + 4, FIRST_DEMO_CUSTOMER + 7]) {
      for (const group of rng.sample(groups, 2)) {
        await pricing.agreements.createLineDiscount({
          customerNo,
          scope: 'ARTICLEGROUP',
          scopeValue: group,
          discountBp: rng.pick([300, 500, 750]),
          validFrom: day(now, -90),
          validTo: day(now, 275),
        });
      }
    }
    const model = rng.pick(live).MODEL;
    await pricing.agreements.createLineDiscount({
      customerNo: FIRST_DEMO_CUSTOMER + 3,
      scope: 'MODEL',
      scopeValue: model,
      discountBp: 1000,
      validFrom: day(now, -7),
    });
  }

  // Action prices: current promotions on retail articles, a few for one size only, one upcoming.
  let actionPrices = 0;
  const retailArticles = live.filter((a) => a.RETAIL);
  for (const [i, a] of rng.sample(retailArticles, 8).entries()) {
    const retail = retailOfModel.get(a.MODEL) ?? 0;
    const upcoming = i === 7;
    await pricing.actionPrices.createActionPrice({
      articleNo: a.ARTICLE,
      sizex: i === 6 ? (a.SIZES[0]?.SIZEX ?? null) : null,
      currency: 'EUR',
      priceMinor: priceEnding(Math.round((retail * rng.pick([60, 70, 75, 80])) / 100)),
      startDate: upcoming ? day(now, 14) : day(now, -rng.int(1, 10)),
      endDate: upcoming ? day(now, 28) : day(now, rng.int(5, 21)),
    });
    actionPrices += 1;
  }

  return { customers: CUSTOMERS.length, prices, agreements, actionPrices };
}
