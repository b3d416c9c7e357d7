import type { Config } from '../../config.ts';
import type { Database } from '../../kernel/db/database.ts';
import { inWriteTransaction, type UnitOfWork } from '../../kernel/db/unit-of-work.ts';
import { TENDERS_ERRORS } from './errors.ts';
import type { TenderKind } from './tables.ts';
import { isLookupCode, newVoucherCode, normaliseCode } from './tender-code.ts';
import { type EntryRow, type LiabilityRow, TenderRepository, type TenderRow } from './tender-repository.ts';

/** The kinds a voucher code may name (B2C_ValidateVoucher, B2C_PostCashedVoucher). */
export const VOUCHER_KINDS: readonly TenderKind[] = ['GIFT_VOUCHER', 'CREDIT_NOTE_VOUCHER'];

/** Who asks: the API user (the throttle's key) and the client its token is confined to, if any. */
export interface Caller {
  /** The throttle counts refused codes per this key (the API user). */
  key: string;
  ownClient: number | null;
}

export interface IssueInput {
  kind: 'GIFT_VOUCHER' | 'CREDIT_NOTE_VOUCHER' | 'CLIENT_CHEQUE';
  amount: number;
  currency: string;
  clientNo: number | null;
  email: string | null;
  webId: string;
  /** The last valid day; default today plus the configured validity. */
  validUntil?: string;
}

export interface CashInput {
  code: string;
  amount: number;
  currency: string;
  reference: string;
}

/** A cashing as it was posted (a replay answers the first one's). */
export interface Cashed {
  created: boolean;
  tender: Pick<TenderRow, 'code' | 'kind' | 'currency' | 'valid_until'>;
  entry: Pick<EntryRow, 'amount' | 'balance_after' | 'reference' | 'at'>;
}

/** Thrown inside a cashing's transaction when its entry exists already: rolls the debit back. */
class AlreadyPosted extends Error {}

/** Instants are stored as the wire writes them: ISO 8601 UTC to the second. */
export function instant(now: Date): string {
  return `${now.toISOString().slice(0, 19)}Z`;
}

export function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * Gift and credit-note vouchers (docs/tenders.md): issued exactly once per WEBID, checked without
 * being consumed, cashed exactly once per (voucher, reference) by one conditional statement.
 */
export class VoucherService {
  readonly #database: Database;
  readonly #config: Pick<
    Config,
    'voucherValidityDays' | 'voucherCheckMaxFailures' | 'voucherCheckWindowSeconds'
  >;
  readonly #now: () => Date;

  constructor(
    database: Database,
    config: Pick<Config, 'voucherValidityDays' | 'voucherCheckMaxFailures' | 'voucherCheckWindowSeconds'>,
    now: () => Date = () => new Date(),
  ) {
    this.#database = database;
    this.#config = config;
    this.#now = now;
  }

