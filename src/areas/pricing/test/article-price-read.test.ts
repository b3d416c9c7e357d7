import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom, testSeed } from '../../../../test/helpers/seed.ts';
import { StatementCounter } from '../../../../test/helpers/statement-counter.ts';
import { ENGINE, startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import type { Database } from '../../../kernel/db/database.ts';
import { directReader } from '../../../kernel/db/sqlite-reader.ts';
import {
  articleSizesIn,
  articleStatesIn,
  CATALOG_ERRORS,
  liveArticlesIn,
  seedCatalog,
} from '../../catalog/index.ts';
import { FIRST_DEMO_CUSTOMER, liveCustomerTerms } from '../../customers/index.ts';
import { ArticlePriceService, type PricedArticle, type PriceQuery } from '../article-price-service.ts';
import { seedPrices } from '../demo.ts';
import { PRICING_ERRORS } from '../errors.ts';
import { resolvePrice } from '../price-resolution.ts';
import { PricingRepository } from '../pricing-repository.ts';
import { todayOf } from '../pricing-rules.ts';
import { type ArticlePriceWire, articlePriceToWire } from '../pricing-wire.ts';
import { day } from './pricing-context.ts';

/**
 * B2B_GetArticlePrice reads in one statement (the customer's terms and everything else)
 * what it used to read in eight or nine: the answers must not change. `reference` below is the
 * reading as it was, one statement per fact; both are run on the demo world for every demo customer
 * against the articles its agreements and line discounts are about, and must agree on every answer
 * and every refusal.
 */

let t: TestApp;

beforeAll(async () => {
  // B2B_GetArticlePrice's read runs on the reader thread on SQLite (decision 45)
  t = await startTestApp({ sqliteReader: true });
  expect(await t.database.reader.whenReady()).toBe(ENGINE === 'sqlite');
  await seedCatalog(t.services, { articles: 150, images: false });
  await seedPrices(t.services, {});
  // a deleted article (its prices go with it): priced as no article
  const someArticle = (await t.services.catalog.listArticles('B2B', { sinceScn: 0, offset: 1, limit: 1 }))
    .items[0];
  await t.services.catalog.deleteArticle(someArticle?.ARTICLE ?? '');
});
afterAll(() => t.close());

type Outcome = { price: Omit<PricedArticle, 'customerNo'> } | { refused: string };

async function wireOutcome(
  read: () => Promise<ArticlePriceWire>,
): Promise<{ price: ArticlePriceWire } | { refused: string }> {
  try {
    return { price: await read() };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === undefined) throw error;
    return { refused: code };
  }
}

async function outcome(read: () => Promise<PricedArticle>): Promise<Outcome> {
  try {
    const { customerNo: _, ...price } = await read();
    return { price };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === undefined) throw error;
    return { refused: code };
  }
}

