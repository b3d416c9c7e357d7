import type { Database } from '../../kernel/db/database.ts';
import { inWriteTransaction, type UnitOfWork } from '../../kernel/db/unit-of-work.ts';
import { type FieldError, ValidationError } from '../../kernel/errors.ts';
import { feedPage, splitPage } from '../../kernel/feed-page.ts';
import { CURRENCY } from '../../kernel/money.ts';
import type { Page, PageOf } from '../../kernel/paging.ts';
import { writeChanged } from '../../kernel/write-changed.ts';
import { liveClient, SHOP_CODE, uniqueConflict } from './client-common.ts';
import { ClientRepository } from './client-repository.ts';
import { isValidDay } from './client-validation.ts';
import { type OnAccountWire, onAccountToWire, type PurchaseWire, purchasesToWire } from './client-wire.ts';
import { CLIENTS_ERRORS } from './errors.ts';
import type { PurchaseSource } from './tables.ts';

export interface PurchaseLineInput {
  articleNo: string;
  sizex: string;
  quantity: number;
  /** Price of one unit, minor units. */
  unitPriceMinor: number;
  /** What the line cost after discounts, minor units. */
  amountMinor: number;
}

export interface PurchaseInput {
  clientNo: number;
  source: PurchaseSource;
  shopCode?: string | null;
  /** Receipt or web order number: recording the same (source, reference) again records nothing. */
  reference: string;
  /** ISO 8601 instant. */
  purchasedAt: string;
  currency: string;
  lines: PurchaseLineInput[];
}

export const ON_ACCOUNT_TYPES = ['INVOICE', 'CREDITNOTE', 'PAYMENT', 'OTHER'] as const;
export type OnAccountType = (typeof ON_ACCOUNT_TYPES)[number];

export interface OnAccountInput {
  clientNo: number;
  documentNo: string;
  documentType: OnAccountType;
  documentDate: string;
  dueDate?: string | null;
  description?: string;
  currency: string;
  /** Minor units; negative for credit notes and payments. */
  amountMinor: number;
  /** What is still open, minor units: same sign as the amount and not beyond it; 0 when settled. */
  openMinor: number;
}

export interface OpenOnAccount {
  clientNo: number;
  totals: Array<{ CURRENCY: string; OPEN: number }>;
  items: OnAccountWire[];
}

const REFERENCE = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,63}$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;

/**
 * A retail client's purchases (shops and online) and on-account entries (docs/clients.md). Every
 * write is one transaction that takes its SCN first.
 */
export class ClientPurchaseService {
  readonly #read: ClientRepository;

  readonly database: Database;
  readonly now: () => Date;

  constructor(database: Database, now: () => Date = () => new Date()) {
    this.database = database;
    this.now = now;
    this.#read = new ClientRepository(database.db);
  }

