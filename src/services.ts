import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { AuthService } from './domain/auth/auth-service.ts';
import { CatalogService } from './domain/catalog/catalog-service.ts';
import { ClientMessageService } from './domain/clients/client-message-service.ts';
import { ClientPurchaseService } from './domain/clients/client-purchase-service.ts';
import { ClientService } from './domain/clients/client-service.ts';
import { ArticleLinkService } from './domain/customers/article-link-service.ts';
import { CustomerService } from './domain/customers/customer-service.ts';
import { RepresentativeService } from './domain/customers/representative-service.ts';
import { IdempotencyService } from './domain/idempotency/idempotency-service.ts';
import { createPricingServices, type PricingServices } from './domain/pricing/pricing-services.ts';
import { createShopsServices, type ShopsServices } from './domain/shops/shop-services.ts';
import { createStockServices, type StockServices } from './domain/stock/stock-services.ts';

/** The domain services one API process uses, built once over one database. */
export interface Services {
  config: Config;
  database: Database;
  auth: AuthService;
  catalog: CatalogService;
  stock: StockServices;
  pricing: PricingServices;
  clients: ClientService;
  clientPurchases: ClientPurchaseService;
  clientMessages: ClientMessageService;
  idempotency: IdempotencyService;
  shops: ShopsServices;
  customers: CustomerService;
  representatives: RepresentativeService;
  articleLinks: ArticleLinkService;
}

export function createServices(config: Config, database: Database): Services {
  return {
    config,
    database,
    auth: new AuthService(database, {
      tokenTtlSeconds: config.tokenTtlSeconds,
      tokenCacheSeconds: config.tokenCacheSeconds,
    }),
    catalog: new CatalogService(database),
    stock: createStockServices(database),
    pricing: createPricingServices(database),
    clients: new ClientService(database),
    clientPurchases: new ClientPurchaseService(database),
    clientMessages: new ClientMessageService(database),
    idempotency: new IdempotencyService(database, { leaseSeconds: config.idempotencyLeaseSeconds }),
    shops: createShopsServices(database),
    customers: new CustomerService(database),
    representatives: new RepresentativeService(database),
    articleLinks: new ArticleLinkService(database),
  };
}
