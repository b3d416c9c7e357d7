import type { AreaSqlExamples } from '../../kernel/db/sql-examples.ts';
import { sqlExamplesOf } from '../../kernel/db/sql-examples.ts';
import { ArticlePriceRepository } from './article-price-repository.ts';
import {
  type ActionPriceRow,
  type AgreementRow,
  type LineDiscountRow,
  type ListPriceRow,
  PricingRepository,
} from './pricing-repository.ts';
import { RetailPriceRepository } from './retail-price-repository.ts';

// Example calls of the pricing repository for the SQL snapshots (scripts/sql-snapshots.ts); they
// use the catalogue's seeded article 10001-100 (model 10001, group JEANS, sizes S and M). The pages
// ask for 100 rows and one more (to know whether another page follows), from position 1.

const AT = '2026-03-02T09:30:00.000Z';
const PRICE_OF_M = { articleNo: '10001-100', sizex: 'M', priceGroup: 1, currency: 'EUR' };
const WHOLESALER = { customerNo: 1001, customerGroup: 'WHOLESALE' };

function listPrice(sizex: string, priceMinor: number, scn: number): ListPriceRow {
  return {
    article_no: '10001-100',
    price_type: 'SELLING',
    price_group: 1,
    currency: 'EUR',
    sizex,
    price_minor: priceMinor,
    deleted: 0,
    scn,
  };
}

function agreement(scn: number): Omit<AgreementRow, 'id'> {
  return {
    customer_no: 1001,
    customer_group: null,
    scope: 'MODEL',
    scope_value: '10001',
    min_quantity: 10,
    valid_from: '2026-01-01',
    valid_to: null,
    kind: 'NETPRICE',
    discount_bp: null,
    deleted: 0,
    scn,
    created_at: AT,
    updated_at: AT,
  };
}

function lineDiscount(scn: number): Omit<LineDiscountRow, 'id'> {
  return {
    customer_no: 1001,
    scope: 'ARTICLEGROUP',
    scope_value: 'JEANS',
    discount_bp: 500,
    valid_from: '2026-01-01',
    valid_to: '2026-12-31',
    deleted: 0,
    scn,
    created_at: AT,
    updated_at: AT,
  };
}

function actionPrice(scn: number): Omit<ActionPriceRow, 'id'> {
  return {
    article_no: '10001-100',
    sizex: 'M',
    currency: 'EUR',
    price_minor: 4995,
    start_date: '2026-04-01',
    end_date: '2026-04-30',
    deleted: 0,
    scn,
    created_at: AT,
    updated_at: AT,
  };
}

const { created_at: _agreementCreated, ...agreementChanges } = agreement(100);
const { created_at: _discountCreated, ...lineDiscountChanges } = lineDiscount(100);
const { created_at: _actionCreated, ...actionPriceChanges } = actionPrice(100);

