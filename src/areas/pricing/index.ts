import type { Area } from '../../kernel/area.ts';
import { PRICING_ADMIN_ROUTES } from './admin.ts';
import { seedPrices } from './demo.ts';
import { PRICING_ERRORS } from './errors.ts';
import { PRICING_IMPORT_KINDS } from './import-kinds.ts';
import * as m0003 from './migrations/0003_pricing.ts';
import * as m0011 from './migrations/0011_pricing_positions.ts';
import * as m0047 from './migrations/0047_list_price_clustered.ts';
import {
  B2B_GetAllPriceAgreements,
  B2B_GetAllPrices,
  B2B_GetArticlePrice,
  B2B_GetCustomerLineDiscounts,
  B2B_GetPriceAgreement,
  B2B_GetPriceChanges,
  B2C_GetAllActionPrice,
  B2C_GetArticleACTIONPrice,
} from './operations.ts';
import { createPricingServices, type PricingServices } from './pricing-services.ts';
import './tables.ts';

declare module '../../kernel/services.ts' {
  interface Services {
    pricing: PricingServices;
  }
}

/** The pricing area: list prices, price agreements, line discounts, action prices and price resolution (docs/pricing.md). */
export const pricingArea: Area = {
  name: 'pricing',
  docs: 'docs/pricing.md',
  errors: PRICING_ERRORS,
  operations: [
    B2C_GetAllActionPrice,
    B2C_GetArticleACTIONPrice,
    B2B_GetCustomerLineDiscounts,
    B2B_GetAllPriceAgreements,
    B2B_GetAllPrices,
    B2B_GetArticlePrice,
    B2B_GetPriceAgreement,
    B2B_GetPriceChanges,
  ],
  adminRoutes: PRICING_ADMIN_ROUTES,
  importKinds: PRICING_IMPORT_KINDS,
  migrations: {
    '0003_pricing': m0003,
    '0011_pricing_positions': m0011,
    '0047_list_price_clustered': m0047,
  },
  services: (config, database) => ({
    pricing: createPricingServices(database, undefined, config.retailPriceGroup),
  }),
  seedDemo: (services) => seedPrices(services, {}),
};
