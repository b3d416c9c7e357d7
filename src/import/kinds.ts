import type { Database } from '../db/database.ts';
import { inWriteTransaction, joinedDatabase } from '../db/unit-of-work.ts';
import {
  ArticleBody,
  articleInput,
  articleRecordFromCsv,
  checkRecord,
  SizeTableBody,
  sizeTableInput,
  sizeTableRecordFromCsv,
  withWireNames,
} from '../domain/catalog/catalog-input.ts';
import type { SaveResult } from '../domain/catalog/catalog-service.ts';
import {
  AdminClientBody,
  adminClientInput,
  clientRecordFromCsv,
  withClientNames,
} from '../domain/clients/client-input.ts';
import { ClientService } from '../domain/clients/client-service.ts';
import { AgreementService } from '../domain/pricing/agreement-service.ts';
import {
  AgreementBody,
  agreementInput,
  CustomerBody,
  customerInput,
  ListPriceBody,
  listPriceInput,
  pricingRecordFromCsv,
} from '../domain/pricing/pricing-input.ts';
import { withWireNames as withPricingWireNames } from '../domain/shared/wire-names.ts';
import { LocationService } from '../domain/stock/location-service.ts';
import {
  LevelBody,
  LocationBody,
  locationInput,
  locationRecordFromCsv,
  saveLocation,
} from '../domain/stock/stock-input.ts';
import type { Services } from '../services.ts';
import { CUSTOMER_IMPORT_KINDS } from './customer-kinds.ts';
import type { RecordFormat } from './records.ts';
import { SHOP_IMPORT_KINDS } from './shop-kinds.ts';

/**
 * One kind of record `tv2 import` understands: how a record (JSON, or a CSV row turned into the
 * JSON form) becomes a domain input, and how a batch of inputs is saved in one transaction.
 */
export interface ImportKind<I> {
  name: string;
  description: string;
  parse(record: unknown, format: RecordFormat): I;
  save(services: Services, inputs: I[]): Promise<SaveResult>;
}

/**
 * Runs a batch as one write transaction for kinds whose service saves one record per call: the
 * services built over the given Database join this transaction (joinedDatabase), so the batch is
 * saved with one SCN, or not at all (then run-import saves its records one by one).
 */
function inOneTransaction<T>(services: Services, work: (database: Database) => Promise<T>): Promise<T> {
  return inWriteTransaction(services.database, (uow) => work(joinedDatabase(services.database, uow)));
}

function fromCsv(
  record: unknown,
  format: RecordFormat,
  toRecord: (row: Record<string, string>) => unknown,
): unknown {
  return format === 'csv' ? toRecord(record as Record<string, string>) : record;
}

const sizeTables: ImportKind<ReturnType<typeof sizeTableInput>> = {
  name: 'sizetables',
  description: 'size tables: SIZETABLE, SIZES (CSV: "XS|S|M"), DESCRIPTION',
  parse: (record, format) =>
    sizeTableInput(
      checkRecord<SizeTableBody>(SizeTableBody, fromCsv(record, format, sizeTableRecordFromCsv)),
    ),
  save: (services, inputs) => withWireNames(() => services.catalog.saveSizeTables(inputs)),
};

const articles: ImportKind<ReturnType<typeof articleInput>> = {
  name: 'articles',
  description:
    'articles with sizes and barcodes, in the form of B2B_GetArticle (CSV: flat columns, see README)',
  parse: (record, format) =>
    articleInput(checkRecord<ArticleBody>(ArticleBody, fromCsv(record, format, articleRecordFromCsv))),
  save: (services, inputs) => withWireNames(() => services.catalog.saveArticles(inputs)),
};

const locations: ImportKind<ReturnType<typeof locationInput>> = {
  name: 'locations',
  description:
    'shops and warehouses: LOCATION, NAME, KIND (SHOP|WAREHOUSE), WHOLESALE, RETAIL, ACTIVE, ADDRESS, HOUSENUMBER, POSTALCODE, CITY, COUNTRY',
  parse: (record, format) =>
    locationInput(checkRecord<LocationBody>(LocationBody, fromCsv(record, format, locationRecordFromCsv))),
  save: (services, inputs) =>
    inOneTransaction(services, async (database) => {
      const locations = new LocationService(database);
      let written = 0;
      for (const input of inputs) if ((await saveLocation(locations, input)).written) written++;
      return { written, unchanged: inputs.length - written };
    }),
};

