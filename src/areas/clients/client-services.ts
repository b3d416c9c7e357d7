import type { Database } from '../../kernel/db/database.ts';
import { ClientMessageService } from './client-message-service.ts';
import { ClientPurchaseService } from './client-purchase-service.ts';
import { ClientService } from './client-service.ts';

/** The clients area's services, one per sub-resource (docs/clients.md). */
export interface ClientsServices {
  /** Client profiles, photos, consent and GDPR erasure. */
  profiles: ClientService;
  /** Purchases and the on-account ledger. */
  purchases: ClientPurchaseService;
  /** Messages and client actions. */
  messages: ClientMessageService;
}

export function createClientsServices(database: Database): ClientsServices {
  return {
    profiles: new ClientService(database),
    purchases: new ClientPurchaseService(database),
    messages: new ClientMessageService(database),
  };
}
