import type { Database } from '../../kernel/db/database.ts';
import { inWriteTransaction } from '../../kernel/db/unit-of-work.ts';
import { TenderRepository } from './tender-repository.ts';
import { instant } from './voucher-service.ts';

/** What an expiry run wrote off: tenders and amounts (minor units) per currency. */
export interface ExpiryReport {
  day: string;
  expired: number;
  amounts: { currency: string; tenders: number; amount: number }[];
}

/** Thrown inside an expiry's transaction when its entry exists already: rolls the update back. */
class AlreadyExpired extends Error {}

const PAGE = 500;

/**
 * Expiry (docs/tenders.md, "Expiry"): every tender past its last valid day that still holds value
 * gets one EXPIRE entry taking its balance to 0. Each tender is its own transaction of one
 * conditional UPDATE (it still holds exactly the amount read and is still past its day) and the
 * entry, whose unique key (tender, EXPIRE, `EXPIRED:<last valid day>`) makes it once per tender and
 * validity: two runs at once (two processes, two connections) write each tender off once, the
 * second finding the row changed or the entry there. Reads never expire anything in place: a code
 * past its day is refused by validation and by the debit's WHERE, and waits for this run.
 */
export class ExpiryService {
  readonly #database: Database;
  readonly #now: () => Date;

  constructor(database: Database, now: () => Date = () => new Date()) {
    this.#database = database;
    this.#now = now;
  }

  async expireAll(): Promise<ExpiryReport> {
    const at = instant(this.#now());
    const day = at.slice(0, 10);
    const sums = new Map<string, { tenders: number; amount: number }>();
    let expired = 0;
    let after = 0;
    for (;;) {
      const page = await new TenderRepository(this.#database.db).expiryCandidates(day, after, PAGE);
      for (const tender of page) {
        after = tender.id;
        if (!(await this.#expireOne(tender, day, at))) continue;
        expired += 1;
        const sum = sums.get(tender.currency) ?? { tenders: 0, amount: 0 };
        sums.set(tender.currency, { tenders: sum.tenders + 1, amount: sum.amount + tender.balance });
      }
      if (page.length < PAGE) break;
    }
    const amounts = [...sums.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, sum]) => ({ currency, ...sum }));
    return { day, expired, amounts };
  }

  /** Writes one tender off; false when another run (or a change in between) got there first. */
  async #expireOne(
    tender: { id: number; balance: number; valid_until: string },
    today: string,
    at: string,
  ): Promise<boolean> {
    try {
      return await inWriteTransaction(this.#database, async (uow) => {
        const repo = new TenderRepository(uow.db);
        const scn = await uow.stamp();
        const updated = await repo.expire(tender.id, tender.balance, today, at, scn);
        if (!updated) return false;
        const entry = await repo.insertEntry({
          tender_id: tender.id,
          kind: 'EXPIRE',
          amount: -tender.balance,
          reference: `EXPIRED:${tender.valid_until}`,
          balance_after: updated.balance,
          at,
          day: today,
          scn,
        });
        if (entry === undefined) throw new AlreadyExpired();
        return true;
      });
    } catch (error) {
      if (error instanceof AlreadyExpired) return false;
      throw error;
    }
  }
}
