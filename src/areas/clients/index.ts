import type { Area } from '../../kernel/area.ts';
import { CLIENTS_ADMIN_ROUTES } from './admin.ts';
import { type ClientsServices, createClientsServices } from './client-services.ts';
import { seedClients } from './demo.ts';
import { CLIENTS_ERRORS } from './errors.ts';
import { CLIENTS_IMPORT_KINDS } from './import-kinds.ts';
import * as m0004 from './migrations/0004_clients.ts';
import * as m0017 from './migrations/0017_client_number_sequence.ts';
import {
  B2C_ClaimClientAction,
  B2C_GetClient,
  B2C_GetClient_OnAccountDetail,
  B2C_GetClient_OpenOnAccount,
  B2C_GetClient_Purchase,
  B2C_GetClientActions,
  B2C_GetClientMemberCardInfo,
  B2C_GetMemberCardPhotoBase64,
  B2C_GetProfilePhotoBase64,
  B2C_GetUserMessages,
  B2C_PostClient,
  B2C_PostProfilePhotoBase64,
  B2C_UpdateMarkedForDeletion,
} from './operations.ts';
import './tables.ts';

declare module '../../kernel/services.ts' {
  interface Services {
    clients: ClientsServices;
  }
}

/** The clients area: retail clients: profiles, photos, consent and GDPR, purchases and on-account, messages and actions (docs/clients.md). */
export const clientsArea: Area = {
  name: 'clients',
  docs: 'docs/clients.md',
  errors: CLIENTS_ERRORS,
  operations: [
    B2C_GetClient_Purchase,
    B2C_GetClient,
    B2C_PostClient,
    B2C_ClaimClientAction,
    B2C_GetClientActions,
    B2C_GetClientMemberCardInfo,
    B2C_GetClient_OnAccountDetail,
    B2C_GetClient_OpenOnAccount,
    B2C_GetMemberCardPhotoBase64,
    B2C_GetProfilePhotoBase64,
    B2C_GetUserMessages,
    B2C_PostProfilePhotoBase64,
    B2C_UpdateMarkedForDeletion,
  ],
  adminRoutes: CLIENTS_ADMIN_ROUTES,
  importKinds: CLIENTS_IMPORT_KINDS,
  migrations: { '0004_clients': m0004, '0017_client_number_sequence': m0017 },
  services: (_config, database) => ({ clients: createClientsServices(database) }),
  seedDemo: (services) => seedClients(services, {}),
};

export { FIRST_CLIENT_NO } from './client-service.ts';
