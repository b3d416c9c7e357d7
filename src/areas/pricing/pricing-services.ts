import type { Database } from '../../kernel/db/database.ts';
import { ActionPriceService } from './action-price-service.ts';
import { AgreementService } from './agreement-service.ts';
import { ArticlePriceService } from './article-price-service.ts';
import { ListPriceService } from './list-price-service.ts';
import { PriceCustomerService } from './price-customer-service.ts';
import { RetailPriceService } from './retail-price-service.ts';

/** The pricing area's services, one per sub-resource (docs/pricing.md). */
export interface PricingServices {
  /** List prices and the two price feeds. */
  listPrices: ListPriceService;
  /** Price agreements and customer line discounts. */
  agreements: AgreementService;
  actionPrices: ActionPriceService;
  /** The customers' pricing terms. */
  customers: PriceCustomerService;
  /** What a customer pays for an article (resolution). */
  articlePrices: ArticlePriceService;
  /** What a retail client pays for an article (list or action price). */
  retailPrices: RetailPriceService;
}

export function createPricingServices(
  database: Database,
  now: () => Date = () => new Date(),
  retailPriceGroup = 1,
): PricingServices {
  return {
    listPrices: new ListPriceService(database),
    agreements: new AgreementService(database, now),
    actionPrices: new ActionPriceService(database, now),
    customers: new PriceCustomerService(database, now),
    articlePrices: new ArticlePriceService(database, now),
    retailPrices: new RetailPriceService(database, retailPriceGroup, now),
  };
}