/** B2B_GetArticlePrice's reading before it became two statements: one statement per fact. */
async function reference(database: Database, query: PriceQuery): Promise<PricedArticle> {
  const db = database.db;
  const quantity = query.quantity ?? 1;
  const date = query.date ?? todayOf(() => new Date());
  const customer = await liveCustomerTerms(db, query.customerNo);
  if (customer.active === 0) throw PRICING_ERRORS.CUSTOMER_INACTIVE('inactive');
  const article = (await articleStatesIn(db, [query.articleNo])).get(query.articleNo);
  if (!article || article.deleted === 1) throw CATALOG_ERRORS.ARTICLE_NOT_FOUND('no article');
  const live = await liveArticlesIn(db, [article.article_no]);
  const sizes = (await articleSizesIn(db, [...live])).get(article.article_no);
  if (!sizes?.includes(query.sizex)) throw PRICING_ERRORS.SIZE_NOT_FOUND('no size');
  const currency = query.currency ?? customer.currency;
  const listPrice = async (type: 'SELLING' | 'RECOMMENDED') => {
    const row = await db
      .selectFrom('list_price')
      .select('price_minor')
      .where('article_no', '=', article.article_no)
      .where('price_type', '=', type)
      .where('price_group', '=', customer.price_group)
      .where('currency', '=', currency)
      .where('sizex', '=', query.sizex)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    return row === undefined ? undefined : Number(row.price_minor);
  };
  const scopes = [
    ['ARTICLE', article.article_no],
    ['MODEL', article.model_no],
    ['ARTICLEGROUP', article.article_group],
  ] as const;
  const agreements = await db
    .selectFrom('price_agreement')
    .selectAll()
    .where('deleted', '=', 0)
    .where((eb) =>
      eb.or([
        eb('customer_no', '=', customer.customer_no),
        ...(customer.customer_group === null ? [] : [eb('customer_group', '=', customer.customer_group)]),
      ]),
    )
    .where((eb) => eb.or(scopes.map(([s, v]) => eb.and([eb('scope', '=', s), eb('scope_value', '=', v)]))))
    .orderBy('id')
    .execute();
  const lines = await db
    .selectFrom('customer_line_discount')
    .selectAll()
    .where('deleted', '=', 0)
    .where('customer_no', '=', customer.customer_no)
    .where((eb) =>
      eb.or(scopes.slice(1).map(([s, v]) => eb.and([eb('scope', '=', s), eb('scope_value', '=', v)]))),
    )
    .orderBy('id')
    .execute();
  const prices = await new PricingRepository(db).agreementPrices(agreements.map((a) => Number(a.id)));
  const resolved = resolvePrice(
    {
      customer: {
        customerNo: customer.customer_no,
        priceGroup: customer.price_group,
        customerGroup: customer.customer_group,
        discountBp: customer.discount_bp,
      },
      article: {
        articleNo: article.article_no,
        modelNo: article.model_no,
        articleGroup: article.article_group,
      },
      sizex: query.sizex,
      quantity,
      date,
      currency,
    },
    {
      listPrice: await listPrice('SELLING'),
      agreements: agreements.map((a) => ({
        id: Number(a.id),
        customerNo: a.customer_no,
        customerGroup: a.customer_group,
        scope: a.scope,
        scopeValue: a.scope_value,
        minQuantity: a.min_quantity,
        validFrom: a.valid_from,
        validTo: a.valid_to,
        discountBp: a.discount_bp,
        netPrices: Object.fromEntries(
          prices.filter((p) => p.agreement_id === Number(a.id)).map((p) => [p.currency, p.price_minor]),
        ),
      })),
      lineDiscounts: lines.map((d) => ({
        id: Number(d.id),
        customerNo: d.customer_no,
        scope: d.scope === 'MODEL' ? 'MODEL' : 'ARTICLEGROUP',
        scopeValue: d.scope_value,
        discountBp: d.discount_bp,
        validFrom: d.valid_from,
        validTo: d.valid_to,
      })),
    },
  );
  return {
    customerNo: customer.customer_no,
    articleNo: article.article_no,
    sizex: query.sizex,
    quantity,
    date,
    resolved,
    recommended: await listPrice('RECOMMENDED'),
  };
}

/** The demo customers (one of them inactive) and one that does not exist. */
const CUSTOMERS = [...Array.from({ length: 12 }, (_, i) => FIRST_DEMO_CUSTOMER + i), 99_999];

/**
 * The queries: every customer against up to two articles of each agreement's and line discount's
 * scope, once plainly (quantity 1, today, the customer's currency) and once varied (quantity breaks,
 * other dates and currencies, now and then a size the article does not have); and every customer
 * against an unknown article, a deleted one and a size the article lacks.
 */
