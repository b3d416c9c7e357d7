import type { Area } from '../../kernel/area.ts';
import { planned } from '../../kernel/operation.ts';
import { TENDERS_ADMIN_ROUTES } from './admin.ts';
import { TENDERS_ERRORS } from './errors.ts';
import * as m0030 from './migrations/0030_tenders.ts';
import {
  B2C_GetALLOpenCreditNotes,
  B2C_PostCashedVoucher,
  B2C_PostNewCreditNoteVoucher,
  B2C_PostNewGiftVoucher,
  B2C_ValidateVoucher,
} from './operations.ts';
import { B2C_GetOpenClientCheque, B2C_PostCashedClientCheque } from './operations-cheques.ts';
import './tables.ts';
import { TenderAdminService } from './tender-admin-service.ts';
import { VoucherService } from './voucher-service.ts';

export interface TendersServices {
  vouchers: VoucherService;
  admin: TenderAdminService;
}

declare module '../../kernel/services.ts' {
  interface Services {
    tenders: TendersServices;
  }
}

/**
 * The tenders area: gift and credit-note vouchers, client cheques and bonus cards as ledgers
 * (docs/tenders.md). Vouchers and client cheques are built; bonus cards are still planned (501).
 */
export const tendersArea: Area = {
  name: 'tenders',
  docs: 'docs/tenders.md',
  errors: TENDERS_ERRORS,
  operations: [
    planned('GET', 'B2C_BonuscardHistory', 'Loyalty', 'Bonus card history'),
    B2C_GetALLOpenCreditNotes,
    planned('GET', 'B2C_GetBonusCardValue', 'Loyalty', 'Bonus card value'),
    B2C_GetOpenClientCheque,
    B2C_PostCashedClientCheque,
    B2C_PostCashedVoucher,
    B2C_PostNewCreditNoteVoucher,
    B2C_PostNewGiftVoucher,
    planned('POST', 'B2C_UpdateBonusCardValue', 'Loyalty', 'Update bonus card value'),
    B2C_ValidateVoucher,
  ],
  adminRoutes: TENDERS_ADMIN_ROUTES,
  migrations: { '0030_tenders': m0030 },
  services: (config, database) => ({
    tenders: { vouchers: new VoucherService(database, config), admin: new TenderAdminService(database) },
  }),
};
