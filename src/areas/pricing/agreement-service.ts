import type { Kysely } from 'kysely';
import type { Database } from '../../kernel/db/database.ts';
import type { DB } from '../../kernel/db/schema.ts';
import { inWriteTransaction, type UnitOfWork } from '../../kernel/db/unit-of-work.ts';
import { feedPage } from '../../kernel/feed-page.ts';
import type { Page, PageOf } from '../../kernel/paging.ts';
import { CATALOG_ERRORS } from '../catalog/index.ts';
import { liveCustomerTerms } from '../customers/index.ts';
import { PRICING_ERRORS } from './errors.ts';
import { type AgreementPriceRow, PricingRepository } from './pricing-repository.ts';
import {
  type AgreementInput,
  agreementRow,
  type LineDiscountInput,
  lineDiscountRow,
  sameRow,
} from './pricing-rules.ts';
import { findArticle, softDelete, type WriteResult } from './pricing-shared.ts';
import {
  type AgreementWire,
  agreementToWire,
  type LineDiscountWire,
  lineDiscountToWire,
} from './pricing-wire.ts';

/**
 * A customer's own terms (docs/pricing.md): price agreements of a customer or a customer group and
 * the customers' line discounts. Every write is one transaction; writes that change nothing leave
 * the SCN where it was.
 */
export class AgreementService {
  readonly #read: PricingRepository;

  readonly database: Database;
  readonly now: () => Date;

  constructor(database: Database, now: () => Date = () => new Date()) {
    this.database = database;
    this.now = now;
    this.#read = new PricingRepository(database.db);
  }

  // --- price agreements --------------------------------------------------------------------------

  /**
   * B2B_GetAllPriceAgreements: agreements changed after the page's SCN in id order; with a customer
   * number, only those of that customer and of its customer group (as it is now).
   */
  async listAgreements(page: Page, customerNo?: number): Promise<PageOf<AgreementWire, number>> {
    const party = customerNo === undefined ? undefined : await this.#party(customerNo);
    return feedPage(this.database.db, page, {
      rows: (sinceScn, from, limit) => this.#read.agreementsPage(sinceScn, from, limit, party),
      position: (r) => r.pos,
      live: (r) => r.deleted === 0,
      items: async (live) => {
        const prices = await this.#read.agreementPrices(live.map((r) => Number(r.id)));
        return live.map((r) => agreementToWire(r, prices));
      },
      tombstone: (r) => r.deleted === 1,
      deletedKey: (r) => Number(r.id),
    });
  }

  /** One agreement; with a customer number, only if it is that customer's or its group's. */
  async agreement(id: number, customerNo?: number): Promise<AgreementWire> {
    const row = await this.#read.findAgreement(id);
    const party = customerNo === undefined ? undefined : await this.#party(customerNo);
    const visible =
      row !== undefined &&
      row.deleted === 0 &&
      (party === undefined ||
        row.customer_no === party.customerNo ||
        (row.customer_group !== null && row.customer_group === party.customerGroup));
    if (!row || !visible) throw PRICING_ERRORS.AGREEMENT_NOT_FOUND(`No price agreement ${id}.`);
    return agreementToWire(row, await this.#read.agreementPrices([id]));
  }

  async #party(customerNo: number) {
    const c = await liveCustomerTerms(this.database.db, customerNo);
    return { customerNo: c.customer_no, customerGroup: c.customer_group };
  }

