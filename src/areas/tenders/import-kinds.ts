import { type Static, Type } from 'typebox';
import { ValidationError, withRoot } from '../../kernel/errors.ts';
import {
  checkRecord,
  fromCsv,
  type ImportKind,
  inOneTransaction,
  type SaveResult,
} from '../../kernel/import/import-kind.ts';
import { toMinor } from '../../kernel/money.ts';
import type { Services } from '../../kernel/services.ts';
import { isDay } from './tender-admin-service.ts';
import { isImportedCodeForm, isWellFormedCode, normaliseCode } from './tender-code.ts';
import { type ImportedTender, TenderImportService } from './tender-import-service.ts';

const Amount = Type.Union([Type.Number(), Type.String({ minLength: 1, maxLength: 20 })]);
const Client = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
const Currency = Type.String({ pattern: '^[A-Z]{3}$' });

const VoucherRecord = Type.Object(
  {
    KIND: Type.Union([
      Type.Literal('GIFT_VOUCHER'),
      Type.Literal('CREDIT_NOTE_VOUCHER'),
      Type.Literal('CLIENT_CHEQUE'),
    ]),
    CODE: Type.String({ minLength: 1, maxLength: 60 }),
    CLIENT: Type.Optional(Client),
    CURRENCY: Type.Optional(Currency),
    BALANCE: Amount,
    VALIDUNTIL: Type.String({ minLength: 1, maxLength: 10 }),
  },
  { additionalProperties: false },
);
type VoucherRecord = Static<typeof VoucherRecord>;

const BonusBalanceRecord = Type.Object(
  {
    CARDNO: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
    CLIENT: Type.Optional(Client),
    CURRENCY: Type.Optional(Currency),
    BALANCE: Amount,
  },
  { additionalProperties: false },
);
type BonusBalanceRecord = Static<typeof BonusBalanceRecord>;

const cell = (v: string | undefined) => (v === undefined || v.trim() === '' ? undefined : v.trim());
const whole = (v: string | undefined) => (cell(v) === undefined ? undefined : Number(cell(v)));

/** A CSV row in the JSON form: empty cells are left out, numbers read as numbers. */
function fromCsvRow(row: Record<string, string>, numbers: string[]): unknown {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(row)) {
    if (cell(value) === undefined) continue;
    out[name] = numbers.includes(name) ? whole(value) : cell(value);
  }
  return out;
}

/** A balance brought over: more than 0 (an empty tender is left out of the file), two decimals. */
function balanceOf(value: string | number): number {
  const minor = toMinor(value, '/BALANCE');
  if (minor <= 0 || minor > 100_000_000) {
    throw new ValidationError([{ name: '/BALANCE', message: 'must be more than 0 and at most 1000000' }]);
  }
  return minor;
}

function voucherOf(r: VoucherRecord): ImportedTender {
  const code = normaliseCode(r.CODE);
  if (!isWellFormedCode(code) && !isImportedCodeForm(code)) {
    throw new ValidationError([
      {
        name: '/CODE',
        message:
          'must be 6 to 40 letters and digits (spaces and dashes ignored); 17 characters only with a tv2 check character',
      },
    ]);
  }
  if (!isDay(r.VALIDUNTIL))
    throw new ValidationError([{ name: '/VALIDUNTIL', message: 'must be a date YYYY-MM-DD' }]);
  if (r.CLIENT === undefined && r.KIND !== 'GIFT_VOUCHER') {
    throw new ValidationError([{ name: '/CLIENT', message: `give the client of a ${r.KIND}` }]);
  }
  return {
    kind: r.KIND,
    code,
    clientNo: r.CLIENT ?? null,
    currency: r.CURRENCY ?? 'EUR',
    amount: balanceOf(r.BALANCE),
    validUntil: r.VALIDUNTIL,
  };
}

function bonusBalanceOf(r: BonusBalanceRecord): ImportedTender {
  return {
    kind: 'BONUS_CARD',
    code: String(r.CARDNO),
    clientNo: r.CLIENT ?? null,
    currency: r.CURRENCY ?? 'EUR',
    amount: balanceOf(r.BALANCE),
    validUntil: '',
  };
}

/**
 * Saves a batch in one transaction: the clients named must exist (checked first, outside it), then
 * each record is imported once (a record imported before with the same content counts unchanged).
 */
function saveBatch(codeField: string) {
  return (services: Services, inputs: ImportedTender[]): Promise<SaveResult> =>
    withRoot(
      '',
      async () => {
        for (const [index, input] of inputs.entries()) {
          if (input.clientNo === null) continue;
          const clientNo = input.clientNo;
          await withRoot(`/${index}`, () => services.clients.profiles.getClient(clientNo));
        }
        return inOneTransaction(services, async (database): Promise<SaveResult> => {
          const service = new TenderImportService(database);
          let written = 0;
          for (const [index, input] of inputs.entries()) {
            const { created } = await withRoot(`/${index}`, () => service.importTender(input, codeField));
            if (created) written += 1;
          }
          return { written, unchanged: inputs.length - written };
        });
      },
      { single: inputs.length === 1 },
    );
}

/** `tv2 import vouchers`: gift vouchers, credit-note vouchers and client cheques from another system. */
const vouchers: ImportKind<ImportedTender> = {
  name: 'vouchers',
  description:
    'vouchers from another system: KIND (GIFT_VOUCHER, CREDIT_NOTE_VOUCHER, CLIENT_CHEQUE), CODE (kept as printed: 6 to 40 letters and digits), CLIENT (empty: a bearer gift voucher), CURRENCY (default EUR), BALANCE (> 0), VALIDUNTIL (YYYY-MM-DD); once per CODE',
  parse: (record, format) =>
    voucherOf(
      checkRecord<VoucherRecord>(
        VoucherRecord,
        fromCsv(record, format, (row) => fromCsvRow(row, ['CLIENT'])),
      ),
    ),
  save: saveBatch('/CODE'),
};

/** `tv2 import bonusbalances`: bonus card values from another system. */
const bonusbalances: ImportKind<ImportedTender> = {
  name: 'bonusbalances',
  description:
    'bonus card values from another system: CARDNO, CLIENT (optional), CURRENCY (default EUR), BALANCE (> 0); once per CARDNO',
  parse: (record, format) =>
    bonusBalanceOf(
      checkRecord<BonusBalanceRecord>(
        BonusBalanceRecord,
        fromCsv(record, format, (row) => fromCsvRow(row, ['CARDNO', 'CLIENT'])),
      ),
    ),
  save: saveBatch('/CARDNO'),
};

/** The tenders area's `tv2 import` kinds. */
// biome-ignore lint/suspicious/noExplicitAny: kinds differ in their input type; each is typed where declared
export const TENDERS_IMPORT_KINDS: ImportKind<any>[] = [vouchers, bonusbalances];
