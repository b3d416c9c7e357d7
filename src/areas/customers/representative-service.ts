import type { Database } from '../../kernel/db/database.ts';
import { inWriteTransaction } from '../../kernel/db/unit-of-work.ts';
import type { FieldError } from '../../kernel/errors.ts';
import { feedPage } from '../../kernel/feed-page.ts';
import type { Page, PageOf } from '../../kernel/paging.ts';
import { fail, type WriteResult } from './customer-common.ts';
import { CustomerRepository, type Positioned, type RepresentativeRow } from './customer-repository.ts';
import { checkOptionalEmail, checkOptionalPhone, normaliseRepresentative } from './customer-validation.ts';
import { type RepresentativeWire, representativeToWire } from './customer-wire.ts';
import { CUSTOMERS_ERRORS } from './errors.ts';

export interface RepresentativeInput {
  code: string;
  name: string;
  email?: string;
  phone?: string;
  /** Default true. */
  active?: boolean;
}

/**
 * The representatives of the customers area (docs/customers.md). Which customers a representative
 * has is the customer's field (CustomerService); every write is one transaction with one SCN.
 */
export class RepresentativeService {
  readonly #read: CustomerRepository;

  readonly database: Database;
  readonly now: () => Date;

  constructor(database: Database, now: () => Date = () => new Date()) {
    this.database = database;
    this.now = now;
    this.#read = new CustomerRepository(database.db);
  }

  /**
   * B2B_GetRepresentatives: representatives in position order (code order for those created before
   * positions, then creation order): the live ones, or those changed after the page's SCN. With a
   * customer number, only the representative that customer has; one it no longer has (or that was
   * deleted) comes under DELETED in a feed.
   */
  listRepresentatives(
    page: Page,
    filter: { customerNo?: number } = {},
  ): Promise<PageOf<RepresentativeWire, string>> {
    return feedPage(this.database.db, page, {
      rows: async (sinceScn, from, limit) =>
        filter.customerNo === undefined
          ? (await this.#read.representativesPage(sinceScn, from, limit)).map((r) => ({ ...r, member: 1 }))
          : await this.#read.representativesOfCustomerPage(filter.customerNo, sinceScn, from, limit),
      position: (r) => r.pos,
      live: (r: Positioned<RepresentativeRow> & { member: number }) => r.deleted === 0 && r.member === 1,
      items: (live) => live.map(representativeToWire),
      deletedKey: (r) => r.code,
    });
  }

  async getRepresentative(code: string): Promise<RepresentativeWire> {
    const row = await this.#read.findRepresentative(normaliseRepresentative(code));
    if (!row || row.deleted === 1) {
      throw CUSTOMERS_ERRORS.REPRESENTATIVE_NOT_FOUND(`No representative "${code}".`);
    }
    return representativeToWire(row);
  }

  saveRepresentative(input: RepresentativeInput): Promise<WriteResult> {
    return this.saveRepresentatives([input]);
  }

  /**
   * Creates or replaces representatives (one transaction); unchanged ones are skipped. The code's
   * and the name's shape is the schema's (RepresentativeBody); errors name the record by its index
   * first (`/2/EMAIL`).
   */
  async saveRepresentatives(inputs: RepresentativeInput[]): Promise<WriteResult> {
    const errors: FieldError[] = [];
    const seen = new Set<string>();
    const rows = inputs.map((r, i) => {
      const at = `/${i}/`;
      const code = normaliseRepresentative(r.code ?? '');
      if (seen.has(code)) errors.push({ name: `${at}REPRESENTATIVE`, message: 'repeats' });
      seen.add(code);
      return {
        code,
        name: (r.name ?? '').trim(),
        email: checkOptionalEmail(errors, `${at}EMAIL`, r.email ?? ''),
        phone: checkOptionalPhone(errors, `${at}PHONE`, r.phone ?? ''),
        active: r.active === false ? 0 : 1,
        deleted: 0,
      };
    });
    fail(errors);
    if (rows.length === 0) return { scn: null, changed: 0 };
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new CustomerRepository(uow.db);
      const changedOf = async () => {
        const stored = new Map(
          (await repo.findRepresentatives(rows.map((r) => r.code))).map((r) => [r.code, r]),
        );
        return rows.filter((w) => {
          const s = stored.get(w.code);
          return !s || (Object.keys(w) as Array<keyof typeof w>).some((k) => w[k] !== s[k]);
        });
      };
      if ((await changedOf()).length === 0) return { scn: null, changed: 0 };
      const scn = await uow.scn();
      const changed = await changedOf();
      const at = this.now().toISOString();
      for (const r of changed) await repo.upsertRepresentative({ ...r, scn, created_at: at, updated_at: at });
      return { scn, changed: changed.length };
    });
  }

  /** Deletes a representative; one that live customers still have is 409 REPRESENTATIVE_IN_USE. */
  async deleteRepresentative(code: string): Promise<WriteResult> {
    const key = normaliseRepresentative(code);
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new CustomerRepository(uow.db);
      const check = async () => {
        const row = await repo.findRepresentative(key);
        if (!row || row.deleted === 1) {
          throw CUSTOMERS_ERRORS.REPRESENTATIVE_NOT_FOUND(`No representative "${code}".`);
        }
        const customers = await repo.liveCustomersOfRepresentative(key);
        if (customers > 0) {
          throw CUSTOMERS_ERRORS.REPRESENTATIVE_IN_USE(
            `Representative "${key}" still has ${customers} customer(s); give them another representative first.`,
          );
        }
        return row;
      };
      await check();
      const scn = await uow.scn();
      const row = await check();
      await repo.upsertRepresentative({
        ...row,
        deleted: 1,
        active: 0,
        scn,
        updated_at: this.now().toISOString(),
      });
      return { scn, changed: 1 };
    });
  }
}