  /**
   * What the client bought, in shops and online, oldest first (in purchase number order); pages by
   * stable position (the purchase number: NEXTOFFSET is the next purchase's number) and syncs by SCN.
   */
  purchases(clientNo: number, page: Page): Promise<PageOf<PurchaseWire, number>> {
    return feedPage(this.database.db, page, {
      rows: async (sinceScn, from, limit) => {
        await liveClient(this.#read, clientNo);
        return this.#read.purchasesPage(clientNo, sinceScn, from, limit);
      },
      // The purchase number is the stable position: the database's, never reused.
      position: (p) => p.purchase_no,
      // Purchases are never deleted: every row is shown, DELETED stays empty.
      live: () => true,
      items: async (rows) =>
        purchasesToWire(rows, await this.#read.purchaseLines(rows.map((p) => Number(p.purchase_no)))),
      tombstone: () => false,
      deletedKey: (p) => Number(p.purchase_no),
    });
  }

  /** Records a purchase in its own transaction; see recordPurchaseIn. */
  recordPurchase(input: PurchaseInput): Promise<{ purchaseNo: number; recorded: boolean }> {
    return inWriteTransaction(this.database, (uow) => this.recordPurchaseIn(uow, input));
  }

  /**
   * Records a purchase inside the caller's transaction (the orders area, when an order is closed or
   * a shop sale booked). Idempotent by (source, reference): recording the same purchase again
   * returns the first one with `recorded: false`; the same reference for another client is 409.
   * The total is the sum of the line amounts.
   */
  async recordPurchaseIn(
    uow: UnitOfWork,
    input: PurchaseInput,
  ): Promise<{ purchaseNo: number; recorded: boolean }> {
    checkPurchase(input);
    const repo = new ClientRepository(uow.db);
    const scn = await uow.scn();
    if (!(await repo.findClient(input.clientNo))) {
      throw CLIENTS_ERRORS.CLIENT_NOT_FOUND(`No client ${input.clientNo}.`);
    }
    const existing = await repo.findPurchase(input.source, input.reference);
    if (existing) {
      if (existing.client_no !== input.clientNo) {
        throw CLIENTS_ERRORS.PURCHASE_REFERENCE_TAKEN(
          `${input.source} purchase ${input.reference} belongs to another client.`,
        );
      }
      return { purchaseNo: Number(existing.purchase_no), recorded: false };
    }
    const purchaseNo = await repo.insertPurchase(
      {
        client_no: input.clientNo,
        source: input.source,
        shop_code: input.shopCode ?? null,
        reference: input.reference,
        purchased_at: new Date(input.purchasedAt).toISOString(),
        currency: input.currency,
        total_minor: input.lines.reduce((sum, l) => sum + l.amountMinor, 0),
        scn,
      },
      input.lines.map((l, i) => ({
        line_no: i + 1,
        article_no: l.articleNo,
        sizex: l.sizex,
        quantity: l.quantity,
        unit_price_minor: l.unitPriceMinor,
        amount_minor: l.amountMinor,
      })),
    );
    return { purchaseNo, recorded: true };
  }

  // --- on-account entries ----------------------------------------------------------------------

  /** Open on-account items (open amount not 0) and the open total per currency. */
  async openOnAccount(clientNo: number): Promise<OpenOnAccount> {
    await liveClient(this.#read, clientNo);
    const rows = await this.#read.onAccountEntries(clientNo, { openOnly: true });
    const totals = new Map<string, number>();
    for (const r of rows) totals.set(r.currency, (totals.get(r.currency) ?? 0) + Number(r.open_minor));
    return {
      clientNo,
      totals: [...totals.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([currency, open]) => ({ CURRENCY: currency, OPEN: open / 100 })),
      items: rows.map(onAccountToWire),
    };
  }

  /**
   * Every on-account entry, settled ones too, by document date; or the one with `documentNo`. Pages
   * by counting offset, not by stable position: the order is the documents' dates (a business order
   * a new or corrected entry may fall anywhere in), not the order entries were stored in; entries are
   * never deleted, so no page comes back short.
   */
  async onAccountDetail(
    clientNo: number,
    page: { offset: number; limit: number },
    documentNo?: string,
  ): Promise<{ items: OnAccountWire[]; nextOffset: number | null }> {
    await liveClient(this.#read, clientNo);
    const rows = await this.#read.onAccountEntries(clientNo, {
      documentNo,
      offset: page.offset - 1,
      limit: page.limit + 1,
    });
    if (documentNo !== undefined && rows.length === 0) {
      throw CLIENTS_ERRORS.DOCUMENT_NOT_FOUND(`Client ${clientNo} has no document ${documentNo}.`);
    }
    const shown = splitPage(rows, page);
    return { items: shown.rows.map(onAccountToWire), nextOffset: shown.nextOffset };
  }

  /** Back office: creates or changes an on-account entry, keyed by its document number. */
  async saveOnAccountEntry(input: OnAccountInput): Promise<{ changed: boolean }> {
    checkOnAccount(input);
    const at = this.now().toISOString();
    try {
      return await inWriteTransaction(this.database, async (uow) => {
        const repo = new ClientRepository(uow.db);
        const scn = await uow.scn();
        if (!(await repo.findClient(input.clientNo))) {
          throw CLIENTS_ERRORS.CLIENT_NOT_FOUND(`No client ${input.clientNo}.`);
        }
        const stored = await repo.findOnAccount(input.documentNo);
        if (stored && stored.client_no !== input.clientNo) {
          throw CLIENTS_ERRORS.DOCUMENT_TAKEN(`Document ${input.documentNo} belongs to another client.`);
        }
        const row = {
          client_no: input.clientNo,
          document_no: input.documentNo,
          document_type: input.documentType,
          document_date: input.documentDate,
          due_date: input.dueDate ?? null,
          description: input.description ?? '',
          currency: input.currency,
          amount_minor: input.amountMinor,
          open_minor: input.openMinor,
          scn,
          created_at: stored?.created_at ?? at,
          updated_at: at,
        };
        const { written } = await writeChanged(uow, [{ wanted: row, stored }], {
          write: async (changed) => {
            for (const c of changed) await repo.upsertOnAccount(c.wanted);
          },
        });
        return { changed: written === 1 };
      });
    } catch (error) {
      throw uniqueConflict(error) ?? error;
    }
  }
}

/**
 * A purchase comes from the caller's own records (the orders area), not from a request: its
 * checks are all here, naming fields by their pointers in the purchase's written form
 * (B2C_GetClient_Purchase: `/REFERENCE`, `/LINES/0/QUANTITY`).
 */
function checkPurchase(input: PurchaseInput): void {
  const errors: FieldError[] = [];
  if (input.source !== 'SHOP' && input.source !== 'WEB')
    errors.push({ name: '/SOURCE', message: 'is SHOP or WEB' });
  if (!REFERENCE.test(input.reference))
    errors.push({ name: '/REFERENCE', message: 'use 1 to 64 letters, digits or . _ / -' });
  if (input.shopCode != null && !SHOP_CODE.test(input.shopCode))
    errors.push({ name: '/SHOP', message: 'is not a shop code' });
  if (!ISO_INSTANT.test(input.purchasedAt) || Number.isNaN(Date.parse(input.purchasedAt))) {
    errors.push({ name: '/DATE', message: 'must be an instant YYYY-MM-DDTHH:mm:ssZ' });
  }
  if (!CURRENCY.test(input.currency)) errors.push({ name: '/CURRENCY', message: 'must be an ISO 4217 code' });
  if (input.lines.length === 0) errors.push({ name: '/LINES', message: 'a purchase has at least one line' });
  for (const [i, l] of input.lines.entries()) {
    if (!Number.isSafeInteger(l.quantity) || l.quantity === 0)
      errors.push({ name: `/LINES/${i}/QUANTITY`, message: 'must be a whole number, not 0' });
    if (!Number.isSafeInteger(l.unitPriceMinor))
      errors.push({ name: `/LINES/${i}/PRICE`, message: 'must be whole minor units' });
    if (!Number.isSafeInteger(l.amountMinor))
      errors.push({ name: `/LINES/${i}/AMOUNT`, message: 'must be whole minor units' });
    if (l.articleNo.trim() === '') errors.push({ name: `/LINES/${i}/ARTICLE`, message: 'is required' });
    if (l.sizex.trim() === '') errors.push({ name: `/LINES/${i}/SIZEX`, message: 'is required' });
  }
  if (errors.length > 0) throw new ValidationError(errors);
}

/**
 * The rules of an on-account item its request schema (OnAccountBody, and the document number in
 * the admin route's path) cannot state: days that exist, and amounts in minor units that agree.
 */
function checkOnAccount(input: OnAccountInput): void {
  const errors: FieldError[] = [];
  if (!isValidDay(input.documentDate))
    errors.push({ name: '/DOCUMENTDATE', message: 'must be a date YYYY-MM-DD' });
  if (input.dueDate != null && !isValidDay(input.dueDate))
    errors.push({ name: '/DUEDATE', message: 'must be a date YYYY-MM-DD' });
  if (!Number.isSafeInteger(input.amountMinor) || input.amountMinor === 0) {
    errors.push({ name: '/AMOUNT', message: 'must be whole minor units, not 0' });
  } else if (
    !Number.isSafeInteger(input.openMinor) ||
    Math.sign(input.openMinor) * Math.sign(input.amountMinor) < 0 ||
    Math.abs(input.openMinor) > Math.abs(input.amountMinor)
  ) {
    errors.push({ name: '/OPEN', message: 'must have the sign of the amount and not exceed it' });
  }
  if (errors.length > 0) throw new ValidationError(errors);
}
