import type { Database } from '../../kernel/db/database.ts';
import { inWriteTransaction } from '../../kernel/db/unit-of-work.ts';
import { ValidationError } from '../../kernel/errors.ts';
import { fromMinor } from '../../kernel/money.ts';
import { UNLIMITED } from './bonus-card-service.ts';
import type { TenderKind } from './tables.ts';
import { type EntryRow, TenderRepository, type TenderRow } from './tender-repository.ts';
import { instant } from './voucher-service.ts';

/** A tender brought over from another system, as one import record gives it. */
export interface ImportedTender {
  kind: TenderKind;
  /** Normalised (upper case, no spaces or dashes), in the form the old system printed it. */
  code: string;
  clientNo: number | null;
  currency: string;
  /** The balance it had in the old system, in minor units (> 0): its ISSUE entry here. */
  amount: number;
  /** The last valid day (a bonus card's: unlimited). */
  validUntil: string;
}

/** The reference of an imported tender's ISSUE entry (and a voucher's WEBID): its import key. */
export function importReference(code: string): string {
  return `IMPORT:${code}`;
}

/**
 * Imports tenders from another system (`tv2 import vouchers`, `tv2 import bonusbalances`;
 * docs/tenders.md, "Import"). The import key is the code: a tender is inserted with its ISSUE entry
 * (reference `IMPORT:<code>`) once; a record for a code imported before with the same kind, client,
 * currency and balance changes nothing (not even the SCN); another balance, client or currency is
 * refused naming the field, and so is a code held by a tender that was not imported.
 */
export class TenderImportService {
  readonly #database: Database;
  readonly #now: () => Date;

  constructor(database: Database, now: () => Date = () => new Date()) {
    this.#database = database;
    this.#now = now;
  }

  /** Imports one tender; `created` false when the same record was imported before. */
  async importTender(t: ImportedTender, codeField: string): Promise<{ created: boolean }> {
    const before = await new TenderRepository(this.#database.db).findByCode(t.code);
    if (before) return this.#same(before, t, codeField);
    const at = instant(this.#now());
    const reference = importReference(t.code);
    const inserted = await inWriteTransaction(this.#database, async (uow) => {
      const repo = new TenderRepository(uow.db);
      const scn = await uow.stamp();
      const tender = await repo.insertTender({
        kind: t.kind,
        code: t.code,
        client_no: t.clientNo,
        currency: t.currency,
        valid_until: t.kind === 'BONUS_CARD' ? UNLIMITED : t.validUntil,
        blocked: 0,
        balance: t.amount,
        issued_amount: t.amount,
        web_id: t.kind === 'BONUS_CARD' ? `CARD:${t.code}` : reference,
        email: null,
        scn,
        created_at: at,
        updated_at: at,
      });
      if (tender) {
        await repo.insertEntry({
          tender_id: tender.id,
          kind: 'ISSUE',
          amount: t.amount,
          reference,
          balance_after: t.amount,
          at,
          scn,
        });
      }
      return tender !== undefined;
    });
    if (inserted) return { created: true };
    // Another import of the same code got there between the read and the insert.
    const now = await new TenderRepository(this.#database.db).findByCode(t.code);
    if (!now) throw new Error(`tender ${t.code} neither inserted nor found`);
    return this.#same(now, t, codeField);
  }

  /** A code that exists: the same import again (unchanged), or a refusal naming the field. */
  async #same(tender: TenderRow, t: ImportedTender, codeField: string): Promise<{ created: boolean }> {
    const refuse = (name: string, message: string) => new ValidationError([{ name, message }]);
    if (tender.kind !== t.kind) throw refuse(codeField, `is the code of a ${tender.kind} already`);
    const issue: EntryRow | undefined = await new TenderRepository(this.#database.db).findEntry(
      tender.id,
      'ISSUE',
      importReference(t.code),
    );
    if (!issue) throw refuse(codeField, 'is the code of a tender tv2 issued itself, not imported');
    if (issue.amount !== t.amount) {
      throw refuse(
        '/BALANCE',
        `was imported before as ${fromMinor(issue.amount).toFixed(2)}, not ${fromMinor(t.amount).toFixed(2)} (a code is imported once)`,
      );
    }
    if (tender.client_no !== t.clientNo) {
      throw refuse('/CLIENT', `was imported before as ${tender.client_no ?? 'none'}`);
    }
    if (tender.currency !== t.currency)
      throw refuse('/CURRENCY', `was imported before as ${tender.currency}`);
    return { created: false };
  }
}
