import { Type } from 'typebox';
import { adminRoute } from '../../kernel/admin-route.ts';
import { ValidationError } from '../../kernel/errors.ts';
import { fromMinor, toMinor } from '../../kernel/money.ts';
import { voucherToWire } from './operations.ts';
import { VoucherSchema } from './schemas.ts';
import type { TenderRow } from './tender-repository.ts';

const CodeParams = Type.Object({
  code: Type.String({
    minLength: 1,
    maxLength: 40,
    pattern: '^[A-Za-z0-9 -]+$',
    description: 'The code of the voucher or client cheque.',
  }),
});

const EntrySchema = Type.Object({
  KIND: Type.String({ description: 'ISSUE, REDEEM, EXPIRE, REFUND_CREDIT or ADJUST.' }),
  AMOUNT: Type.Number({ description: 'Signed: what the entry added to the balance.' }),
  REFERENCE: Type.String(),
  BALANCE: Type.Number({ description: 'The balance right after the entry.' }),
  AT: Type.String(),
});

const TenderWithEntries = Type.Object({ VOUCHER: VoucherSchema, ENTRIES: Type.Array(EntrySchema) });

const asVoucher = (row: TenderRow) => ({ VOUCHER: voucherToWire(row) });

export const TENDERS_ADMIN_ROUTES = [
  adminRoute({
    method: 'POST',
    url: '/TV2/Admin/vouchers',
    summary: 'Issue a gift voucher, a credit-note voucher or a client cheque (exactly once per WEBID)',
    description:
      'A credit-note voucher and a client cheque need CLIENT. VALIDUNTIL: the last valid day; default today plus TV2_VOUCHER_VALIDITY_DAYS.',
    body: Type.Object(
      {
        KIND: Type.Union([
          Type.Literal('GIFT_VOUCHER'),
          Type.Literal('CREDIT_NOTE_VOUCHER'),
          Type.Literal('CLIENT_CHEQUE'),
        ]),
        AMOUNT: Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000 }),
        CURRENCY: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$' })),
        CLIENT: Type.Optional(
          Type.Integer({
            minimum: 1,
            maximum: 2_147_483_647,
            description: 'Required for a CREDIT_NOTE_VOUCHER and a CLIENT_CHEQUE; the client must exist.',
          }),
        ),
        EMAIL: Type.Optional(Type.String({ maxLength: 254, format: 'email' })),
        WEBID: Type.String({
          minLength: 1,
          maxLength: 50,
          pattern: '^[\\x21-\\x7E](?:[\\x20-\\x7E]*[\\x21-\\x7E])?$',
        }),
        VALIDUNTIL: Type.Optional(
          Type.String({
            pattern: '^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])$',
            description: 'A calendar date, YYYY-MM-DD.',
          }),
        ),
      },
      {
        additionalProperties: false,
        // CLIENT is required unless the KIND is GIFT_VOUCHER (the handler checks it as well)
        if: { properties: { KIND: { not: { const: 'GIFT_VOUCHER' } } } },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, not a promise
        then: { required: ['CLIENT'] },
      },
    ),
    response: Type.Object({ CREATED: Type.Boolean(), VOUCHER: VoucherSchema }),
    async handler({ body, services }) {
      if (body.CLIENT === undefined && body.KIND !== 'GIFT_VOUCHER') {
        throw new ValidationError([{ name: '/CLIENT', message: `give the client of a ${body.KIND}` }]);
      }
      if (body.CLIENT !== undefined) await services.clients.profiles.getClient(body.CLIENT);
      const { created, tender } = await services.tenders.vouchers.issue({
        kind: body.KIND,
        amount: toMinor(body.AMOUNT, '/AMOUNT'),
        currency: body.CURRENCY ?? 'EUR',
        clientNo: body.CLIENT ?? null,
        email: body.EMAIL ?? null,
        webId: body.WEBID,
        ...(body.VALIDUNTIL !== undefined ? { validUntil: body.VALIDUNTIL } : {}),
      });
      return { CREATED: created, VOUCHER: voucherToWire(tender) };
    },
  }),
  adminRoute({
    method: 'GET',
    url: '/TV2/Admin/vouchers/:code',
    summary: 'A voucher with all its ledger entries',
    description: 'The voucher is named by its code in the path.',
    params: CodeParams,
    response: TenderWithEntries,
    async handler({ params, services }) {
      const { tender, entries } = await services.tenders.admin.detail(params.code);
      return {
        VOUCHER: voucherToWire(tender),
        ENTRIES: entries.map((e) => ({
          KIND: e.kind,
          AMOUNT: fromMinor(e.amount),
          REFERENCE: e.reference,
          BALANCE: fromMinor(e.balance_after),
          AT: e.at,
        })),
      };
    },
  }),
  adminRoute({
    method: 'PUT',
    url: '/TV2/Admin/vouchers/:code/blocked',
    summary: 'Block a voucher (it can be neither checked nor cashed) or unblock it',
    description: 'The voucher is named by its code in the path.',
    params: CodeParams,
    body: Type.Object({ BLOCKED: Type.Boolean() }, { additionalProperties: false }),
    response: Type.Object({ VOUCHER: VoucherSchema }),
    async handler({ params, body, services }) {
      return asVoucher(await services.tenders.admin.setBlocked(params.code, body.BLOCKED));
    },
  }),
  adminRoute({
    method: 'PUT',
    url: '/TV2/Admin/vouchers/:code/validuntil',
    summary: 'Extend a voucher’s validity (a later last valid day; never an earlier one)',
    description: 'The voucher is named by its code in the path; VALIDUNTIL is a calendar date, YYYY-MM-DD.',
    params: CodeParams,
    body: Type.Object(
      {
        VALIDUNTIL: Type.String({
          pattern: '^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])$',
          description: 'A calendar date, YYYY-MM-DD.',
        }),
      },
      { additionalProperties: false },
    ),
    response: Type.Object({ VOUCHER: VoucherSchema }),
    async handler({ params, body, services }) {
      return asVoucher(await services.tenders.admin.extend(params.code, body.VALIDUNTIL));
    },
  }),
  adminRoute({
    method: 'GET',
    url: '/TV2/Admin/tenderliability',
    summary: 'The outstanding liability: what all tenders still hold, per kind and currency',
    description: 'Counts and sums the tenders whose balance is above 0, per kind and currency.',
    response: Type.Object({
      LIABILITY: Type.Array(
        Type.Object({
          KIND: Type.String(),
          CURRENCY: Type.String(),
          TENDERS: Type.Integer({ description: 'Tenders with a balance.' }),
          BALANCE: Type.Number({ description: 'Their balances together.' }),
        }),
      ),
    }),
    async handler({ services }) {
      const rows = await services.tenders.vouchers.liability();
      return {
        LIABILITY: rows.map((r) => ({
          KIND: r.kind,
          CURRENCY: r.currency,
          TENDERS: r.tenders,
          BALANCE: fromMinor(r.balance),
        })),
      };
    },
  }),
  adminRoute({
    method: 'POST',
    url: '/TV2/Admin/tenders/expire',
    summary: 'Expire tenders past their last valid day: one EXPIRE entry each, taking its balance to 0',
    description:
      'Every tender whose VALIDUNTIL is before today and that still holds value gets one EXPIRE entry (reference EXPIRED:<VALIDUNTIL>) taking its balance to 0, once per tender, also when runs overlap. Answers what this run wrote off per currency; a repeat finds nothing left. The same as `tv2 tenders expire`.',
    response: Type.Object({
      DAY: Type.String({ description: 'Today: tenders whose last valid day is before it were expired.' }),
      EXPIRED: Type.Integer({ description: 'Tenders this run expired.' }),
      AMOUNTS: Type.Array(
        Type.Object({
          CURRENCY: Type.String(),
          TENDERS: Type.Integer(),
          AMOUNT: Type.Number({ description: 'The balances written off.' }),
        }),
      ),
    }),
    async handler({ services }) {
      const report = await services.tenders.expiry.expireAll();
      return {
        DAY: report.day,
        EXPIRED: report.expired,
        AMOUNTS: report.amounts.map((a) => ({
          CURRENCY: a.currency,
          TENDERS: a.tenders,
          AMOUNT: fromMinor(a.amount),
        })),
      };
    },
  }),
];
