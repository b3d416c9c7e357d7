import type { Database } from '../../kernel/db/database.ts';
import type { UnitOfWork } from '../../kernel/db/unit-of-work.ts';
import { UNLIMITED } from './bonus-card-service.ts';
import { TENDERS_ERRORS } from './errors.ts';
import type { TenderKind } from './tables.ts';
import { normaliseCode } from './tender-code.ts';
import { TenderRepository, type TenderRow } from './tender-repository.ts';
import { type Caller, instant, VOUCHER_KINDS, type VoucherService } from './voucher-service.ts';

/** How a web order names a tender that pays it (WEBORDERDATA.TENDERS[].TYPE). */
export type PaymentType = 'VOUCHER' | 'CLIENTCHEQUE' | 'BONUSCARD';

/** The kinds each payment type may debit: a voucher line never touches a cheque, and so on. */
export const KINDS_OF: Readonly<Record<PaymentType, readonly TenderKind[]>> = {
  VOUCHER: VOUCHER_KINDS,
  CLIENTCHEQUE: ['CLIENT_CHEQUE'],
  BONUSCARD: ['BONUS_CARD'],
};

export interface OrderDebit {
  type: PaymentType;
  /** As typed (a voucher code in any case, with spaces or dashes; a card number). */
  code: string;
  amount: number;
  currency: string;
  /** The order's own reference in the ledger (`ORDER 12`): the REDEEM entry's, once per tender. */
  reference: string;
  /** The order's WEBORDER: a tender never pays the request that issued it. */
  issuedBy: string;
  /** The order's client: a tender of another client never pays. */
  clientNo: number;
}

export interface Debited {
  tenderId: number;
  kind: TenderKind;
  code: string;
  balanceAfter: number;
}

/**
 * Tenders paying web orders (docs/orders.md, "Paying with tenders"): the orders area calls these
 * inside its own write transactions, so a tender is debited with the order it pays, given back with
 * the cancellation or return that refunds it, and a bonus card earns with the delivery, all or
 * nothing. The same statements as the tender operations: the debit is the one conditional UPDATE
 * of TenderRepository.debit with its REDEEM entry, a refund one relative UPDATE with its
 * REFUND_CREDIT entry; balance = Σ entries holds as everywhere.
 */
export class OrderPaymentService {
  readonly #database: Database;
  readonly #vouchers: VoucherService;
  readonly #now: () => Date;

  constructor(database: Database, vouchers: VoucherService, now: () => Date = () => new Date()) {
    this.#database = database;
    this.#vouchers = vouchers;
    this.#now = now;
  }