export const sqlExamples: AreaSqlExamples = {
  // List prices of 10001-100; agreement, line discount and action price 1, for the customers
  // area's customer 1001 (so the customers' seed runs first).
  seedAfter: ['customers'],
  async seed(db) {
    await db
      .insertInto('list_price')
      .values([listPrice('S', 5995, 8), listPrice('M', 5995, 8)])
      .execute();
    await db
      .insertInto('price_article')
      .values({ article_no: '10001-100', deleted: 0, scn: 8, pos: 1 })
      .execute();
    await db.insertInto('price_agreement').values(agreement(8)).execute();
    await db
      .insertInto('price_agreement_price')
      .values({ agreement_id: 1, currency: 'EUR', price_minor: 3995 })
      .execute();
    await db.insertInto('customer_line_discount').values(lineDiscount(8)).execute();
    await db.insertInto('action_price').values(actionPrice(8)).execute();
  },
  repositories: [
    sqlExamplesOf(PricingRepository, {
      actionPricesOfArticle: (r) => r.actionPricesOfArticle('10001-100'),
      actionPricesPage: {
        'the list of a day': (r) => r.actionPricesPage(0, 1, 101, '2026-04-15'),
        'the list of every one': (r) => r.actionPricesPage(0, 1, 101, null),
        'a feed': (r) => r.actionPricesPage(100, 1, 101, '2026-04-15'),
      },
      agreementIdByKey: {
        'of a customer': (r) =>
          r.agreementIdByKey({
            customer_no: 1001,
            customer_group: null,
            scope: 'MODEL',
            scope_value: '10001',
            min_quantity: 10,
            valid_from: '2026-01-01',
          }),
        'of a customer group': (r) =>
          r.agreementIdByKey({
            customer_no: null,
            customer_group: 'WHOLESALE',
            scope: 'ARTICLEGROUP',
            scope_value: 'JEANS',
            min_quantity: 1,
            valid_from: '2026-01-01',
          }),
      },
      agreementPrices: (r) => r.agreementPrices([1, 2]),
      agreementsPage: {
        every: (r) => r.agreementsPage(0, 1, 101),
        'a feed': (r) => r.agreementsPage(100, 1, 101),
        'of a customer in a group': (r) => r.agreementsPage(0, 1, 101, WHOLESALER),
        'of a customer without a group': (r) =>
          r.agreementsPage(0, 1, 101, { customerNo: 1001, customerGroup: null }),
      },
      findActionPrice: (r) => r.findActionPrice(1),
      findAgreement: (r) => r.findAgreement(1),
      findLineDiscount: (r) => r.findLineDiscount(1),
      insertActionPrice: (r) => r.insertActionPrice({ ...actionPrice(100), sizex: null }),
      insertAgreement: (r) => r.insertAgreement({ ...agreement(100), min_quantity: 50 }),
      insertLineDiscount: (r) =>
        r.insertLineDiscount({ ...lineDiscount(100), scope: 'MODEL', scope_value: '10001' }),
      lineDiscountsPage: {
        every: (r) => r.lineDiscountsPage(0, 1, 101),
        'a feed': (r) => r.lineDiscountsPage(100, 1, 101),
        'of a customer': (r) => r.lineDiscountsPage(0, 1, 101, 1001),
      },
      listPricesOf: (r) => r.listPricesOf(['10001-100', '10002-200']),
      listPricesPage: {
        'the list': (r) => r.listPricesPage(0, 1, 101),
        'a feed': (r) => r.listPricesPage(100, 1, 101),
      },
      livePricesOf: (r) => r.livePricesOf(['10001-100', '10002-200']),
      overlappingActionPrices: {
        'one size, another row': (r) => r.overlappingActionPrices(actionPrice(100), 1),
        'every size, a new row': (r) => r.overlappingActionPrices({ ...actionPrice(100), sizex: null }, null),
      },
      priceArticlesPage: {
        'the list': (r) => r.priceArticlesPage(0, 1, 101),
        'a feed': (r) => r.priceArticlesPage(100, 1, 101),
      },
      refreshPriceArticles: (r) => r.refreshPriceArticles(['10001-100'], 100),
      replaceAgreementPrices: (r) =>
        r.replaceAgreementPrices(1, [
          { currency: 'EUR', price_minor: 3795 },
          { currency: 'USD', price_minor: 4195 },
        ]),
      updateActionPrice: (r) => r.updateActionPrice(1, { ...actionPriceChanges, price_minor: 4495 }),
      updateActionPriceFlags: (r) => r.updateActionPriceFlags(1, 100, AT),
      updateAgreement: (r) => r.updateAgreement(1, { ...agreementChanges, min_quantity: 20 }),
      updateAgreementFlags: (r) => r.updateAgreementFlags(1, 100, AT),
      updateLineDiscount: (r) => r.updateLineDiscount(1, { ...lineDiscountChanges, discount_bp: 750 }),
      updateLineDiscountFlags: (r) => r.updateLineDiscountFlags(1, 100, AT),
      upsertListPrices: (r) => r.upsertListPrices([listPrice('S', 6495, 100), listPrice('L', 6495, 100)]),
    }),
    sqlExamplesOf(ArticlePriceRepository, {
      priceFacts: {
        'a customer in a group': (r) =>
          r.priceFacts({ ...PRICE_OF_M, customerNo: 1001, customerGroup: 'WHOLESALE' }),
        'a customer without a group': (r) =>
          r.priceFacts({ ...PRICE_OF_M, customerNo: 1001, customerGroup: null }),
      },
      customerPriceFacts: {
        "the customer's currency": (r) =>
          r.customerPriceFacts({ articleNo: '10001-100', sizex: 'M', customerNo: 1001, currency: null }),
        'an asked currency': (r) =>
          r.customerPriceFacts({ articleNo: '10001-100', sizex: 'M', customerNo: 1001, currency: 'USD' }),
      },
    }),
    sqlExamplesOf(RetailPriceRepository, {
      candidates: (r) =>
        r.candidates(
          [
            { articleNo: '10001-100', sizex: 'S' },
            { articleNo: '10001-100', sizex: 'M' },
          ],
          { priceGroup: 1, currency: 'EUR', date: '2026-04-15' },
        ),
    }),
  ],
};
