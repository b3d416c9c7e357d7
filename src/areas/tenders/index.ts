import type { Area } from '../../kernel/area.ts';
import { TENDERS_ADMIN_ROUTES } from './admin.ts';
import { BonusCardService } from './bonus-card-service.ts';
import { seedTenders } from './demo.ts';
import { TENDERS_ERRORS } from './errors.ts';
import { ExpiryService } from './expiry-service.ts';
import { TENDERS_IMPORT_KINDS } from './import-kinds.ts';
import * as m0030 from './migrations/0030_tenders.ts';
import * as m0035 from './migrations/0035_tender_entry_day.ts';
import {
  B2C_GetALLOpenCreditNotes,
  B2C_PostCashedVoucher,
  B2C_PostNewCreditNoteVoucher,
  B2C_PostNewGiftVoucher,
  B2C_ValidateVoucher,
} from './operations.ts';
import { B2C_BonuscardHistory, B2C_GetBonusCardValue, B2C_UpdateBonusCardValue } from './operations-bonus.ts';
import { B2C_GetOpenClientCheque, B2C_PostCashedClientCheque } from './operations-cheques.ts';
import './tables.ts';
import { OrderPaymentService } from './order-payment-service.ts';
import { TenderAdminService } from './tender-admin-service.ts';
import { VoucherService } from './voucher-service.ts';

export interface TendersServices {
  vouchers: VoucherService;
  admin: TenderAdminService;
  bonus: BonusCardService;
  expiry: ExpiryService;
  /** Tenders paying web orders, inside the orders area's transactions. */
  payments: OrderPaymentService;
}

declare module '../../kernel/services.ts' {
  interface Services {
    tenders: TendersServices;
  }
}

/**
 * The tenders area: gift and credit-note vouchers, client cheques and bonus cards as ledgers
 * (docs/tenders.md): all ten operations are built.
 */
export const tendersArea: Area = {
  name: 'tenders',
  docs: 'docs/tenders.md',
  errors: TENDERS_ERRORS,
  operations: [
    B2C_BonuscardHistory,
    B2C_GetALLOpenCreditNotes,
    B2C_GetBonusCardValue,
    B2C_GetOpenClientCheque,
    B2C_PostCashedClientCheque,
    B2C_PostCashedVoucher,
    B2C_PostNewCreditNoteVoucher,
    B2C_PostNewGiftVoucher,
    B2C_UpdateBonusCardValue,
    B2C_ValidateVoucher,
  ],
  adminRoutes: TENDERS_ADMIN_ROUTES,
  importKinds: TENDERS_IMPORT_KINDS,
  migrations: { '0030_tenders': m0030, '0035_tender_entry_day': m0035 },
  services: (config, database) => {
    const vouchers = new VoucherService(database, config);
    return {
      tenders: {
        vouchers,
        admin: new TenderAdminService(database),
        bonus: new BonusCardService(database),
        expiry: new ExpiryService(database),
        payments: new OrderPaymentService(database, vouchers),
      },
    };
  },
  seedDemo: (services) => seedTenders(services),
};
