import type { AreaSqlExamples } from '../../kernel/db/sql-examples.ts';
import { sqlExamplesOf } from '../../kernel/db/sql-examples.ts';
import {
  type AddressRow,
  type ArticleLinkRow,
  CustomerRepository,
  type CustomerRow,
  type RepresentativeRow,
} from './customer-repository.ts';

// Example calls of the customers repository for the SQL snapshots (scripts/sql-snapshots.ts); they
// use the catalogue's seeded article 10001-100.

const AT = '2026-03-02T09:30:00.000Z';

function customer(customerNo: number, scn: number): CustomerRow {
  return {
    customer_no: customerNo,
    name: 'Jeans Corner',
    price_group: 1,
    customer_group: null,
    currency: 'EUR',
    discount_bp: 0,
    active: 1,
    deleted: 0,
    scn,
    created_at: AT,
    updated_at: AT,
    external_key: `ERP-${customerNo}`,
    name2: '',
    vat_no: 'NL123456789B01',
    language: 'LANGUAGE_1',
    payment_days: 30,
    credit_limit_minor: 500_000,
    representative_code: 'REP1',
  };
}

function address(addressNo: number, scn: number): AddressRow {
  return {
    customer_no: 1001,
    address_no: addressNo,
    address: 'Kanaalweg',
    house_number: '17',
    postal_code: '3526 KL',
    city: 'Utrecht',
    country: 'NL',
    map_area: '',
    post_box: '',
    deleted: 0,
    scn,
    created_at: AT,
    updated_at: AT,
  };
}

function representative(code: string, scn: number): RepresentativeRow {
  return {
    code,
    name: 'Pieter Jansen',
    email: 'pieter@nordwind.example',
    phone: '+31 6 1234 5678',
    active: 1,
    deleted: 0,
    scn,
    created_at: AT,
    updated_at: AT,
  };
}

function link(articleNo: string, scn: number): ArticleLinkRow {
  return {
    customer_no: 1001,
    article_no: articleNo,
    customer_article_no: 'DC-JEANS-01',
    customer_description: 'Slim jeans navy',
    customer_barcode: null,
    deleted: 0,
    scn,
    created_at: AT,
    updated_at: AT,
  };
}

export const sqlExamples: AreaSqlExamples = {
  // Representative REP1 with customer 1001 (group WHOLESALE, external key ERP-1001; the pricing
  // area's examples refer to it too, so its seed waits for this one); its address 1; its link to
  // article 10001-100.
  async seed(db) {
    await db.insertInto('representative').values(representative('REP1', 9)).execute();
    await db
      .insertInto('customer')
      .values({
        ...customer(1001, 8),
        name: 'Denim & Co',
        customer_group: 'WHOLESALE',
        vat_no: 'NL123456782B01',
        credit_limit_minor: 1_000_000,
      })
      .execute();
    await db
      .insertInto('representative_customer')
      .values({ representative_code: 'REP1', customer_no: 1001, deleted: 0, scn: 9 })
      .execute();
    await db.insertInto('customer_address').values(address(1, 9)).execute();
    await db.insertInto('customer_article_link').values(link('10001-100', 9)).execute();
  },
  repositories: [
    sqlExamplesOf(CustomerRepository, {
      addressesOf: {
        'deleted included': (r) => r.addressesOf([1001, 1002]),
        'live only': (r) => r.addressesOf([1001, 1002], true),
      },
      customerNoByExternalKey: (r) => r.customerNoByExternalKey('ERP-1001'),
      customersPage: {
        'full list': (r) => r.customersPage(0, 1, 100),
        feed: (r) => r.customersPage(5, 1, 100),
        'one customer': (r) => r.customersPage(0, 1, 100, { customerNo: 1001 }),
      },
      findCustomer: (r) => r.findCustomer(1001),
      findCustomers: (r) => r.findCustomers([1001, 1002]),
      findRepresentative: (r) => r.findRepresentative('REP1'),
      findRepresentatives: (r) => r.findRepresentatives(['REP1', 'REP2']),
      insertCustomer: (r) => r.insertCustomer(customer(1002, 100)),
      linksOfCustomer: (r) => r.linksOfCustomer(1001),
      linksPage: {
        'full list': (r) => r.linksPage(0, 1, 100),
        feed: (r) => r.linksPage(5, 1, 100),
        "one customer's": (r) => r.linksPage(0, 1, 100, { customerNo: 1001 }),
        'filtered by customer, article and customer article': (r) =>
          r.linksPage(0, 1, 100, {
            customerNo: 1001,
            articleNo: '10001-100',
            customerArticleNo: 'DC-JEANS-01',
          }),
      },
      liveCustomersOfRepresentative: (r) => r.liveCustomersOfRepresentative('REP1'),
      maxCustomerNo: (r) => r.maxCustomerNo(),
      representativeCustomersPage: {
        'full list': (r) => r.representativeCustomersPage('REP1', 0, 1, 100),
        feed: (r) => r.representativeCustomersPage('REP1', 5, 1, 100),
        'one customer': (r) => r.representativeCustomersPage('REP1', 0, 1, 100, { customerNo: 1001 }),
      },
      representativesOfCustomerPage: {
        'full list': (r) => r.representativesOfCustomerPage(1001, 0, 1, 100),
        feed: (r) => r.representativesOfCustomerPage(1001, 5, 1, 100),
      },
      representativesPage: {
        'full list': (r) => r.representativesPage(0, 1, 100),
        feed: (r) => r.representativesPage(5, 1, 100),
      },
      setMembership: (r) => r.setMembership('REP1', 1001, 1, 100),
      softDeleteCustomer: (r) => r.softDeleteCustomer(1001, 100, AT),
      updateCustomer: (r) =>
        r.updateCustomer(1001, { name: 'Denim & Co B.V.', payment_days: 14, scn: 100, updated_at: AT }),
      upsertAddress: (r) => r.upsertAddress(address(2, 100)),
      upsertCustomerTerms: (r) =>
        r.upsertCustomerTerms({
          customer_no: 1001,
          name: 'Denim & Co B.V.',
          price_group: 2,
          customer_group: 'WHOLESALE',
          currency: 'EUR',
          discount_bp: 250,
          active: 1,
          deleted: 0,
          scn: 100,
          created_at: AT,
          updated_at: AT,
        }),
      upsertLink: (r) => r.upsertLink({ ...link('10001-100', 100), customer_article_no: 'DC-JEANS-02' }),
      upsertRepresentative: (r) => r.upsertRepresentative(representative('REP2', 100)),
    }),
  ],
};
