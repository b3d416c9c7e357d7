import type { Config } from '../../config.ts';
import type { Database } from '../../kernel/db/database.ts';
import type { Services } from '../../kernel/services.ts';
import { DocumentService } from './document-service.ts';
import { IssueService } from './issue-service.ts';

/** The billing area's services (docs/billing-issuing.md). */
export interface BillingServices {
  /** Issuing invoices from deliveries, and credit notes. */
  issuing: IssueService;
  /** Issued documents: the snapshot, the content check, the PDF and the UBL. */
  documents: DocumentService;
}

export function createBillingServices(
  config: Config,
  database: Database,
  all: Services,
  now: () => Date = () => new Date(),
): BillingServices {
  return {
    issuing: new IssueService(database, config, all, now),
    documents: new DocumentService(database),
  };
}
