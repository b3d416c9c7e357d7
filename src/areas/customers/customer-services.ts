import type { Database } from '../../kernel/db/database.ts';
import { ArticleLinkService } from './article-link-service.ts';
import { CustomerService } from './customer-service.ts';
import { RepresentativeService } from './representative-service.ts';

/** The customers area's services, one per sub-resource (docs/customers.md). */
export interface CustomersServices {
  /** Wholesale customers, their addresses, and their deletion. */
  customers: CustomerService;
  /** Representatives and the customers they serve. */
  representatives: RepresentativeService;
  /** Customer article links (the customer's own article numbers). */
  articleLinks: ArticleLinkService;
}

export function createCustomersServices(database: Database): CustomersServices {
  return {
    customers: new CustomerService(database),
    representatives: new RepresentativeService(database),
    articleLinks: new ArticleLinkService(database),
  };
}
