import type { Area } from '../../kernel/area.ts';
import { planned } from '../../kernel/operation.ts';

/**
 * The tenders area: gift and credit-note vouchers, client cheques and bonus cards. Not built yet:
 * its operations are listed so they answer 501 NOT_IMPLEMENTED (issue 13 builds them here).
 */
export const tendersArea: Area = {
  name: 'tenders',
  operations: [
    planned('GET', 'B2C_BonuscardHistory', 'Loyalty', 'Bonus card history'),
    planned('GET', 'B2C_GetALLOpenCreditNotes', 'Vouchers', 'All open credit notes'),
    planned('GET', 'B2C_GetBonusCardValue', 'Loyalty', 'Bonus card value'),
    planned('GET', 'B2C_GetOpenClientCheque', 'Vouchers', 'Open client cheque'),
    planned('POST', 'B2C_PostCashedClientCheque', 'Vouchers', 'Post a cashed client cheque'),
    planned('POST', 'B2C_PostCashedVoucher', 'Vouchers', 'Post a cashed voucher'),
    planned('POST', 'B2C_PostNewCreditNoteVoucher', 'Vouchers', 'Post a new credit note voucher'),
    planned('POST', 'B2C_PostNewGiftVoucher', 'Vouchers', 'Post a new gift voucher'),
    planned('POST', 'B2C_UpdateBonusCardValue', 'Loyalty', 'Update bonus card value'),
    planned('GET', 'B2C_ValidateVoucher', 'Vouchers', 'Validate a voucher'),
  ],
};
