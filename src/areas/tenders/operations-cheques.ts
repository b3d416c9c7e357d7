import { Type } from 'typebox';
import { clientScope, confinedClient } from '../../kernel/access.ts';
import { toMinor } from '../../kernel/money.ts';
import { operation } from '../../kernel/operation.ts';
import { digits, queryObject } from '../../kernel/params.ts';
import { rooted } from '../../kernel/schemas.ts';
import { cashingToWire, voucherToWire } from './operations.ts';
import { CashedClientChequeDataSchema, CashingSchema, VoucherSchema } from './schemas.ts';

/**
 * Client cheques: a value the back office gives one client (POST /TV2/Admin/vouchers with KIND
 * CLIENT_CHEQUE), spent like a voucher but only for that client.
 */
export const B2C_GetOpenClientCheque = operation({
  name: 'B2C_GetOpenClientCheque',
  method: 'GET',
  audience: 'B2C',
  area: 'Vouchers',
  summary: 'Open client cheque',
  description:
    'The client’s cheques that can still pay (a balance, not blocked, valid today), oldest first, with their ' +
    'codes and VALIDUNTIL. A token confined to one client may leave strclient out (or pass 0): it always ' +
    'sees its own; another client is 403 OUTSIDE_SCOPE.',
  query: queryObject({
    strclient: Type.Optional(digits('Client number; optional for a token confined to one client.')),
  }),
  response: rooted(
    'B2CGETOPENCLIENTCHEQUE',
    Type.Object({ CLIENT: Type.Integer({ minimum: 1 }), CHEQUES: Type.Array(VoucherSchema) }),
  ),
  async handler({ query, principal, services }) {
    const clientNo = clientScope(
      principal,
      query.strclient === undefined ? undefined : Number(query.strclient),
    );
    const cheques = await services.tenders.vouchers.openOfClient(clientNo, 'CLIENT_CHEQUE');
    return { B2CGETOPENCLIENTCHEQUE: { CLIENT: clientNo, CHEQUES: cheques.map(voucherToWire) } };
  },
});

export const B2C_PostCashedClientCheque = operation({
  name: 'B2C_PostCashedClientCheque',
  method: 'POST',
  audience: 'B2C',
  area: 'Vouchers',
  summary: 'Post a cashed client cheque',
  description:
    'Takes AMOUNT off the client’s cheque as payment for REFERENCE, as B2C_PostCashedVoucher does a voucher: ' +
    'one conditional statement, exactly once per (cheque, REFERENCE), the same refusals. The cheque must be ' +
    'CLIENT’s (a token confined to one client: its own); any other is the generic 409 VOUCHER_NOT_USABLE.',
  body: CashedClientChequeDataSchema,
  response: rooted('B2CPOSTCASHEDCLIENTCHEQUE', CashingSchema),
  async handler({ body, principal, services }) {
    const data = body.CASHEDCLIENTCHEQUEDATA;
    const clientNo = clientScope(principal, data.CLIENT, '/CASHEDCLIENTCHEQUEDATA/CLIENT');
    const cashed = await services.tenders.vouchers.cash(
      {
        code: data.CODE,
        amount: toMinor(data.AMOUNT, '/CASHEDCLIENTCHEQUEDATA/AMOUNT'),
        currency: data.CURRENCY ?? 'EUR',
        reference: data.REFERENCE,
      },
      // The debit's WHERE holds the cheque to this client whoever calls.
      { key: `user:${principal?.userId ?? 0}`, ownClient: confinedClient(principal) ?? clientNo },
      ['CLIENT_CHEQUE'],
    );
    return { B2CPOSTCASHEDCLIENTCHEQUE: cashingToWire(cashed) };
  },
});
