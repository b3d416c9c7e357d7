import type { Services } from '../../kernel/services.ts';
import { FIRST_CLIENT_NO } from '../clients/index.ts';

/** The demo bonus card, of the first demo client. */
export const DEMO_BONUS_CARD = 40_000_001;

/**
 * The tenders of the demo world (after the clients'): a gift voucher of no client, a credit-note
 * voucher and a client cheque of the first demo client, and its bonus card with two changes.
 */
export async function seedTenders(services: Services): Promise<{ tenders: number }> {
  const { vouchers, bonus } = services.tenders;
  const base = { currency: 'EUR', email: null };
  await vouchers.issue({
    ...base,
    kind: 'GIFT_VOUCHER',
    amount: 2_500,
    clientNo: null,
    webId: 'DEMO-GIFT-1',
  });
  await vouchers.issue({
    ...base,
    kind: 'CREDIT_NOTE_VOUCHER',
    amount: 1_995,
    clientNo: FIRST_CLIENT_NO,
    webId: 'DEMO-CN-1',
  });
  await vouchers.issue({
    ...base,
    kind: 'CLIENT_CHEQUE',
    amount: 500,
    clientNo: FIRST_CLIENT_NO,
    webId: 'DEMO-CHQ-1',
  });
  const card = { cardNo: DEMO_BONUS_CARD, clientNo: FIRST_CLIENT_NO };
  await bonus.update({ ...card, delta: 1_250, day: '2026-11-01', reference: 'DEMO-WEB-1' });
  await bonus.update({ ...card, delta: -500, day: '2026-11-15', reference: 'DEMO-WEB-2' });
  return { tenders: 4 };
}