  /**
   * Issues a voucher, once per (kind, WEBID): a repeat with the same amount, currency and client
   * answers the voucher the first one issued (`created` false); with another one it is 409
   * TENDER_KEY_REUSED. The tender and its ISSUE entry are written together.
   */
  async issue(input: IssueInput): Promise<{ created: boolean; tender: TenderRow }> {
    return inWriteTransaction(this.#database, (uow) => this.issueIn(uow, input));
  }

  /** `issue` inside an open write transaction (a return's credit-note voucher, with the return's receipt). */
  async issueIn(uow: UnitOfWork, input: IssueInput): Promise<{ created: boolean; tender: TenderRow }> {
    const at = instant(this.#now());
    const validUntil = input.validUntil ?? addDays(at.slice(0, 10), this.#config.voucherValidityDays);
    const repo = new TenderRepository(uow.db);
    const scn = await uow.stamp();
    const tender = await repo.insertTender({
      kind: input.kind,
      code: newVoucherCode(),
      client_no: input.clientNo,
      currency: input.currency,
      valid_until: validUntil,
      blocked: 0,
      balance: input.amount,
      issued_amount: input.amount,
      web_id: input.webId,
      email: input.email,
      scn,
      created_at: at,
      updated_at: at,
    });
    if (tender) {
      await repo.insertEntry({
        tender_id: tender.id,
        kind: 'ISSUE',
        amount: input.amount,
        reference: input.webId,
        balance_after: input.amount,
        at,
        scn,
      });
      return { created: true, tender };
    }
    const first = await repo.findByWebId(input.kind, input.webId);
    if (
      !first ||
      first.issued_amount !== input.amount ||
      first.currency !== input.currency ||
      first.client_no !== input.clientNo
    ) {
      throw TENDERS_ERRORS.TENDER_KEY_REUSED(
        `WEBID "${input.webId}" issued a voucher before with another amount, currency or client.`,
      );
    }
    return { created: false, tender: first };
  }

  /**
   * Checks a code without consuming it. Whatever makes it unusable (unknown, malformed, expired,
   * blocked, spent, another currency, another client's), the answer is the same 409
   * VOUCHER_NOT_USABLE, and it counts against the caller's refused checks (429 past the limit).
   */
  async validate(
    typed: string,
    currency: string | undefined,
    caller: Caller,
    kinds: readonly TenderKind[] = VOUCHER_KINDS,
  ): Promise<TenderRow> {
    await this.#throttle(caller);
    const code = normaliseCode(typed);
    const tender = isLookupCode(code)
      ? await new TenderRepository(this.#database.db).findByCode(code)
      : undefined;
    if (!tender || !this.#usable(tender, kinds, caller, currency) || tender.balance <= 0) {
      throw await this.#refuse(caller);
    }
    return tender;
  }

  /**
   * Cashes `amount` off a voucher, once per (voucher, reference): one conditional debit and its
   * REDEEM entry in one transaction. A repeat answers the first cashing (`created` false); the same
   * reference with another amount is 409 TENDER_KEY_REUSED; a usable voucher whose balance is short
   * is 409 VOUCHER_BALANCE_INSUFFICIENT; anything else the generic 409 VOUCHER_NOT_USABLE.
   */
  async cash(
    input: CashInput,
    caller: Caller,
    kinds: readonly TenderKind[] = VOUCHER_KINDS,
  ): Promise<Cashed> {
    await this.#throttle(caller);
    const code = normaliseCode(input.code);
    if (!isLookupCode(code)) throw await this.#refuse(caller);
    const at = instant(this.#now());
    try {
      const posted = await inWriteTransaction(this.#database, async (uow) => {
        const repo = new TenderRepository(uow.db);
        const scn = await uow.stamp();
        const debited = await repo.debit({
          code,
          kinds,
          amount: input.amount,
          currency: input.currency,
          reference: input.reference,
          today: at.slice(0, 10),
          at,
          scn,
          ownClient: caller.ownClient,
        });
        if (!debited) return undefined;
        const entry = {
          tender_id: debited.id,
          kind: 'REDEEM' as const,
          amount: -input.amount,
          reference: input.reference,
          balance_after: debited.balance,
          at,
          scn,
        };
        if ((await repo.insertEntry(entry)) === undefined) throw new AlreadyPosted();
        return {
          created: true,
          tender: { code, kind: debited.kind, currency: input.currency, valid_until: debited.valid_until },
          entry,
        };
      });
      if (posted) return posted;
    } catch (error) {
      if (!(error instanceof AlreadyPosted)) throw error;
    }
    return this.#refusedOrReplayed(code, input, caller, kinds);
  }

  /** After a refused debit (or one rolled back for an existing entry): a replay, or why not. */
  async #refusedOrReplayed(
    code: string,
    input: CashInput,
    caller: Caller,
    kinds: readonly TenderKind[],
  ): Promise<Cashed> {
    const repo = new TenderRepository(this.#database.db);
    const tender = await repo.findByCode(code);
    if (!tender || !this.#entitled(tender, caller) || !kinds.includes(tender.kind)) {
      throw await this.#refuse(caller);
    }
    const first = await repo.findEntry(tender.id, 'REDEEM', input.reference);
    if (first) {
      if (first.amount !== -input.amount || tender.currency !== input.currency) {
        throw TENDERS_ERRORS.TENDER_KEY_REUSED(
          `REFERENCE "${input.reference}" cashed this voucher before with another amount or currency.`,
        );
      }
      return { created: false, tender, entry: first };
    }
    if (!this.#usable(tender, kinds, caller, input.currency)) throw await this.#refuse(caller);
    if (tender.web_id === input.reference) {
      throw TENDERS_ERRORS.VOUCHER_PAYS_OWN_ISSUE(
        `The voucher was issued under "${input.reference}" and cannot pay for it.`,
      );
    }
    throw TENDERS_ERRORS.VOUCHER_BALANCE_INSUFFICIENT(
      'The voucher’s balance does not cover the amount; nothing was cashed.',
    );
  }

  /** A client's tenders of one kind (credit-note vouchers, cheques) that can still pay, oldest first. */
  async openOfClient(clientNo: number, kind: 'CREDIT_NOTE_VOUCHER' | 'CLIENT_CHEQUE'): Promise<TenderRow[]> {
    const today = instant(this.#now()).slice(0, 10);
    return new TenderRepository(this.#database.db).openOfClient(clientNo, kind, today, 1000);
  }

  /** What all tenders with a balance still hold, per kind and currency (the back office's report). */
  async liability(): Promise<LiabilityRow[]> {
    return new TenderRepository(this.#database.db).liability();
  }

  #entitled(tender: TenderRow, caller: Caller): boolean {
    return caller.ownClient === null || tender.client_no === null || tender.client_no === caller.ownClient;
  }

  #usable(
    tender: TenderRow,
    kinds: readonly TenderKind[],
    caller: Caller,
    currency: string | undefined,
  ): boolean {
    const today = instant(this.#now()).slice(0, 10);
    return (
      kinds.includes(tender.kind) &&
      this.#entitled(tender, caller) &&
      tender.blocked === 0 &&
      tender.valid_until >= today &&
      (currency === undefined || tender.currency === currency)
    );
  }

  /** 429 while the caller has used up its refused checks of the current window. */
  async #throttle(caller: Caller): Promise<void> {
    const row = await new TenderRepository(this.#database.db).checkFailures(caller.key);
    if (!row || row.failures < this.#config.voucherCheckMaxFailures) return;
    const windowEnds = Date.parse(row.window_start) + this.#config.voucherCheckWindowSeconds * 1000;
    const wait = Math.ceil((windowEnds - this.#now().getTime()) / 1000);
    if (wait > 0) {
      throw TENDERS_ERRORS.VOUCHER_CHECKS_THROTTLED(
        `Too many refused voucher codes; retry in ${wait} s.`,
        wait,
      );
    }
  }

  /** Counts a refused check of the caller and gives the one generic refusal. */
  async #refuse(caller: Caller) {
    const now = this.#now();
    const cutoff = instant(new Date(now.getTime() - this.#config.voucherCheckWindowSeconds * 1000));
    await inWriteTransaction(this.#database, (uow) =>
      new TenderRepository(uow.db).recordFailure(caller.key, instant(now), cutoff),
    );
    return TENDERS_ERRORS.VOUCHER_NOT_USABLE('This code cannot be used.');
  }
}
