import { Type } from 'typebox';
import type { Principal } from '../../kernel/access/principal.ts';
import { clientScope, confinedClient } from '../../kernel/access.ts';
import { ValidationError } from '../../kernel/errors.ts';
import { fromMinor, toMinor } from '../../kernel/money.ts';
import { operation } from '../../kernel/operation.ts';
import { digits, queryObject, text } from '../../kernel/params.ts';
import { rooted } from '../../kernel/schemas.ts';
import { TENDERS_ERRORS } from './errors.ts';
import {
  CashedVoucherDataSchema,
  CashingSchema,
  CreditVoucherDataSchema,
  GiftVoucherDataSchema,
  ValidVoucherSchema,
  VoucherSchema,
} from './schemas.ts';
import type { TenderRow } from './tender-repository.ts';
import type { Caller, Cashed } from './voucher-service.ts';

const DEFAULT_CURRENCY = 'EUR';

/** The throttle's key is the API user; a confined token also limits what it may touch. */
function callerOf(principal: Principal | null): Caller {
  return { key: `user:${principal?.userId ?? 0}`, ownClient: confinedClient(principal) };
}

/** Issuing creates value: only the shop and the back office, never a token confined to a client. */
function assertMayIssue(principal: Principal | null): void {
  const own = confinedClient(principal);
  if (own !== null) {
    throw TENDERS_ERRORS.TENDER_ISSUE_NOT_PERMITTED(
      `A token confined to client ${own} cannot issue vouchers.`,
    );
  }
}

/** A voucher or cheque as the wire shows it. */
export function voucherToWire(row: TenderRow) {
  return {
    CODE: row.code,
    KIND: row.kind,
    CLIENT: row.client_no,
    CURRENCY: row.currency,
    AMOUNT: fromMinor(row.issued_amount),
    BALANCE: fromMinor(row.balance),
    VALIDUNTIL: row.valid_until,
    BLOCKED: row.blocked === 1,
    WEBID: row.web_id,
    ISSUED: row.created_at,
    SCN: row.scn,
  };
}

export function cashingToWire(c: Cashed) {
  return {
    CODE: c.tender.code,
    KIND: c.tender.kind as 'GIFT_VOUCHER' | 'CREDIT_NOTE_VOUCHER' | 'CLIENT_CHEQUE',
    REFERENCE: c.entry.reference,
    AMOUNT: fromMinor(-c.entry.amount),
    BALANCE: fromMinor(c.entry.balance_after),
    CURRENCY: c.tender.currency,
    VALIDUNTIL: c.tender.valid_until,
    CASHED: c.entry.at,
    CREATED: c.created,
  };
}

const ISSUE_NOTE =
  'Exactly once per WEBID: a repeat answers the voucher the first request issued (CREATED false, as it is ' +
  'now); the same WEBID with another AMOUNT, CURRENCY or CLIENT is 409 TENDER_KEY_REUSED. The code is 16 ' +
  'random characters and a check character; VALIDUNTIL is always stated (by default today plus ' +
  'TV2_VOUCHER_VALIDITY_DAYS, at least two years). A token confined to a client cannot issue (403).';

export const B2C_PostNewGiftVoucher = operation({
  name: 'B2C_PostNewGiftVoucher',
  method: 'POST',
  audience: 'B2C',
  area: 'Vouchers',
  summary: 'Post a new gift voucher',
  description: `Issues a gift voucher worth AMOUNT, for CLIENT or for whoever holds the code. ${ISSUE_NOTE}`,
  body: GiftVoucherDataSchema,
  response: rooted('B2CPOSTNEWGIFTVOUCHER', Type.Object({ CREATED: Type.Boolean(), VOUCHER: VoucherSchema })),
  async handler({ body, principal, services }) {
    assertMayIssue(principal);
    const data = body.GIFTVOUCHERDATA;
    const clientNo = data.CLIENT ? data.CLIENT : null;
    if (clientNo !== null) await services.clients.profiles.getClient(clientNo);
    const { created, tender } = await services.tenders.vouchers.issue({
      kind: 'GIFT_VOUCHER',
      amount: toMinor(data.AMOUNT, '/GIFTVOUCHERDATA/AMOUNT'),
      currency: data.CURRENCY ?? DEFAULT_CURRENCY,
      clientNo,
      email: data.EMAIL ?? null,
      webId: data.WEBID,
    });
    return { B2CPOSTNEWGIFTVOUCHER: { CREATED: created, VOUCHER: voucherToWire(tender) } };
  },
});

export const B2C_PostNewCreditNoteVoucher = operation({
  name: 'B2C_PostNewCreditNoteVoucher',
  method: 'POST',
  audience: 'B2C',
  area: 'Vouchers',
  summary: 'Post a new credit note voucher',
  description: `Issues a credit-note voucher worth AMOUNT to CLIENT (e.g. for goods returned). ${ISSUE_NOTE}`,
  body: CreditVoucherDataSchema,
  response: rooted(
    'B2CPOSTNEWCREDITNOTEVOUCHER',
    Type.Object({ CREATED: Type.Boolean(), VOUCHER: VoucherSchema }),
  ),
  async handler({ body, principal, services }) {
    assertMayIssue(principal);
    const data = body.CREDITVOUCHERDATA;
    if (!data.CLIENT) {
      throw new ValidationError([{ name: '/CREDITVOUCHERDATA/CLIENT', message: 'give the client number' }]);
    }
    await services.clients.profiles.getClient(data.CLIENT);
    const { created, tender } = await services.tenders.vouchers.issue({
      kind: 'CREDIT_NOTE_VOUCHER',
      amount: toMinor(data.AMOUNT, '/CREDITVOUCHERDATA/AMOUNT'),
      currency: data.CURRENCY ?? DEFAULT_CURRENCY,
      clientNo: data.CLIENT,
      email: data.EMAIL ?? null,
      webId: data.WEBID,
    });
    return { B2CPOSTNEWCREDITNOTEVOUCHER: { CREATED: created, VOUCHER: voucherToWire(tender) } };
  },
});