async function queries(): Promise<PriceQuery[]> {
  const all = { sinceScn: 0, offset: 1, limit: 5000 };
  const articles = (await t.services.catalog.listArticles('B2B', { ...all, limit: 1000 })).items;
  const deleted = (await t.services.catalog.listArticles('B2B', { ...all, limit: 1 })).items[0];
  const { agreements } = t.services.pricing;
  const scopes = [
    ...(await agreements.listAgreements(all)).items.map((a) => [a.ARTICLE, a.MODEL, a.ARTICLEGROUP]),
    ...(await agreements.listLineDiscounts(all)).items.map((d) => [null, d.MODEL, d.ARTICLEGROUP]),
  ];
  const chosen = new Map<string, (typeof articles)[number]>();
  for (const [no, model, group] of scopes) {
    const matching = articles.filter(
      (a) => a.ARTICLE === no || a.MODEL === model || a.ARTICLEGROUP === group,
    );
    for (const a of matching.slice(0, 2)) chosen.set(a.ARTICLE, a);
  }
  const random = seededRandom(testSeed());
  const out: PriceQuery[] = [];
  for (const customerNo of CUSTOMERS) {
    const first = [...chosen.values()][0];
    out.push({ customerNo, articleNo: 'NOPE-000', sizex: 'M' });
    out.push({ customerNo, articleNo: deleted?.ARTICLE ?? '', sizex: 'M' });
    out.push({ customerNo, articleNo: first?.ARTICLE ?? '', sizex: 'NOPE' });
    for (const a of chosen.values()) {
      const sizex = a.SIZES[0]?.SIZEX ?? 'M';
      out.push({ customerNo, articleNo: a.ARTICLE, sizex });
      out.push({
        customerNo,
        articleNo: a.ARTICLE,
        sizex: random.next() < 0.05 ? 'NOPE' : (random.pick(a.SIZES)?.SIZEX ?? sizex),
        quantity: random.pick([1, 12, 24, 30]),
        date: random.pick([day(0), day(-40), day(100), day(200)]),
        currency: random.pick([undefined, 'EUR', 'GBP', 'USD']),
      });
    }
  }
  return out;
}

