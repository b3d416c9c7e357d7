import type { Insertable, Kysely, Selectable } from 'kysely';
import { onPostgres } from '../../kernel/db/engine.ts';
import type { DB } from '../../kernel/db/schema.ts';
import type { EntryKind, TenderEntryTable, TenderKind, TenderTable } from './tables.ts';

export type TenderRow = Selectable<TenderTable>;
export type NewTender = Omit<Insertable<TenderTable>, 'id' | 'pos'>;
export type EntryRow = Selectable<TenderEntryTable>;
export type NewEntry = Omit<Insertable<TenderEntryTable>, 'id'>;

/** What a debit leaves: the tender's id, kind, new balance and last valid day. */
export interface Debited {
  id: number;
  kind: TenderKind;
  balance: number;
  valid_until: string;
}

export interface DebitRequest {
  code: string;
  /** The kinds this debit may touch (a voucher cashing touches only vouchers). */
  kinds: readonly TenderKind[];
  amount: number;
  currency: string;
  /** What the debit pays; a voucher never pays the request that issued it (its WEBID). */
  reference: string;
  /** The request the debit pays, when it is not `reference` (an order's WEBORDER): never the tender's WEBID. */
  issuedBy?: string;
  /** The debit is refused on a tender whose last valid day is before this one. */
  today: string;
  at: string;
  scn: number;
  /** A token confined to a client: only tenders of no client (gift vouchers) or of this one. */
  ownClient: number | null;
}

export interface LiabilityRow {
  kind: TenderKind;
  currency: string;
  tenders: number;
  balance: number;
}

/**
 * The SQL of the tenders area. The one rule that keeps value from being spent twice lives in
 * `debit`: the balance goes down only by one conditional UPDATE whose WHERE holds every condition
 * (enough balance, not blocked, still valid, the currency, the caller's own), never by reading the
 * balance and writing a new one; the entry that goes with it is written in the same transaction, and
 * its unique key (tender, kind, reference) makes the pair happen once.
 */
export class TenderRepository {
  readonly #db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  /**
   * Inserts a tender unless one of its kind already carries its WEBID (or, for a bonus card, its
   * number): the new row, or undefined. The conflict names no index: two first updates of one bonus
   * card meet on both `code` and (`kind`, `web_id`), and PostgreSQL would raise on the one not named.
   */
  async insertTender(row: NewTender): Promise<TenderRow | undefined> {
    return this.#db
      .insertInto('tender')
      .values(row)
      .onConflict((oc) => oc.doNothing())
      .returningAll()
      .executeTakeFirst();
  }

  async findByWebId(kind: TenderKind, webId: string): Promise<TenderRow | undefined> {
    return this.#db
      .selectFrom('tender')
      .selectAll()
      .where('kind', '=', kind)
      .where('web_id', '=', webId)
      .executeTakeFirst();
  }

  async findByCode(code: string): Promise<TenderRow | undefined> {
    return this.#db.selectFrom('tender').selectAll().where('code', '=', code).executeTakeFirst();
  }

  /**
   * Takes `amount` off a tender if, at the moment the row is changed, it holds that much and may be
   * used: the whole decision is this statement's WHERE (on PostgreSQL a concurrent debit waits for
   * the row and the condition is checked again on the row as that one left it). Undefined: refused,
   * nothing changed.
   */
  async debit(d: DebitRequest): Promise<Debited | undefined> {
    let update = this.#db
      .updateTable('tender')
      .set((eb) => ({ balance: eb('balance', '-', d.amount), scn: d.scn, updated_at: d.at }))
      .where('code', '=', d.code)
      .where('kind', 'in', d.kinds)
      .where('balance', '>=', d.amount)
      .where('blocked', '=', 0)
      .where('valid_until', '>=', d.today)
      .where('currency', '=', d.currency)
      .where((eb) => eb.or([eb('web_id', 'is', null), eb('web_id', '<>', d.issuedBy ?? d.reference)]));
    if (d.ownClient !== null) {
      const own = d.ownClient;
      update = update.where((eb) => eb.or([eb('client_no', 'is', null), eb('client_no', '=', own)]));
    }
    return update.returning(['id', 'kind', 'balance', 'valid_until']).executeTakeFirst();
  }