  /**
   * Creates an agreement, or updates the live one with the same key (customer or group, scope,
   * value, quantity break, start date): what an import of agreements needs to be repeatable.
   */
  async saveAgreement(input: AgreementInput): Promise<WriteResult & { id: number }> {
    const { row } = agreementRow(input, this.now().toISOString());
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new PricingRepository(uow.db);
      const found = await repo.agreementIdByKey(row);
      if (found !== undefined && !(await this.#agreementDiffers(repo, found, input))) {
        return { id: found, scn: null, changed: 0 };
      }
      // Under the SCN lock writers are serialised: look again, so two imports of the same new
      // agreement cannot both create it.
      await uow.scn();
      const id = await repo.agreementIdByKey(row);
      if (id === undefined) return this.#createAgreementIn(uow, input);
      return { id, ...(await this.#updateAgreementIn(uow, id, input)) };
    });
  }

  /** Creates a price agreement; returns its id. */
  createAgreement(input: AgreementInput): Promise<WriteResult & { id: number }> {
    return inWriteTransaction(this.database, (uow) => this.#createAgreementIn(uow, input));
  }

  /** Replaces an agreement's terms; unchanged terms leave it (and the SCN) alone. */
  async updateAgreement(id: number, input: AgreementInput): Promise<WriteResult> {
    return inWriteTransaction(this.database, async (uow) => {
      if (!(await this.#agreementDiffers(new PricingRepository(uow.db), id, input))) {
        return { scn: null, changed: 0 };
      }
      return this.#updateAgreementIn(uow, id, input);
    });
  }

  async #createAgreementIn(uow: UnitOfWork, input: AgreementInput): Promise<WriteResult & { id: number }> {
    const { row, prices } = agreementRow(input, this.now().toISOString());
    const repo = new PricingRepository(uow.db);
    await checkAgreementRefs(uow.db, input);
    const scn = await uow.scn();
    const id = await repo.insertAgreement({ ...row, scn });
    await repo.replaceAgreementPrices(id, prices);
    return { id, scn, changed: 1 };
  }

  async #agreementDiffers(repo: PricingRepository, id: number, input: AgreementInput): Promise<boolean> {
    const { row, prices } = agreementRow(input, this.now().toISOString());
    const stored = await repo.findAgreement(id);
    if (!stored || stored.deleted === 1)
      throw PRICING_ERRORS.AGREEMENT_NOT_FOUND(`No price agreement ${id}.`);
    const storedPrices = await repo.agreementPrices([id]);
    return (
      !sameRow({ ...row, id, scn: 0 }, stored, ['scn', 'created_at', 'updated_at']) ||
      !samePrices(storedPrices, prices)
    );
  }

  async #updateAgreementIn(uow: UnitOfWork, id: number, input: AgreementInput): Promise<WriteResult> {
    const { row, prices } = agreementRow(input, this.now().toISOString());
    const repo = new PricingRepository(uow.db);
    await checkAgreementRefs(uow.db, input);
    const scn = await uow.scn();
    // Checked again under the SCN lock: another writer may have made the same change meanwhile.
    if (!(await this.#agreementDiffers(repo, id, input))) return { scn, changed: 0 };
    const { created_at, ...changes } = row;
    await repo.updateAgreement(id, { ...changes, scn });
    await repo.replaceAgreementPrices(id, prices);
    return { scn, changed: 1 };
  }

  deleteAgreement(id: number): Promise<WriteResult> {
    return softDelete(
      this.database,
      this.now,
      () => PRICING_ERRORS.AGREEMENT_NOT_FOUND(`No price agreement ${id}.`),
      (repo) => ({
        find: () => repo.findAgreement(id),
        update: (scn, at) => repo.updateAgreementFlags(id, scn, at),
      }),
    );
  }

  // --- customer line discounts ----------------------------------------------------------------------

  /** B2B_GetCustomerLineDiscounts: line discounts changed after the page's SCN, of one customer or all. */
  async listLineDiscounts(page: Page, customerNo?: number): Promise<PageOf<LineDiscountWire, number>> {
    if (customerNo !== undefined) await liveCustomerTerms(this.database.db, customerNo);
    return feedPage(this.database.db, page, {
      rows: (sinceScn, from, limit) => this.#read.lineDiscountsPage(sinceScn, from, limit, customerNo),
      position: (r) => r.pos,
      live: (r) => r.deleted === 0,
      items: (live) => live.map(lineDiscountToWire),
      tombstone: (r) => r.deleted === 1,
      deletedKey: (r) => Number(r.id),
    });
  }

  async createLineDiscount(input: LineDiscountInput): Promise<WriteResult & { id: number }> {
    const row = lineDiscountRow(input, this.now().toISOString());
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new PricingRepository(uow.db);
      await liveCustomerTerms(uow.db, input.customerNo);
      const scn = await uow.scn();
      const id = await repo.insertLineDiscount({ ...row, scn });
      return { id, scn, changed: 1 };
    });
  }

  async updateLineDiscount(id: number, input: LineDiscountInput): Promise<WriteResult> {
    const row = lineDiscountRow(input, this.now().toISOString());
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new PricingRepository(uow.db);
      const differs = async () => {
        const stored = await repo.findLineDiscount(id);
        if (!stored || stored.deleted === 1)
          throw PRICING_ERRORS.LINE_DISCOUNT_NOT_FOUND(`No line discount ${id}.`);
        return !sameRow({ ...row, id, scn: 0 }, stored, ['scn', 'created_at', 'updated_at']);
      };
      if (!(await differs())) return { scn: null, changed: 0 };
      await liveCustomerTerms(uow.db, input.customerNo);
      const scn = await uow.scn();
      if (!(await differs())) return { scn, changed: 0 };
      const { created_at, ...changes } = row;
      await repo.updateLineDiscount(id, { ...changes, scn });
      return { scn, changed: 1 };
    });
  }

  deleteLineDiscount(id: number): Promise<WriteResult> {
    return softDelete(
      this.database,
      this.now,
      () => PRICING_ERRORS.LINE_DISCOUNT_NOT_FOUND(`No line discount ${id}.`),
      (repo) => ({
        find: () => repo.findLineDiscount(id),
        update: (scn, at) => repo.updateLineDiscountFlags(id, scn, at),
      }),
    );
  }
}

/** The agreement's customer and (scope ARTICLE) article exist, read over `db`. */
async function checkAgreementRefs(db: Kysely<DB>, input: AgreementInput): Promise<void> {
  if (input.customerNo !== undefined && input.customerNo !== null) {
    await liveCustomerTerms(db, input.customerNo);
  }
  if (input.scope === 'ARTICLE') {
    const a = await findArticle(db, input.scopeValue);
    if (!a || a.deleted === 1) throw CATALOG_ERRORS.ARTICLE_NOT_FOUND(`No article "${input.scopeValue}".`);
  }
}

function samePrices(
  stored: readonly AgreementPriceRow[],
  wanted: ReadonlyArray<{ currency: string; price_minor: number }>,
): boolean {
  if (stored.length !== wanted.length) return false;
  const map = new Map(stored.map((p) => [p.currency, p.price_minor]));
  return wanted.every((p) => map.get(p.currency) === p.price_minor);
}