const stock: ImportKind<{ locationCode: string; articleNo: string; sizex: string; onHand: number }> = {
  name: 'stock',
  description:
    'counted stock levels: LOCATION, ARTICLE, SIZEX, ONHAND (differences become correction movements)',
  parse(record) {
    const body = checkRecord<LevelBody>(LevelBody, record);
    return {
      locationCode: body.LOCATION,
      articleNo: body.ARTICLE,
      sizex: body.SIZEX,
      onHand: Number(body.ONHAND),
    };
  },
  async save(services, inputs) {
    const result = await services.stock.stockTake.setLevels(inputs, { reference: 'import' });
    return { written: result.changed, unchanged: result.unchanged };
  },
};

const written = (r: { changed: number }, total: number) => ({
  written: r.changed,
  unchanged: total - r.changed,
});

const customers: ImportKind<ReturnType<typeof customerInput>> = {
  name: 'customers',
  description:
    'wholesale customers (pricing terms): CUSTOMER, NAME, PRICEGROUP, CUSTOMERGROUP, CURRENCY, DISCOUNTPERC, ACTIVE',
  parse: (record, format) =>
    customerInput(checkRecord<CustomerBody>(CustomerBody, fromCsv(record, format, pricingRecordFromCsv))),
  save: async (services, inputs) =>
    written(
      await withPricingWireNames(() => services.pricing.customers.saveCustomers(inputs), {
        single: inputs.length === 1,
      }),
      inputs.length,
    ),
};

const prices: ImportKind<ReturnType<typeof listPriceInput>> = {
  name: 'prices',
  description: 'list prices: ARTICLE, PRICETYPE (SELLING|RECOMMENDED), PRICEGROUP, CURRENCY, SIZEX, PRICE',
  parse: (record, format) =>
    listPriceInput(checkRecord<ListPriceBody>(ListPriceBody, fromCsv(record, format, pricingRecordFromCsv))),
  save: async (services, inputs) =>
    written(
      await withPricingWireNames(() => services.pricing.listPrices.setListPrices(inputs), {
        single: inputs.length === 1,
      }),
      inputs.length,
    ),
};

const agreements: ImportKind<ReturnType<typeof agreementInput>> = {
  name: 'agreements',
  description:
    'price agreements: CUSTOMER or CUSTOMERGROUP; ARTICLE, MODEL or ARTICLEGROUP; MINQUANTITY, VALIDFROM, VALIDTO; DISCOUNTPERC or NETPRICES ("EUR=12.50|GBP=10.90"). An agreement with the same customer, scope, quantity break and start is updated, not added.',
  parse: (record, format) =>
    agreementInput(checkRecord<AgreementBody>(AgreementBody, fromCsv(record, format, pricingRecordFromCsv))),
  save: (services, inputs) =>
    inOneTransaction(services, async (database) => {
      const agreements = new AgreementService(database);
      let changed = 0;
      for (const input of inputs)
        changed += (await withPricingWireNames(() => agreements.saveAgreement(input))).changed;
      return { written: changed, unchanged: inputs.length - changed };
    }),
};

const clients: ImportKind<ReturnType<typeof adminClientInput>> = {
  name: 'clients',
  description:
    'retail clients: CLIENT, EMAIL, FIRSTNAME, MIDDLENAME, LASTNAME, PHONE, ADDRESS, HOUSENUMBER, POSTALCODE, CITY, COUNTRY, BIRTHDATE, LANGUAGE, HOMESHOP, CONSENT_NEWSLETTER|SMS|PROFILING (1/0), CARDNO, CARDLEVEL, CARDVALIDFROM, CARDVALIDTO',
  parse: (record, format) =>
    adminClientInput(
      checkRecord<AdminClientBody>(AdminClientBody, fromCsv(record, format, clientRecordFromCsv)),
    ),
  save: (services, inputs) =>
    inOneTransaction(services, async (database) => {
      // each client is a create or a change checked against its e-mail address, all in one transaction
      const clientService = new ClientService(database);
      let changed = 0;
      for (const input of inputs) {
        const saved = await withClientNames('', () =>
          clientService.saveClient(input, { createWithNumber: true }),
        );
        if (saved.changed) changed++;
      }
      return { written: changed, unchanged: inputs.length - changed };
    }),
};

// biome-ignore lint/suspicious/noExplicitAny: kinds differ in their input type; each is typed above
export const IMPORT_KINDS: Record<string, ImportKind<any>> = {
  [sizeTables.name]: sizeTables,
  [articles.name]: articles,
  [locations.name]: locations,
  [stock.name]: stock,
  [customers.name]: customers,
  [prices.name]: prices,
  [agreements.name]: agreements,
  [clients.name]: clients,
  ...SHOP_IMPORT_KINDS,
  ...CUSTOMER_IMPORT_KINDS,
};