  /**
   * Gives `amount` back to a tender (a refund of what an order took from it): one relative statement,
   * so it adds to whatever the balance is when the row is changed. Blocked or past its day, the value
   * still goes back where it came from (the back office decides about a blocked tender; an expired
   * one is written off by the next expiry run). The balance right after, or undefined for no tender.
   */
  async credit(id: number, amount: number, at: string, scn: number): Promise<number | undefined> {
    const row = await this.#db
      .updateTable('tender')
      .set((eb) => ({ balance: eb('balance', '+', amount), scn, updated_at: at }))
      .where('id', '=', id)
      .returning('balance')
      .executeTakeFirst();
    return row === undefined ? undefined : Number(row.balance);
  }

  /**
   * The tender with this code, held until the transaction ends (FOR UPDATE on PostgreSQL; SQLite
   * serialises writers): for a change that must know the balance it changes (taking back at most
   * what a bonus card holds).
   */
  async lockByCode(code: string): Promise<TenderRow | undefined> {
    const q = this.#db.selectFrom('tender').selectAll().where('code', '=', code);
    return (onPostgres(this.#db) ? q.forUpdate() : q).executeTakeFirst();
  }

  /**
   * Adds `delta` (signed) to a bonus card if it is not blocked and the result is not negative: one
   * statement, relative to the balance as the row holds it when changed, so concurrent updates add
   * up and none is lost. Undefined: refused, nothing changed.
   */
  async adjust(
    code: string,
    delta: number,
    at: string,
    scn: number,
  ): Promise<{ id: number; balance: number } | undefined> {
    return this.#db
      .updateTable('tender')
      .set((eb) => ({ balance: eb('balance', '+', delta), scn, updated_at: at }))
      .where('code', '=', code)
      .where('kind', '=', 'BONUS_CARD')
      .where('blocked', '=', 0)
      .where((eb) => eb(eb('balance', '+', delta), '>=', 0))
      .returning(['id', 'balance'])
      .executeTakeFirst();
  }

  /**
   * A page of a tender's entries from entry `fromId` on (`limit` + 1 rows, the last one says a next
   * page exists), each with the tender's balance read by the same statement, so the value and the
   * history answered agree.
   */
  async entryPage(
    tenderId: number,
    fromId: number,
    limit: number,
  ): Promise<(EntryRow & { tender_balance: number })[]> {
    return this.#db
      .selectFrom('tender_entry as e')
      .innerJoin('tender as t', 't.id', 'e.tender_id')
      .selectAll('e')
      .select('t.balance as tender_balance')
      .where('e.tender_id', '=', tenderId)
      .where('e.id', '>=', fromId)
      .orderBy('e.id')
      .limit(limit + 1)
      .execute();
  }

  /** Writes an entry unless the tender has one of its kind and reference: its id, or undefined. */
  async insertEntry(entry: NewEntry): Promise<number | undefined> {
    const row = await this.#db
      .insertInto('tender_entry')
      .values(entry)
      .onConflict((oc) => oc.columns(['tender_id', 'kind', 'reference']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return row?.id;
  }

  async findEntry(tenderId: number, kind: EntryKind, reference: string): Promise<EntryRow | undefined> {
    return this.#db
      .selectFrom('tender_entry')
      .selectAll()
      .where('tender_id', '=', tenderId)
      .where('kind', '=', kind)
      .where('reference', '=', reference)
      .executeTakeFirst();
  }

  /** A tender's entries, oldest first. */
  async entries(tenderId: number): Promise<EntryRow[]> {
    return this.#db
      .selectFrom('tender_entry')
      .selectAll()
      .where('tender_id', '=', tenderId)
      .orderBy('id')
      .execute();
  }

  /** A client's tenders of one kind that can still pay: a balance, not blocked, valid on `today`. */
  async openOfClient(clientNo: number, kind: TenderKind, today: string, limit: number): Promise<TenderRow[]> {
    return this.#db
      .selectFrom('tender')
      .selectAll()
      .where('client_no', '=', clientNo)
      .where('kind', '=', kind)
      .where('balance', '>', 0)
      .where('blocked', '=', 0)
      .where('valid_until', '>=', today)
      .orderBy('pos')
      .limit(limit)
      .execute();
  }

  /** The outstanding liability: what all tenders with a balance still hold, per kind and currency. */
  async liability(): Promise<LiabilityRow[]> {
    const rows = await this.#db
      .selectFrom('tender')
      .select((eb) => [
        'kind',
        'currency',
        eb.fn.countAll<number | string>().as('tenders'),
        eb.fn.sum<number | string>('balance').as('balance'),
      ])
      .where('balance', '>', 0)
      .groupBy(['kind', 'currency'])
      .orderBy('kind')
      .orderBy('currency')
      .execute();
    return rows.map((r) => ({ ...r, tenders: Number(r.tenders), balance: Number(r.balance) }));
  }

  /** Back office: blocks or unblocks a tender; the row as it is now, or undefined for an unknown code. */
  async setBlocked(code: string, blocked: boolean, at: string, scn: number): Promise<TenderRow | undefined> {
    return this.#db
      .updateTable('tender')
      .set({ blocked: blocked ? 1 : 0, scn, updated_at: at })
      .where('code', '=', code)
      .returningAll()
      .executeTakeFirst();
  }

  /** Back office: a new last valid day; the row as it is now, or undefined for an unknown code. */
  async setValidUntil(
    code: string,
    validUntil: string,
    at: string,
    scn: number,
  ): Promise<TenderRow | undefined> {
    return this.#db
      .updateTable('tender')
      .set({ valid_until: validUntil, scn, updated_at: at })
      .where('code', '=', code)
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * Tenders past their last valid day that still hold value, by id from `afterId` on (the expiry
   * run's pages: a primary-key range, whatever the table size).
   */
  async expiryCandidates(
    today: string,
    afterId: number,
    limit: number,
  ): Promise<Pick<TenderRow, 'id' | 'balance' | 'currency' | 'valid_until'>[]> {
    return this.#db
      .selectFrom('tender')
      .select(['id', 'balance', 'currency', 'valid_until'])
      .where('id', '>', afterId)
      .where('valid_until', '<', today)
      .where('balance', '>', 0)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /**
   * Takes the whole `amount` a tender past its last valid day holds to 0, if at the moment the row
   * is changed it still holds exactly that and is still past `today`: the decision is this
   * statement's WHERE (a concurrent run, or a credit in between, leaves it unchanged). Undefined:
   * nothing changed.
   */
  async expire(
    id: number,
    amount: number,
    today: string,
    at: string,
    scn: number,
  ): Promise<{ id: number; balance: number } | undefined> {
    return this.#db
      .updateTable('tender')
      .set((eb) => ({ balance: eb('balance', '-', amount), scn, updated_at: at }))
      .where('id', '=', id)
      .where('balance', '=', amount)
      .where('valid_until', '<', today)
      .returning(['id', 'balance'])
      .executeTakeFirst();
  }

  /** The refused voucher checks of a caller in its current window. */
  async checkFailures(caller: string): Promise<{ window_start: string; failures: number } | undefined> {
    return this.#db
      .selectFrom('tender_check_failure')
      .select(['window_start', 'failures'])
      .where('caller', '=', caller)
      .executeTakeFirst();
  }

  /**
   * Counts one refused check of `caller` in one statement: a window that began before `windowCutoff`
   * starts again at `at` with this one failure.
   */
  async recordFailure(caller: string, at: string, windowCutoff: string): Promise<void> {
    await this.#db
      .insertInto('tender_check_failure')
      .values({ caller, window_start: at, failures: 1 })
      .onConflict((oc) =>
        oc.column('caller').doUpdateSet((eb) => ({
          failures: eb
            .case()
            .when('tender_check_failure.window_start', '<', windowCutoff)
            .then(1)
            .else(eb('tender_check_failure.failures', '+', 1))
            .end(),
          window_start: eb
            .case()
            .when('tender_check_failure.window_start', '<', windowCutoff)
            .then(at)
            .else(eb.ref('tender_check_failure.window_start'))
            .end(),
        })),
      )
      .execute();
  }
}