describe(`B2B_GetArticlePrice's reading (${ENGINE})`, () => {
  // About 800 prices read both ways: given time for a busy machine.
  it('gives the same answer as the reading one statement per fact, for the demo customers and articles', {
    timeout: 180_000,
  }, async () => {
    const service = t.services.pricing.articlePrices;
    const seen = new Map<string, number>();
    const list = await queries();
    for (const query of list) {
      const now = await outcome(() => service.priceFor(query));
      const before = await outcome(() => reference(t.database, query));
      expect(now, JSON.stringify(query)).toEqual(before);
      // the operation's read (the reader thread on SQLite) answers the same, refusals included
      expect(await wireOutcome(() => service.articlePrice(query)), JSON.stringify(query)).toEqual(
        'price' in now
          ? {
              price: articlePriceToWire(
                { ...now.price, customerNo: query.customerNo },
                now.price.resolved,
                now.price.recommended,
              ),
            }
          : now,
      );
      const kind = 'price' in now ? now.price.resolved.rule : now.refused;
      seen.set(kind, (seen.get(kind) ?? 0) + 1);
    }
    // every rule and every refusal occurred
    expect([...seen.keys()].sort()).toEqual([
      'AGREEMENT',
      'ARTICLE_NOT_FOUND',
      'CUSTOMER_DISCOUNT',
      'CUSTOMER_INACTIVE',
      'CUSTOMER_NOT_FOUND',
      'LINE_DISCOUNT',
      'LIST_PRICE',
      'PRICE_NOT_FOUND',
      'SIZE_NOT_FOUND',
    ]);
  });

  it('sees a change of the customer’s terms at the next read: discount, currency, active, deleted', async () => {
    const service = t.services.pricing.articlePrices;
    // a customer of its own, without group, agreements or line discounts, on a demo customer's terms
    const demo = await liveCustomerTerms(t.database.db, FIRST_DEMO_CUSTOMER);
    const customerNo = 77_001;
    const terms = {
      customerNo,
      name: 'Terms Change',
      priceGroup: demo.price_group,
      currency: demo.currency,
    };
    await t.services.pricing.customers.saveCustomer(terms);
    let query: PriceQuery | undefined;
    for (const q of await queries()) {
      const o = await outcome(() =>
        service.priceFor({ ...q, customerNo, date: undefined, currency: undefined }),
      );
      if ('price' in o && o.price.resolved.rule === 'LIST_PRICE') {
        query = { customerNo, articleNo: q.articleNo, sizex: q.sizex };
        break;
      }
    }
    if (query === undefined) throw new Error('no article with a list price for the demo terms');
    const q = query;
    const listPrice = (await service.priceFor(q)).resolved.netPrice;
    await t.services.pricing.customers.saveCustomer({ ...terms, discountBp: 1000 });
    const discounted = await service.priceFor(q);
    expect(discounted.resolved.rule).toBe('CUSTOMER_DISCOUNT');
    expect(discounted.resolved.netPrice).toBeLessThan(listPrice);
    const other = demo.currency === 'EUR' ? 'GBP' : 'EUR';
    await t.services.pricing.customers.saveCustomer({ ...terms, currency: other });
    expect(await outcome(() => service.priceFor(q))).toEqual(
      await outcome(() => service.priceFor({ ...q, currency: other })),
    );
    await t.services.pricing.customers.saveCustomer({ ...terms, active: false });
    expect(await outcome(() => service.priceFor(q))).toEqual({ refused: 'CUSTOMER_INACTIVE' });
    await t.services.pricing.customers.saveCustomer(terms);
    expect((await service.priceFor(q)).resolved.netPrice).toBe(listPrice);
    await t.services.customers.customers.deleteCustomer(customerNo);
    expect(await outcome(() => service.priceFor(q))).toEqual({ refused: 'CUSTOMER_NOT_FOUND' });
  });

  it('reads on the reader thread on SQLite, and a list price written is in every answer asked for after it', async () => {
    expect(await t.database.reader.whenReady()).toBe(ENGINE === 'sqlite');
    expect(t.database.reader.onThread()).toBe(ENGINE === 'sqlite');
    const admin = await t.tokenFor(['ADMIN']);
    const wholesale = await t.tokenFor(['B2B']);
    const demo = await liveCustomerTerms(t.database.db, FIRST_DEMO_CUSTOMER);
    const a = (await t.services.catalog.listArticles('B2B', { sinceScn: 0, offset: 3, limit: 1 })).items[0];
    const target = { ARTICLE: a?.ARTICLE ?? '', SIZEX: a?.SIZES[0]?.SIZEX ?? '' };
    const query = {
      strcustomer: String(FIRST_DEMO_CUSTOMER),
      strarticle: target.ARTICLE,
      strsize: target.SIZEX,
    };
    const listPrice = async () => {
      const res = await t.call('GET', 'B2B_GetArticlePrice', { token: wholesale, query });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().B2BGETARTICLEPRICE.LISTPRICE as number;
    };
    const write = async (cents: number) => {
      const res = await t.send(admin, 'PUT', '/TV2/Admin/prices', {
        PRICES: [
          {
            ...target,
            PRICETYPE: 'SELLING',
            PRICEGROUP: demo.price_group,
            CURRENCY: demo.currency,
            PRICE: (cents / 100).toFixed(2),
          },
        ],
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    for (let round = 1; round <= 25; round++) {
      const before = 1000 + round * 2;
      const next = before + 1;
      await write(before);
      expect(await Promise.all(Array.from({ length: 6 }, listPrice))).toEqual(Array(6).fill(before / 100));
      // reads that overlap the next write answer the price before it or after it
      const [overlapping] = await Promise.all([
        Promise.all(Array.from({ length: 6 }, listPrice)),
        write(next),
      ]);
      for (const price of overlapping) expect([before / 100, next / 100]).toContain(price);
      expect(await listPrice()).toBe(next / 100);
    }
  });

  it('reads in one statement: the customer, the article, its size, prices, agreements and line discounts', async () => {
    const counter = new StatementCounter();
    const db = t.database.db.withPlugin(counter);
    const counted: Database = { ...t.database, db, reader: directReader(db) };
    const service = new ArticlePriceService(counted);
    const articles = (await t.services.catalog.listArticles('B2B', { sinceScn: 0, offset: 2, limit: 1 }))
      .items;
    const a = articles[0];
    const price = await service.articlePrice({
      customerNo: FIRST_DEMO_CUSTOMER,
      articleNo: a?.ARTICLE ?? '',
      sizex: a?.SIZES[0]?.SIZEX ?? '',
    });
    expect(price.NETPRICE).toBeGreaterThan(0);
    expect(counter.count).toBe(1);
  });
});
