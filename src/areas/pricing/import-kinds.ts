import { withRoot } from '../../kernel/errors.ts';
import {
  checkRecord,
  fromCsv,
  type ImportKind,
  inOneTransaction,
  writtenOf,
} from '../../kernel/import/import-kind.ts';
import { AgreementService } from './agreement-service.ts';
import {
  AgreementBody,
  agreementInput,
  CustomerBody,
  customerInput,
  ListPriceBody,
  listPriceInput,
  pricingRecordFromCsv,
} from './pricing-input.ts';

const customers: ImportKind<ReturnType<typeof customerInput>> = {
  name: 'customers',
  description:
    'wholesale customers (pricing terms): CUSTOMER, NAME, PRICEGROUP, CUSTOMERGROUP, CURRENCY, DISCOUNTPERC, ACTIVE',
  parse: (record, format) =>
    customerInput(checkRecord<CustomerBody>(CustomerBody, fromCsv(record, format, pricingRecordFromCsv))),
  save: async (services, inputs) =>
    writtenOf(
      await withRoot('', () => services.pricing.customers.saveCustomers(inputs), {
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
    writtenOf(
      await withRoot('', () => services.pricing.listPrices.setListPrices(inputs), {
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
      for (const input of inputs) changed += (await agreements.saveAgreement(input)).changed;
      return { written: changed, unchanged: inputs.length - changed };
    }),
};

/** The `tv2 import` kinds of the pricing area: customers' terms, list prices, agreements. */
export const PRICING_IMPORT_KINDS = [customers, prices, agreements];
