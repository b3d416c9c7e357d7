import type { Services } from '../../kernel/services.ts';
import { FIRST_CLIENT_NO } from '../clients/index.ts';

/** The demo bonus card, of the first demo client. */
export const DEMO_BONUS_CARD = 40_000_001;

/**
 * The tenders of the demo world (after the clients' and the orders'): a gift voucher of no client, a
 * credit-note voucher and a client cheque of the first demo client, its bonus card with two changes,
 * and a delivered web order paid in part with a second gift voucher.
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
  const paid = await voucherPaidOrder(services);
  return { tenders: paid ? 5 : 4 };
}

/**
 * A delivered web order of the first demo client paid in part with a gift voucher of 5.00 (issued
 * for it), so the demo shows an order's TENDERS and TOPAY (docs/orders.md, "Paying with tenders").
 * It orders what the orders area's demo order WEB-DEMO-NEW orders; none there: nothing.
 */
async function voucherPaidOrder(services: Services): Promise<boolean> {
  const { orders, tenders } = services;
  const page = { offset: 1, limit: 1 };
  const model = await orders.reads
    .clientOrders(FIRST_CLIENT_NO, { weborder: 'WEB-DEMO-NEW', page })
    .catch(() => undefined);
  const first = model?.items[0] as { LINES: { BARCODE: string }[] } | undefined;
  const barcode = first?.LINES[0]?.BARCODE;
  if (!barcode) return false;
  const voucher = await tenders.vouchers.issue({
    kind: 'GIFT_VOUCHER',
    amount: 500,
    currency: 'EUR',
    clientNo: null,
    email: null,
    webId: 'DEMO-GIFT-2',
  });
  const root = '/WEBORDERDATA';
  const placed = await orders.placement.placeOrder(
    {
      channel: 'B2C',
      partyNo: FIRST_CLIENT_NO,
      weborder: 'WEB-DEMO-VOUCHER',
      headerText: '',
      bottomText: '',
      paymentReference: 'PAY-WEB-DEMO-VOUCHER',
      lines: [{ barcode, quantity: 1, shown: {}, customerSequence: '', pointer: `${root}/ORDERLINES/0` }],
      tenders: [{ type: 'VOUCHER', code: voucher.tender.code, amount: 500, pointer: `${root}/TENDERS/0` }],
      root,
    },
    'CLIENT',
  );
  if (placed.CREATED) {
    await orders.moves.move(placed.ORDERNO, { name: 'confirm' }, 'BACK_OFFICE');
    await orders.moves.deliveries.deliver(placed.ORDERNO, { reference: 'DN-DEMO-VOUCHER' });
  }
  return true;
}
