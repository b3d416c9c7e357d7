import type { Database } from '../../kernel/db/database.ts';
import { inWriteTransaction } from '../../kernel/db/unit-of-work.ts';
import { ValidationError } from '../../kernel/errors.ts';
import { TENDERS_ERRORS } from './errors.ts';
import { normaliseCode } from './tender-code.ts';
import { type EntryRow, TenderRepository, type TenderRow } from './tender-repository.ts';
import { instant } from './voucher-service.ts';

/** A real calendar day YYYY-MM-DD (2026-02-30 is not). */
export function isDay(value: string): boolean {
  if (!/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/**
 * The back office's hold on tenders: look one up with its entries, block or unblock it, extend its
 * validity. None of these touches a balance: only ledger entries do (voucher-service.ts).
 */
export class TenderAdminService {
  readonly #database: Database;
  readonly #now: () => Date;

  constructor(database: Database, now: () => Date = () => new Date()) {
    this.#database = database;
    this.#now = now;
  }

  async detail(typed: string): Promise<{ tender: TenderRow; entries: EntryRow[] }> {
    const repo = new TenderRepository(this.#database.db);
    const tender = await repo.findByCode(normaliseCode(typed));
    if (!tender) throw TENDERS_ERRORS.TENDER_NOT_FOUND(`No tender with code "${typed}".`);
    return { tender, entries: await repo.entries(tender.id) };
  }

  async setBlocked(typed: string, blocked: boolean): Promise<TenderRow> {
    const at = instant(this.#now());
    const row = await inWriteTransaction(this.#database, async (uow) =>
      new TenderRepository(uow.db).setBlocked(normaliseCode(typed), blocked, at, await uow.stamp()),
    );
    if (!row) throw TENDERS_ERRORS.TENDER_NOT_FOUND(`No tender with code "${typed}".`);
    return row;
  }

  /** A new last valid day: a real day, not before the one it has (validity is extended, never cut). */
  async extend(typed: string, validUntil: string): Promise<TenderRow> {
    if (!isDay(validUntil))
      throw new ValidationError([{ name: '/VALIDUNTIL', message: 'must be a date YYYY-MM-DD' }]);
    const code = normaliseCode(typed);
    const at = instant(this.#now());
    const row = await inWriteTransaction(this.#database, async (uow) => {
      const repo = new TenderRepository(uow.db);
      const now = await repo.findByCode(code);
      if (!now) return undefined;
      if (validUntil < now.valid_until) {
        throw new ValidationError([
          { name: '/VALIDUNTIL', message: `must not be before the present ${now.valid_until}` },
        ]);
      }
      return repo.setValidUntil(code, validUntil, at, await uow.scn());
    });
    if (!row) throw TENDERS_ERRORS.TENDER_NOT_FOUND(`No tender with code "${typed}".`);
    return row;
  }
}