  /**
   * Before the order's transaction: whether the tender can pay, without consuming it. A voucher or
   * cheque is checked as B2C_ValidateVoucher checks a code (the one generic refusal, counted against
   * the caller's refused checks, 429 past the limit); a bonus card must exist, be the client's or no
   * one's, and not be blocked. The balance is decided by the debit, not here.
   */
  async check(
    d: Pick<OrderDebit, 'type' | 'code' | 'currency' | 'clientNo'>,
    callerKey: string,
  ): Promise<void> {
    if (d.type !== 'BONUSCARD') {
      const caller: Caller = { key: callerKey, ownClient: d.clientNo };
      await this.#vouchers.validate(d.code, d.currency, caller, KINDS_OF[d.type]);
      return;
    }
    const card = await new TenderRepository(this.#database.db).findByCode(d.code.trim());
    if (card?.kind !== 'BONUS_CARD') throw TENDERS_ERRORS.BONUS_CARD_NOT_FOUND(`No bonus card ${d.code}.`);
    if (card.blocked === 1 || (card.client_no !== null && card.client_no !== d.clientNo)) {
      throw TENDERS_ERRORS.BONUS_VALUE_REFUSED(`Bonus card ${d.code} cannot pay this order.`);
    }
  }

  /**
   * The card an order is to earn on: if it exists, a bonus card of the client or of no one (it is
   * created on the first earning otherwise); 409 BONUS_VALUE_REFUSED when it may not.
   */
  async checkEarningCard(cardNo: string, clientNo: number): Promise<void> {
    const card = await new TenderRepository(this.#database.db).findByCode(cardNo);
    if (card === undefined) return;
    if (card.kind !== 'BONUS_CARD' || (card.client_no !== null && card.client_no !== clientNo)) {
      throw TENDERS_ERRORS.BONUS_VALUE_REFUSED(`Card ${cardNo} cannot earn on this order.`);
    }
  }

  /**
   * In the order's transaction: takes `amount` off the tender by the one conditional debit and
   * writes its REDEEM entry. A refusal is thrown (the order's transaction rolls back with it): 409
   * VOUCHER_BALANCE_INSUFFICIENT or BONUS_VALUE_REFUSED when the tender is the client's to use but
   * holds less, VOUCHER_PAYS_OWN_ISSUE, else the generic VOUCHER_NOT_USABLE.
   */
  async debitIn(uow: UnitOfWork, d: OrderDebit): Promise<Debited> {
    const repo = new TenderRepository(uow.db);
    const code = d.type === 'BONUSCARD' ? d.code.trim() : normaliseCode(d.code);
    const scn = await uow.stamp();
    const at = instant(this.#now());
    const debited = await repo.debit({
      code,
      kinds: KINDS_OF[d.type],
      amount: d.amount,
      currency: d.currency,
      reference: d.reference,
      issuedBy: d.issuedBy,
      today: at.slice(0, 10),
      at,
      scn,
      ownClient: d.clientNo,
    });
    if (!debited) throw await this.#whyNot(repo, code, d, at.slice(0, 10));
    const entry = await repo.insertEntry({
      tender_id: debited.id,
      kind: 'REDEEM',
      amount: -d.amount,
      reference: d.reference,
      balance_after: debited.balance,
      at,
      scn,
    });
    // One order debits a tender once (the placement refuses a code named twice): never reached.
    if (entry === undefined) throw new Error(`${d.reference} debited tender ${debited.id} twice`);
    return { tenderId: debited.id, kind: debited.kind, code, balanceAfter: Number(debited.balance) };
  }

  /** In a refund's transaction: gives `amount` back to the tender with its REFUND_CREDIT entry, once per reference. */
  async creditIn(uow: UnitOfWork, tenderId: number, amount: number, reference: string): Promise<number> {
    const repo = new TenderRepository(uow.db);
    const scn = await uow.stamp();
    const at = instant(this.#now());
    const balance = await repo.credit(tenderId, amount, at, scn);
    if (balance === undefined) throw new Error(`tender ${tenderId} vanished`);
    const entry = await repo.insertEntry({
      tender_id: tenderId,
      kind: 'REFUND_CREDIT',
      amount,
      reference,
      balance_after: balance,
      at,
      scn,
    });
    if (entry === undefined) throw new Error(`${reference} credited tender ${tenderId} twice`);
    return balance;
  }

  /**
   * In a cancellation's transaction: gives `amount` back to the tender `code` it came from, or, when
   * that tender is past its last valid day, as a new credit-note voucher of the order's client (a
   * value credited to an expired tender could never be used, nor be written off again by the
   * expiry run, which expires a tender once per last valid day). What received the value.
   */
  async refundIn(
    uow: UnitOfWork,
    r: {
      code: string;
      amount: number;
      reference: string;
      clientNo: number;
      currency: string;
      email: string | null;
    },
  ): Promise<{ kind: TenderKind; code: string }> {
    const repo = new TenderRepository(uow.db);
    const tender = await repo.lockByCode(r.code);
    if (!tender) throw new Error(`tender ${r.code} vanished`);
    const today = instant(this.#now()).slice(0, 10);
    if (tender.valid_until >= today) {
      await this.creditIn(uow, tender.id, r.amount, r.reference);
      return { kind: tender.kind, code: tender.code };
    }
    const note = await this.creditNoteIn(uow, {
      clientNo: r.clientNo,
      amount: r.amount,
      currency: r.currency,
      webId: `${r.reference} ${tender.code}`,
      email: r.email,
    });
    return { kind: note.kind, code: note.code };
  }

  /** In a return's transaction: a credit-note voucher of the client, once per WEBID (`RETURN <no>`). */
  async creditNoteIn(
    uow: UnitOfWork,
    v: { clientNo: number; amount: number; currency: string; webId: string; email: string | null },
  ): Promise<TenderRow> {
    const issued = await this.#vouchers.issueIn(uow, { kind: 'CREDIT_NOTE_VOUCHER', ...v });
    return issued.tender;
  }

  /**
   * In a delivery's, cancellation's or return's transaction: changes a bonus card by `delta` with its
   * ADJUST entry (`reference` once per card). Earning (delta > 0) creates the card for the client if
   * it does not exist yet and adds to a blocked card too (it is the client's value); taking back
   * (delta < 0) takes at most what the card holds (the card row held while it decides). The change
   * made (0 when the card holds nothing, or when the number is another kind of tender's code).
   */
  async bonusIn(
    uow: UnitOfWork,
    b: { cardNo: string; delta: number; reference: string; clientNo: number },
  ): Promise<number> {
    const repo = new TenderRepository(uow.db);
    const scn = await uow.stamp();
    const at = instant(this.#now());
    let card = await repo.lockByCode(b.cardNo);
    if (!card) {
      if (b.delta <= 0) return 0;
      await repo.insertTender({
        kind: 'BONUS_CARD',
        code: b.cardNo,
        client_no: b.clientNo,
        currency: 'EUR',
        valid_until: UNLIMITED,
        blocked: 0,
        balance: 0,
        issued_amount: 0,
        web_id: `CARD:${b.cardNo}`,
        email: null,
        scn,
        created_at: at,
        updated_at: at,
      });
      card = await repo.lockByCode(b.cardNo);
    }
    // The number is another kind of tender's code (one imported since the order was placed): no
    // card to earn on, and a delivery is not refused for it.
    if (card?.kind !== 'BONUS_CARD') return 0;
    const delta = b.delta < 0 ? -Math.min(-b.delta, Number(card.balance)) : b.delta;
    if (delta === 0) return 0;
    const balance = await repo.credit(card.id, delta, at, scn);
    if (balance === undefined) throw new Error(`bonus card ${b.cardNo} vanished`);
    const entry = await repo.insertEntry({
      tender_id: card.id,
      kind: 'ADJUST',
      amount: delta,
      reference: b.reference,
      balance_after: balance,
      at,
      scn,
    });
    if (entry === undefined) throw new Error(`${b.reference} changed bonus card ${b.cardNo} twice`);
    return delta;
  }

  /** After a refused debit inside the order's transaction: the answer the caller gets. */
  async #whyNot(repo: TenderRepository, code: string, d: OrderDebit, today: string) {
    const t = await repo.findByCode(code);
    const own = t !== undefined && (t.client_no === null || t.client_no === d.clientNo);
    const usable =
      own &&
      t !== undefined &&
      KINDS_OF[d.type].includes(t.kind) &&
      t.blocked === 0 &&
      t.valid_until >= today &&
      t.currency === d.currency;
    if (d.type === 'BONUSCARD') {
      return usable
        ? TENDERS_ERRORS.BONUS_VALUE_REFUSED(`Bonus card ${code} does not hold ${money(d.amount)}.`)
        : TENDERS_ERRORS.BONUS_VALUE_REFUSED(`Bonus card ${code} cannot pay this order.`);
    }
    if (!usable) return TENDERS_ERRORS.VOUCHER_NOT_USABLE('This code cannot be used.');
    if (t.web_id === d.issuedBy) {
      return TENDERS_ERRORS.VOUCHER_PAYS_OWN_ISSUE(
        `The voucher was issued under "${d.issuedBy}" and cannot pay for it.`,
      );
    }
    return TENDERS_ERRORS.VOUCHER_BALANCE_INSUFFICIENT(
      `The voucher holds less than ${money(d.amount)}; the order was not placed.`,
    );
  }
}

const money = (minor: number) => (minor / 100).toFixed(2);