export const B2C_ValidateVoucher = operation({
  name: 'B2C_ValidateVoucher',
  method: 'GET',
  audience: 'B2C',
  area: 'Vouchers',
  summary: 'Validate a voucher',
  description:
    'Whether a voucher code can pay now, and how much it holds; nothing is consumed. Every reason it cannot ' +
    '(unknown, mistyped, expired, blocked, spent, another currency than strcurrency, another client’s for a ' +
    'confined token) gets the same 409 VOUCHER_NOT_USABLE, and each counts against the API user: after ' +
    'TV2_VOUCHER_CHECK_MAX_FAILURES refusals within TV2_VOUCHER_CHECK_WINDOW_SECONDS the answer is 429 ' +
    'VOUCHER_CHECKS_THROTTLED with Retry-After (also for B2C_PostCashedVoucher).',
  query: queryObject({
    strcode: text('The voucher code as printed.', 40),
    strcurrency: Type.Optional(
      Type.String({ pattern: '^[A-Z]{3}$', description: 'The currency it must pay in; any when absent.' }),
    ),
  }),
  response: rooted('B2CVALIDATEVOUCHER', ValidVoucherSchema),
  async handler({ query, principal, services }) {
    const tender = await services.tenders.vouchers.validate(
      query.strcode,
      query.strcurrency,
      callerOf(principal),
    );
    return {
      B2CVALIDATEVOUCHER: {
        CODE: tender.code,
        KIND: tender.kind as 'GIFT_VOUCHER' | 'CREDIT_NOTE_VOUCHER',
        BALANCE: fromMinor(tender.balance),
        CURRENCY: tender.currency,
        VALIDUNTIL: tender.valid_until,
      },
    };
  },
});

export const B2C_PostCashedVoucher = operation({
  name: 'B2C_PostCashedVoucher',
  method: 'POST',
  audience: 'B2C',
  area: 'Vouchers',
  summary: 'Post a cashed voucher',
  description:
    'Takes AMOUNT off a gift or credit-note voucher as payment for REFERENCE, in one conditional statement: ' +
    'concurrent cashings never take more than the balance. Exactly once per (voucher, REFERENCE): a repeat ' +
    'answers the first cashing (CREATED false); the same REFERENCE with another AMOUNT is 409 ' +
    'TENDER_KEY_REUSED. A usable voucher whose balance is short is 409 VOUCHER_BALANCE_INSUFFICIENT; any ' +
    'other refusal is the generic 409 VOUCHER_NOT_USABLE (counted as in B2C_ValidateVoucher). A token ' +
    'confined to a client cashes only gift vouchers of no client and its own vouchers.',
  body: CashedVoucherDataSchema,
  response: rooted('B2CPOSTCASHEDVOUCHER', CashingSchema),
  async handler({ body, principal, services }) {
    const data = body.CASHEDVOUCHERDATA;
    const cashed = await services.tenders.vouchers.cash(
      {
        code: data.CODE,
        amount: toMinor(data.AMOUNT, '/CASHEDVOUCHERDATA/AMOUNT'),
        currency: data.CURRENCY ?? DEFAULT_CURRENCY,
        reference: data.REFERENCE,
      },
      callerOf(principal),
    );
    return { B2CPOSTCASHEDVOUCHER: cashingToWire(cashed) };
  },
});

export const B2C_GetALLOpenCreditNotes = operation({
  name: 'B2C_GetALLOpenCreditNotes',
  method: 'GET',
  audience: 'B2C',
  area: 'Vouchers',
  summary: 'All open credit notes',
  description:
    'The client’s credit-note vouchers that can still pay (a balance, not blocked, valid today), oldest ' +
    'first, with their codes and VALIDUNTIL. A token confined to one client may leave strclient out (or ' +
    'pass 0): it always sees its own; another client is 403 OUTSIDE_SCOPE.',
  query: queryObject({
    strclient: Type.Optional(digits('Client number; optional for a token confined to one client.')),
  }),
  response: rooted(
    'B2CGETALLOPENCREDITNOTES',
    Type.Object({ CLIENT: Type.Integer({ minimum: 1 }), CREDITNOTES: Type.Array(VoucherSchema) }),
  ),
  async handler({ query, principal, services }) {
    const clientNo = clientScope(
      principal,
      query.strclient === undefined ? undefined : Number(query.strclient),
    );
    const notes = await services.tenders.vouchers.openOfClient(clientNo, 'CREDIT_NOTE_VOUCHER');
    return { B2CGETALLOPENCREDITNOTES: { CLIENT: clientNo, CREDITNOTES: notes.map(voucherToWire) } };
  },
});
