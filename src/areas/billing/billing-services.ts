import type { Config } from '../../config.ts';
import type { Database } from '../../kernel/db/database.ts';
import type { Services } from '../../kernel/services.ts';
import { AccountService } from './account-service.ts';
import type { CreditRunService } from './credit-run-service.ts';
import { DocumentService } from './document-service.ts';
import { IssueService } from './issue-service.ts';
import { PaymentService } from './payment-service.ts';

/** The billing area's services (docs/billing-issuing.md). */
export interface BillingServices {
  /** Issuing invoices from deliveries, and credit notes. */
  issuing: IssueService;
  /** The credit run: credit notes owed for returns and cancelled deliveries after invoicing. */
  credits: CreditRunService;
  /** Issued documents: the snapshot, the content check, the PDF and the UBL. */
  documents: DocumentService;
  /** Payments: registered once per external reference, allocated to the documents they name. */
  payments: PaymentService;
  /** A customer's account over TV2: the history feed, the open items, a document's PDF. */
  accounts: AccountService;
}

export function createBillingServices(
  config: Config,
  database: Database,
  all: Services,
  now: () => Date = () => new Date(),
): BillingServices {
  const documents = new DocumentService(database);
  const issuing = new IssueService(database, config, all, now);
  return {
    issuing,
    credits: issuing.credits,
    documents,
    payments: new PaymentService(database, now),
    accounts: new AccountService(database, documents, now),
  };
}
