import type { Database } from '../../kernel/db/database.ts';
import { inWriteTransaction } from '../../kernel/db/unit-of-work.ts';
import { ValidationError } from '../../kernel/errors.ts';
import { TENDERS_ERRORS } from './errors.ts';
import { type EntryRow, TenderRepository, type TenderRow } from './tender-repository.ts';
import { instant } from './voucher-service.ts';

/** A bonus card's validity: unlimited, stated as this last day (docs/tenders.md). */
export const UNLIMITED = '9999-12-31';

export interface BonusUpdate {
  cardNo: number;
  /** Minor units, signed, never 0: what the update adds to the card's value. */
  delta: number;
  /** The business day the caller states (DATE). */
  day: string;
  /** WEBORDER: the key of the update; once per card. */
  reference: string;
  /** The card's client for a card this update creates (from EMAIL); null: none. */
  clientNo: number | null;
}

export interface BonusUpdated {
  created: boolean;
  card: TenderRow;
  entry: Pick<EntryRow, 'amount' | 'balance_after' | 'reference' | 'day' | 'at'>;
}

class AlreadyPosted extends Error {}

/**
 * Bonus cards as ledgers (docs/tenders.md, "Bonus cards"). CARDVALUE in an update is a signed amount
 * to add, applied by one relative UPDATE (`balance = balance + delta` where the result stays >= 0)
 * with its ADJUST entry, once per (card, WEBORDER): concurrent updates commute, so none is lost and
 * no caller has to know the value first; the history is the entries, so it always adds up to the
 * value.
 */
export class BonusCardService {
  readonly #database: Database;
  readonly #now: () => Date;

  constructor(database: Database, now: () => Date = () => new Date()) {
    this.#database = database;
    this.#now = now;
  }

  async update(u: BonusUpdate): Promise<BonusUpdated> {
    if (u.delta === 0) throw new ValidationError([{ name: '/CARDVALUE', message: 'must not be 0' }]);
    const code = String(u.cardNo);
    const at = instant(this.#now());
    try {
      return await inWriteTransaction(this.#database, async (uow) => {
        const repo = new TenderRepository(uow.db);
        const scn = await uow.stamp();
        // A card exists from its first update; two first updates at once create it once.
        if (!(await repo.findByCode(code))) {
          await repo.insertTender({
            kind: 'BONUS_CARD',
            code,
            client_no: u.clientNo,
            currency: 'EUR',
            valid_until: UNLIMITED,
            blocked: 0,
            balance: 0,
            issued_amount: 0,
            web_id: `CARD:${code}`,
            email: null,
            scn,
            created_at: at,
            updated_at: at,
          });
        }
        const adjusted = await repo.adjust(code, u.delta, at, scn);
        if (!adjusted) throw new AlreadyPosted();
        const entry = {
          tender_id: adjusted.id,
          kind: 'ADJUST' as const,
          amount: u.delta,
          reference: u.reference,
          balance_after: adjusted.balance,
          at,
          day: u.day,
          scn,
        };
        if ((await repo.insertEntry(entry)) === undefined) throw new AlreadyPosted();
        const card = await repo.findByCode(code);
        if (!card) throw new Error(`bonus card ${code} vanished inside its own transaction`);
        return { created: true, card, entry };
      });
    } catch (error) {
      if (!(error instanceof AlreadyPosted)) throw error;
    }
    // Refused, or the entry was there: a replay answers the first update; otherwise why not.
    const repo = new TenderRepository(this.#database.db);
    const card = await repo.findByCode(code);
    const first = card ? await repo.findEntry(card.id, 'ADJUST', u.reference) : undefined;
    if (card && first) {
      if (first.amount !== u.delta) {
        throw TENDERS_ERRORS.TENDER_KEY_REUSED(
          `WEBORDER "${u.reference}" changed card ${u.cardNo} before by another CARDVALUE.`,
        );
      }
      return { created: false, card, entry: first };
    }
    throw TENDERS_ERRORS.BONUS_VALUE_REFUSED(
      card?.blocked === 1
        ? `Bonus card ${u.cardNo} is blocked.`
        : `Bonus card ${u.cardNo} does not hold ${(-u.delta / 100).toFixed(2)}; nothing was changed.`,
    );
  }

  /** The card, or 404 BONUS_CARD_NOT_FOUND. */
  async card(cardNo: number): Promise<TenderRow> {
    const card = await new TenderRepository(this.#database.db).findByCode(String(cardNo));
    if (card?.kind !== 'BONUS_CARD') throw TENDERS_ERRORS.BONUS_CARD_NOT_FOUND(`No bonus card ${cardNo}.`);
    return card;
  }

  /**
   * A page of the card's entries from entry `offset` on, and its value as the same statement read
   * it (for a card without entries on the page, the value as read with the card).
   */
  async history(card: TenderRow, offset: number, limit: number) {
    const rows = await new TenderRepository(this.#database.db).entryPage(card.id, offset, limit);
    const more = rows.length > limit;
    const entries = more ? rows.slice(0, limit) : rows;
    return {
      value: rows[0]?.tender_balance ?? card.balance,
      entries,
      nextOffset: more ? (rows[limit]?.id ?? null) : null,
    };
  }
}
