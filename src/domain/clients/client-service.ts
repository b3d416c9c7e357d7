import type { Database } from '../../db/database.ts';
import type { PhotoKind, PurchaseSource } from '../../db/schema-clients.ts';
import { currentScn, inWriteTransaction, type UnitOfWork } from '../../db/unit-of-work.ts';
import { ConflictError, type FieldError, NotFoundError, ValidationError } from '../errors.ts';
import { LANGUAGE_SLOTS, type LanguageText, toLanguageJson } from '../shared/language.ts';
import { CURRENCY } from '../shared/money.ts';
import type { Page, PageOf } from '../shared/paging.ts';
import { processPhoto } from './client-photo.ts';
import { ClientRepository, type ClientRow, uniqueRuleOf } from './client-repository.ts';
import {
  checkCountry,
  checkEmail,
  checkPhone,
  checkPostalCode,
  isValidDay,
  normaliseEmail,
} from './client-validation.ts';
import {
  type ActionWire,
  actionToWire,
  type ClientWire,
  clientToWire,
  fullName,
  type MemberCardInfoWire,
  type MessageWire,
  memberCardOf,
  messageToWire,
  type OnAccountWire,
  onAccountToWire,
  type PurchaseWire,
  purchasesToWire,
} from './client-wire.ts';

/**
 * Days between marking a client for deletion and anonymising its personal data (docs/clients.md).
 * Within them the client (or the shop, on the client's behalf) may take the request back.
 */
export const DELETION_GRACE_DAYS = 30;
/** New clients are numbered from here up (max + 1, under the SCN lock). */
export const FIRST_CLIENT_NO = 100_001;
/** At most this many clients are anonymised per `anonymiseDue` call (run it again for more). */
const ANONYMISE_BATCH = 1000;
const DAY_MS = 86_400_000;

export type ConsentKind = 'newsletter' | 'sms' | 'profiling';

export interface MemberCardInput {
  cardNo: string;
  level: string;
  validFrom: string;
  validTo: string;
}

/**
 * A client's data to create or change. Absent (undefined) fields keep their stored value; null
 * clears an optional one. Creating needs `email` and `lastName`.
 */
export interface ClientInput {
  clientNo?: number;
  email?: string;
  firstName?: string | null;
  middleName?: string | null;
  lastName?: string;
  phone?: string | null;
  address?: string | null;
  houseNumber?: string | null;
  postalCode?: string | null;
  city?: string | null;
  country?: string | null;
  birthDate?: string | null;
  /** A language slot: LANGUAGE_1 (default), LANGUAGE_11, LANGUAGE_2, LANGUAGE_3, LANGUAGE_4. */
  language?: string;
  /** true: given (stamped now unless already given), false: withdrawn. */
  consents?: Partial<Record<ConsentKind, boolean>>;
  homeShop?: string | null;
  /** Back office only: B2C_PostClient does not carry it. */
  memberCard?: MemberCardInput | null;
}

export interface SaveClientOptions {
  /** Back office: a given `clientNo` that does not exist yet is created with that number. */
  createWithNumber?: boolean;
}

export interface SaveClientResult {
  clientNo: number;
  created: boolean;
  /** False when the stored client already said what the input says (no SCN moved). */
  changed: boolean;
  client: ClientWire;
}

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

export interface ActionInput {
  code: string;
  description: LanguageText;
  /** Offered to this client only; null or absent: to every client. */
  clientNo?: number | null;
  /** Offered only to holders of a member card of this level. */
  memberLevel?: string | null;
  validFrom: string;
  validTo: string;
  active?: boolean;
}

export interface PhotoResult {
  clientNo: number;
  contentType: string;
  width: number;
  height: number;
  sha256: string;
  data: Buffer;
}

export interface OpenOnAccount {
  clientNo: number;
  totals: Array<{ CURRENCY: string; OPEN: number }>;
  items: OnAccountWire[];
}

const NAME_MAX = 80;
const TEXT_LIMITS = {
  firstName: NAME_MAX,
  middleName: 40,
  lastName: NAME_MAX,
  address: 120,
  houseNumber: 20,
  city: NAME_MAX,
} as const;
const CONTROL = /\p{Cc}/u;
const SHOP_CODE = /^[A-Za-z0-9._-]{1,20}$/;
const CARD_NO = /^[A-Z0-9-]{4,32}$/;
const LEVEL = /^[A-Z0-9_]{1,20}$/;
const ACTION_CODE = /^[A-Z0-9][A-Z0-9._-]{0,39}$/;
const DOCUMENT_NO = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,39}$/;
const REFERENCE = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,63}$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;
const CONSENT_COLUMNS = {
  newsletter: 'consent_newsletter_at',
  sms: 'consent_sms_at',
  profiling: 'consent_profiling_at',
} as const;

/**
 * Retail clients: contact data, consents, member cards, photos, purchases, on-account entries,
 * user messages, client actions, and the GDPR deletion path (docs/clients.md).
 *
 * Every write is one transaction that takes its SCN first: the SCN counter's row lock orders all
 * writers, so what a write checks (the e-mail is free, the action not yet claimed) is what it finds
 * when it writes. The unique indexes (e-mail, card number, claim key) stand behind those checks;
 * their violations map to the same 409s.
 *
 * Reads take the client number already scoped by the caller (src/domain/clients/client-scope.ts);
 * an anonymised client is gone for them (404 CLIENT_NOT_FOUND).
 */
export class ClientService {
  readonly #read: ClientRepository;

  constructor(
    readonly database: Database,
    readonly now: () => Date = () => new Date(),
  ) {
    this.#read = new ClientRepository(database.db);
  }

  // --- clients ---------------------------------------------------------------------------------

  async getClient(clientNo: number): Promise<ClientWire> {
    const row = await this.#liveClient(this.#read, clientNo);
    return clientToWire(row, await this.#read.hasPhoto(clientNo, 'PROFILE'), deletionDue(row));
  }

  /** The client with this e-mail address (any case), or 404. */
  async clientNoByEmail(email: string): Promise<number> {
    const no = await this.#read.clientNoByEmail(normaliseEmail(email));
    if (no === undefined) throw new NotFoundError('CLIENT_NOT_FOUND', 'No client has this e-mail address.');
    return no;
  }

  /**
   * Creates or changes a client in one transaction. Without `clientNo` a new client is made (its
   * number is the next free one); an e-mail address that is already a client's is 409 EMAIL_TAKEN,
   * also when two requests create the same address at once. With `clientNo` that client is changed
   * (404 when there is none, unless `createWithNumber`). Field errors name the input's fields
   * (`email`, `postalCode`, `consents/sms`, `memberCard/cardNo`, ...).
   */
  async saveClient(input: ClientInput, options: SaveClientOptions = {}): Promise<SaveClientResult> {
    checkClientShape(input);
    const at = this.now().toISOString();
    try {
      return await inWriteTransaction(this.database, async (uow) => {
        const repo = new ClientRepository(uow.db);
        const scn = await uow.scn();
        const stored = input.clientNo !== undefined ? await repo.findClient(input.clientNo) : undefined;
        if (
          stored?.anonymised === 1 ||
          (input.clientNo !== undefined && !stored && !options.createWithNumber)
        ) {
          throw new NotFoundError('CLIENT_NOT_FOUND', `No client ${input.clientNo}.`);
        }
        const creating = stored === undefined;
        const clientNo = creating
          ? (input.clientNo ?? Math.max(FIRST_CLIENT_NO, (await repo.maxClientNo()) + 1))
          : stored.client_no;
        const row = mergeClient(stored, input, clientNo, at, scn);

        const emailOwner = row.email_norm === null ? undefined : await repo.clientNoByEmail(row.email_norm);
        if (emailOwner !== undefined && emailOwner !== clientNo) throw emailTaken();
        const cardOwner = row.card_no === null ? undefined : await repo.clientNoByCard(row.card_no);
        if (cardOwner !== undefined && cardOwner !== clientNo) throw cardTaken(row.card_no ?? '');

        let changed = true;
        if (creating) await repo.insertClient(row);
        else if (sameClient(stored, row)) changed = false;
        else await repo.updateClient(clientNo, { ...row, created_at: stored.created_at });
        const saved = changed ? { ...row, created_at: stored?.created_at ?? at } : stored;
        if (!saved) throw new Error('unreachable');
        return {
          clientNo,
          created: creating,
          changed,
          client: clientToWire(saved, await repo.hasPhoto(clientNo, 'PROFILE'), deletionDue(saved)),
        };
      });
    } catch (error) {
      throw uniqueConflict(error) ?? error;
    }
  }

  /**
   * The GDPR request: `true` marks the client for deletion (its personal data is anonymised
   * DELETION_GRACE_DAYS later by `anonymiseDue`), `false` takes the request back. Marking again
   * keeps the first instant, so the grace period is never extended by repeating the request.
   */
  async setMarkedForDeletion(
    clientNo: number,
    marked: boolean,
  ): Promise<{
    clientNo: number;
    marked: boolean;
    markedAt: string | null;
    due: string | null;
    scn: number;
  }> {
    const at = this.now().toISOString();
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new ClientRepository(uow.db);
      const scn = await uow.scn();
      await this.#liveClient(repo, clientNo);
      await repo.setMarked(clientNo, marked, at, scn);
      const row = await this.#liveClient(repo, clientNo);
      return {
        clientNo,
        marked: row.marked_for_deletion === 1,
        markedAt: row.marked_at,
        due: deletionDue(row),
        scn: row.scn,
      };
    });
  }

  /**
   * Anonymises every client marked for deletion at least DELETION_GRACE_DAYS before `now`: names,
   * e-mail, phone, address, postal code, city, birth date, consents, member card, photos and
   * messages are removed; the client number, country, language, home shop, purchases, on-account
   * entries and action claims stay (accounting and statistics). One transaction per client, each
   * moving the client's SCN. Returns the numbers of the clients anonymised.
   */
  async anonymiseDue(now: Date = this.now()): Promise<number[]> {
    const cutoff = new Date(now.getTime() - DELETION_GRACE_DAYS * DAY_MS).toISOString();
    const at = now.toISOString();
    const done: number[] = [];
    for (;;) {
      const due = await this.#read.dueForAnonymisation(cutoff, ANONYMISE_BATCH);
      let progressed = false;
      for (const clientNo of due) {
        const anonymised = await inWriteTransaction(this.database, async (uow) =>
          new ClientRepository(uow.db).anonymise(clientNo, cutoff, at, await uow.scn()),
        );
        if (anonymised) {
          done.push(clientNo);
          progressed = true;
        }
      }
      if (due.length < ANONYMISE_BATCH || !progressed) return done;
    }
  }

  // --- member card and photos --------------------------------------------------------------------

  async memberCard(clientNo: number): Promise<MemberCardInfoWire> {
    const row = await this.#liveClient(this.#read, clientNo);
    const card = memberCardOf(row);
    if (!card) throw new NotFoundError('MEMBER_CARD_NOT_FOUND', `Client ${clientNo} has no member card.`);
    const today = this.#today();
    return {
      CLIENT: clientNo,
      ...card,
      NAME: fullName(row),
      VALID: card.VALIDFROM <= today && today <= card.VALIDTO,
      HASPHOTO: await this.#read.hasPhoto(clientNo, 'CARD'),
    };
  }

  /**
   * The client's profile photo, or its member-card version (made from the profile photo when that
   * is posted: JPEG, 420 x 540, cropped to the region of interest).
   */
  async photo(clientNo: number, kind: PhotoKind): Promise<PhotoResult> {
    await this.#liveClient(this.#read, clientNo);
    const photo = await this.#read.findPhoto(clientNo, kind);
    if (!photo) {
      throw new NotFoundError(
        'PHOTO_NOT_FOUND',
        `Client ${clientNo} has no ${kind === 'PROFILE' ? 'profile' : 'member card'} photo.`,
      );
    }
    return {
      clientNo,
      contentType: photo.content_type,
      width: photo.width,
      height: photo.height,
      sha256: photo.sha256,
      data: photo.data,
    };
  }

  /**
   * Stores a profile photo (and its member-card version) after checking and re-encoding it (see
   * processPhoto: only real JPEG/PNG/WebP, at most 2 MiB, all metadata removed). `null` removes
   * both photos. `field` names the photo in errors.
   */
  async putProfilePhoto(
    clientNo: number,
    data: Buffer | null,
    options: { declaredType?: string; field?: string } = {},
  ): Promise<{ clientNo: number; profile: Omit<PhotoResult, 'data'> | null; scn: number }> {
    const processed =
      data === null ? null : await processPhoto(data, options.field ?? 'photo', options.declaredType);
    const at = this.now().toISOString();
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new ClientRepository(uow.db);
      const scn = await uow.scn();
      await this.#liveClient(repo, clientNo);
      if (processed === null) {
        await repo.deletePhotos(clientNo);
      } else {
        for (const [kind, p] of [
          ['PROFILE', processed.profile],
          ['CARD', processed.card],
        ] as const) {
          await repo.putPhoto({
            client_no: clientNo,
            kind,
            content_type: p.contentType,
            byte_size: p.data.length,
            width: p.width,
            height: p.height,
            sha256: p.sha256,
            data: p.data,
            scn,
          });
        }
      }
      await repo.updateClient(clientNo, { scn, updated_at: at });
      const profile = processed?.profile;
      return {
        clientNo,
        scn,
        profile: profile
          ? {
              clientNo,
              contentType: profile.contentType,
              width: profile.width,
              height: profile.height,
              sha256: profile.sha256,
            }
          : null,
      };
    });
  }

  // --- purchases -------------------------------------------------------------------------------

  /** What the client bought, in shops and online, oldest first; pages and syncs by SCN. */
  async purchases(clientNo: number, page: Page): Promise<PageOf<PurchaseWire, number>> {
    const scn = await currentScn(this.database.db);
    await this.#liveClient(this.#read, clientNo);
    const rows = await this.#read.purchasesPage(clientNo, page.sinceScn, page.offset - 1, page.limit + 1);
    const more = rows.length > page.limit;
    const slice = more ? rows.slice(0, page.limit) : rows;
    const lines = await this.#read.purchaseLines(slice.map((p) => Number(p.purchase_no)));
    return {
      scn,
      nextOffset: more ? page.offset + page.limit : null,
      items: purchasesToWire(slice, lines),
      deleted: [],
    };
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
      throw new NotFoundError('CLIENT_NOT_FOUND', `No client ${input.clientNo}.`);
    }
    const existing = await repo.findPurchase(input.source, input.reference);
    if (existing) {
      if (existing.client_no !== input.clientNo) {
        throw new ConflictError(
          'PURCHASE_REFERENCE_TAKEN',
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
    await this.#liveClient(this.#read, clientNo);
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

  /** Every on-account entry, settled ones too, by document date; or the one with `documentNo`. */
  async onAccountDetail(
    clientNo: number,
    page: { offset: number; limit: number },
    documentNo?: string,
  ): Promise<{ items: OnAccountWire[]; nextOffset: number | null }> {
    await this.#liveClient(this.#read, clientNo);
    const rows = await this.#read.onAccountEntries(clientNo, {
      documentNo,
      offset: page.offset - 1,
      limit: page.limit + 1,
    });
    if (documentNo !== undefined && rows.length === 0) {
      throw new NotFoundError('DOCUMENT_NOT_FOUND', `Client ${clientNo} has no document ${documentNo}.`);
    }
    const more = rows.length > page.limit;
    return {
      items: (more ? rows.slice(0, page.limit) : rows).map(onAccountToWire),
      nextOffset: more ? page.offset + page.limit : null,
    };
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
          throw new NotFoundError('CLIENT_NOT_FOUND', `No client ${input.clientNo}.`);
        }
        const stored = await repo.findOnAccount(input.documentNo);
        if (stored && stored.client_no !== input.clientNo) {
          throw new ConflictError(
            'DOCUMENT_TAKEN',
            `Document ${input.documentNo} belongs to another client.`,
          );
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
        if (
          stored &&
          (['document_type', 'document_date', 'due_date', 'description', 'currency'] as const).every(
            (k) => stored[k] === row[k],
          ) &&
          Number(stored.amount_minor) === row.amount_minor &&
          Number(stored.open_minor) === row.open_minor
        ) {
          return { changed: false };
        }
        await repo.upsertOnAccount(row);
        return { changed: true };
      });
    } catch (error) {
      throw uniqueConflict(error) ?? error;
    }
  }

  // --- user messages ---------------------------------------------------------------------------

  /** The client's messages, newest first; listing marks nothing read. */
  async messages(
    clientNo: number,
    options: { unreadOnly: boolean; offset: number; limit: number },
  ): Promise<{ unread: number; nextOffset: number | null; items: MessageWire[] }> {
    await this.#liveClient(this.#read, clientNo);
    const rows = await this.#read.messagesPage(
      clientNo,
      options.unreadOnly,
      options.offset - 1,
      options.limit + 1,
    );
    const more = rows.length > options.limit;
    return {
      unread: await this.#read.unreadCount(clientNo),
      nextOffset: more ? options.offset + options.limit : null,
      items: (more ? rows.slice(0, options.limit) : rows).map(messageToWire),
    };
  }

  /** Reads one message: it is marked read (the first reading instant stays). */
  async readMessage(clientNo: number, messageNo: number): Promise<{ unread: number; message: MessageWire }> {
    const at = this.now().toISOString();
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new ClientRepository(uow.db);
      await this.#liveClient(repo, clientNo);
      const message = await repo.findMessage(clientNo, messageNo);
      if (!message)
        throw new NotFoundError('MESSAGE_NOT_FOUND', `Client ${clientNo} has no message ${messageNo}.`);
      if (message.read_at === null) {
        const scn = await uow.scn();
        if (await repo.markMessageRead(clientNo, messageNo, at, scn)) {
          message.read_at = at;
          message.scn = scn;
        } else {
          const again = await repo.findMessage(clientNo, messageNo);
          message.read_at = again?.read_at ?? at;
        }
      }
      return { unread: await repo.unreadCount(clientNo), message: messageToWire(message) };
    });
  }

  /** Back office: sends a message to a client. */
  async sendMessage(
    clientNo: number,
    message: { subject: string; body: string },
  ): Promise<{ messageNo: number }> {
    const errors: FieldError[] = [];
    const subject = message.subject.trim();
    const body = message.body.trim();
    if (subject.length < 1 || subject.length > 200)
      errors.push({ name: 'subject', message: 'has 1 to 200 characters' });
    if (body.length < 1 || body.length > 10_000)
      errors.push({ name: 'body', message: 'has 1 to 10000 characters' });
    if (errors.length > 0) throw new ValidationError(errors);
    const at = this.now().toISOString();
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new ClientRepository(uow.db);
      const scn = await uow.scn();
      await this.#liveClient(repo, clientNo);
      const messageNo = await repo.insertMessage({
        client_no: clientNo,
        subject,
        body,
        sent_at: at,
        read_at: null,
        scn,
      });
      return { messageNo };
    });
  }

  // --- client actions --------------------------------------------------------------------------

  /** Actions offered to the client today (UTC), with whether (and when) it claimed each. */
  async actions(clientNo: number): Promise<ActionWire[]> {
    const row = await this.#liveClient(this.#read, clientNo);
    const rows = await this.#read.offeredActions(clientNo, validCardLevel(row, this.#today()), this.#today());
    return rows.map(actionToWire);
  }

  /**
   * Claims an action for a client, once: of any number of claims (also concurrent ones) exactly
   * one succeeds; the others are 409 ACTION_ALREADY_CLAIMED. An action not offered to this client is
   * 404 ACTION_NOT_FOUND, one offered but not valid today 409 ACTION_NOT_VALID.
   */
  async claimAction(clientNo: number, code: string): Promise<ActionWire> {
    const now = this.now();
    const at = now.toISOString();
    const today = at.slice(0, 10);
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new ClientRepository(uow.db);
      const scn = await uow.scn();
      const client = await this.#liveClient(repo, clientNo);
      const action = await repo.findAction(code);
      const level = validCardLevel(client, today);
      if (
        action?.active !== 1 ||
        (action.client_no !== null && action.client_no !== clientNo) ||
        (action.member_level !== null && action.member_level !== level)
      ) {
        throw new NotFoundError('ACTION_NOT_FOUND', `No action "${code}" for client ${clientNo}.`);
      }
      if (today < action.valid_from || today > action.valid_to) {
        throw new ConflictError(
          'ACTION_NOT_VALID',
          `Action ${code} runs from ${action.valid_from} to ${action.valid_to}.`,
        );
      }
      const claimedAt = await repo.insertClaim(code, clientNo, at, scn);
      if (claimedAt === undefined) {
        throw new ConflictError(
          'ACTION_ALREADY_CLAIMED',
          `Client ${clientNo} already claimed action ${code}.`,
        );
      }
      return actionToWire({ ...action, claimed_at: claimedAt });
    });
  }

  /** Back office: defines or changes a client action. */
  async saveAction(input: ActionInput): Promise<void> {
    const errors: FieldError[] = [];
    if (!ACTION_CODE.test(input.code))
      errors.push({ name: 'code', message: 'use 1 to 40 capitals, digits or . _ -' });
    if (!isValidDay(input.validFrom))
      errors.push({ name: 'validFrom', message: 'must be a date YYYY-MM-DD' });
    if (!isValidDay(input.validTo)) errors.push({ name: 'validTo', message: 'must be a date YYYY-MM-DD' });
    else if (input.validTo < input.validFrom)
      errors.push({ name: 'validTo', message: 'is before validFrom' });
    if (input.memberLevel != null && !LEVEL.test(input.memberLevel)) {
      errors.push({ name: 'memberLevel', message: 'use 1 to 20 capitals, digits or _' });
    }
    if (!Object.values(input.description).some((t) => t && t.trim() !== '')) {
      errors.push({ name: 'description', message: 'give a text in at least one language' });
    }
    if (errors.length > 0) throw new ValidationError(errors);
    const at = this.now().toISOString();
    await inWriteTransaction(this.database, async (uow) => {
      const repo = new ClientRepository(uow.db);
      const scn = await uow.scn();
      if (input.clientNo != null && !(await repo.findClient(input.clientNo))) {
        throw new ValidationError([{ name: 'clientNo', message: `no client ${input.clientNo}` }]);
      }
      const stored = await repo.findAction(input.code);
      await repo.upsertAction({
        action_code: input.code,
        description: toLanguageJson(input.description),
        client_no: input.clientNo ?? null,
        member_level: input.memberLevel ?? null,
        valid_from: input.validFrom,
        valid_to: input.validTo,
        active: input.active === false ? 0 : 1,
        scn,
        created_at: stored?.created_at ?? at,
        updated_at: at,
      });
    });
  }

  // --- helpers ---------------------------------------------------------------------------------

  async #liveClient(repo: ClientRepository, clientNo: number): Promise<ClientRow> {
    const row = await repo.findClient(clientNo);
    if (!row || row.anonymised === 1) throw new NotFoundError('CLIENT_NOT_FOUND', `No client ${clientNo}.`);
    return row;
  }

  #today(): string {
    return this.now().toISOString().slice(0, 10);
  }
}

// --- rules -------------------------------------------------------------------------------------

function emailTaken(): ConflictError {
  return new ConflictError('EMAIL_TAKEN', 'This e-mail address belongs to another client.');
}

function cardTaken(cardNo: string): ConflictError {
  return new ConflictError('CARD_TAKEN', `Member card ${cardNo} belongs to another client.`);
}

/** The 409 for a unique index a concurrent writer got to first. */
function uniqueConflict(error: unknown): ConflictError | undefined {
  switch (uniqueRuleOf(error)) {
    case 'email':
      return emailTaken();
    case 'card':
      return new ConflictError('CARD_TAKEN', 'This member card number belongs to another client.');
    case 'client_no':
      return new ConflictError('CLIENT_EXISTS', 'A client with this number was created at the same time.');
    case 'document_no':
      return new ConflictError('DOCUMENT_TAKEN', 'This document number was recorded at the same time.');
    default:
      return undefined;
  }
}

export function deletionDue(row: Pick<ClientRow, 'marked_for_deletion' | 'marked_at'>): string | null {
  if (row.marked_for_deletion !== 1 || row.marked_at === null) return null;
  return new Date(new Date(row.marked_at).getTime() + DELETION_GRACE_DAYS * DAY_MS).toISOString();
}

/** The member level that counts today: a card's level while the card is valid. */
function validCardLevel(row: ClientRow, today: string): string | null {
  if (row.card_no === null || row.card_valid_from === null || row.card_valid_to === null) return null;
  return row.card_valid_from <= today && today <= row.card_valid_to ? row.card_level : null;
}

/** Checks that need no stored data (types, lengths, formats) before a transaction is opened. */
function checkClientShape(input: ClientInput): void {
  const errors: FieldError[] = [];
  if (input.clientNo !== undefined && (!Number.isSafeInteger(input.clientNo) || input.clientNo < 1)) {
    errors.push({ name: 'clientNo', message: 'must be 1 or more' });
  }
  if (input.clientNo === undefined) {
    if (input.email === undefined) errors.push({ name: 'email', message: 'is required for a new client' });
    if (input.lastName === undefined)
      errors.push({ name: 'lastName', message: 'is required for a new client' });
  }
  for (const [field, max] of Object.entries(TEXT_LIMITS) as Array<[keyof typeof TEXT_LIMITS, number]>) {
    const value = input[field];
    if (value == null) continue;
    if (value.trim().length > max) errors.push({ name: field, message: `has at most ${max} characters` });
    else if (CONTROL.test(value)) errors.push({ name: field, message: 'holds control characters' });
  }
  if (input.lastName !== undefined && input.lastName.trim() === '') {
    errors.push({ name: 'lastName', message: 'is required' });
  }
  if (input.email !== undefined) {
    const email = checkEmail(input.email);
    if (!email.ok) errors.push({ name: 'email', message: email.message });
  }
  if (input.country != null && input.country.trim() !== '') {
    const country = checkCountry(input.country);
    if (!country.ok) errors.push({ name: 'country', message: country.message });
  }
  if (input.birthDate != null && input.birthDate !== '') {
    if (!isValidDay(input.birthDate))
      errors.push({ name: 'birthDate', message: 'must be a date YYYY-MM-DD' });
    else if (input.birthDate < '1900-01-01') errors.push({ name: 'birthDate', message: 'is before 1900' });
  }
  if (input.language !== undefined && !(LANGUAGE_SLOTS as readonly string[]).includes(input.language)) {
    errors.push({ name: 'language', message: `must be one of ${LANGUAGE_SLOTS.join(', ')}` });
  }
  if (input.homeShop != null && input.homeShop !== '' && !SHOP_CODE.test(input.homeShop)) {
    errors.push({ name: 'homeShop', message: 'must be a shop code: 1 to 20 letters, digits or . _ -' });
  }
  const card = input.memberCard;
  if (card) {
    if (!CARD_NO.test(card.cardNo))
      errors.push({ name: 'memberCard/cardNo', message: 'use 4 to 32 capitals, digits or -' });
    if (!LEVEL.test(card.level))
      errors.push({ name: 'memberCard/level', message: 'use 1 to 20 capitals, digits or _' });
    if (!isValidDay(card.validFrom))
      errors.push({ name: 'memberCard/validFrom', message: 'must be a date YYYY-MM-DD' });
    if (!isValidDay(card.validTo))
      errors.push({ name: 'memberCard/validTo', message: 'must be a date YYYY-MM-DD' });
    else if (card.validTo < card.validFrom)
      errors.push({ name: 'memberCard/validTo', message: 'is before validFrom' });
  }
  if (errors.length > 0) throw new ValidationError(errors);
}

const clean = (value: string | null | undefined): string | null => {
  if (value == null) return null;
  const trimmed = value.trim().replace(/\s+/g, ' ');
  return trimmed === '' ? null : trimmed;
};

/**
 * The stored row with the input applied, normalised (e-mail trimmed, phone E.164, postal code in
 * its country's form) and checked as a whole: a changed country re-checks the stored postal code.
 */
function mergeClient(
  stored: ClientRow | undefined,
  input: ClientInput,
  clientNo: number,
  at: string,
  scn: number,
): ClientRow {
  const pick = <K extends keyof ClientInput, C extends keyof ClientRow>(
    key: K,
    column: C,
  ): ClientRow[C] | string | null =>
    input[key] === undefined ? (stored?.[column] ?? null) : clean(input[key] as string | null);

  const country =
    input.country === undefined ? (stored?.country ?? null) : (clean(input.country)?.toUpperCase() ?? null);
  const email = input.email === undefined ? (stored?.email ?? null) : input.email.trim();
  const errors: FieldError[] = [];

  let phone = pick('phone', 'phone') as string | null;
  if (phone !== null && (input.phone !== undefined || input.country !== undefined)) {
    const checked = checkPhone(phone, country);
    if (checked.ok) phone = checked.value;
    else errors.push({ name: 'phone', message: checked.message });
  }
  let postalCode = pick('postalCode', 'postal_code') as string | null;
  if (postalCode !== null && (input.postalCode !== undefined || input.country !== undefined)) {
    const checked = checkPostalCode(postalCode, country);
    if (checked.ok) postalCode = checked.value;
    else errors.push({ name: 'postalCode', message: checked.message });
  }
  if (errors.length > 0) throw new ValidationError(errors);

  const consentAt = (kind: ConsentKind): string | null => {
    const column = CONSENT_COLUMNS[kind];
    const given = input.consents?.[kind];
    if (given === undefined) return stored?.[column] ?? null;
    return given ? (stored?.[column] ?? at) : null;
  };
  const card = input.memberCard === undefined ? undefined : input.memberCard;

  return {
    client_no: clientNo,
    email,
    email_norm: email === null ? null : normaliseEmail(email),
    first_name: pick('firstName', 'first_name') as string | null,
    middle_name: pick('middleName', 'middle_name') as string | null,
    last_name: pick('lastName', 'last_name') as string | null,
    phone,
    address: pick('address', 'address') as string | null,
    house_number: pick('houseNumber', 'house_number') as string | null,
    postal_code: postalCode,
    city: pick('city', 'city') as string | null,
    country,
    birth_date: input.birthDate === undefined ? (stored?.birth_date ?? null) : clean(input.birthDate),
    language: input.language ?? stored?.language ?? 'LANGUAGE_1',
    consent_newsletter_at: consentAt('newsletter'),
    consent_sms_at: consentAt('sms'),
    consent_profiling_at: consentAt('profiling'),
    card_no: card === undefined ? (stored?.card_no ?? null) : (card?.cardNo ?? null),
    card_level: card === undefined ? (stored?.card_level ?? null) : (card?.level ?? null),
    card_valid_from: card === undefined ? (stored?.card_valid_from ?? null) : (card?.validFrom ?? null),
    card_valid_to: card === undefined ? (stored?.card_valid_to ?? null) : (card?.validTo ?? null),
    home_shop: input.homeShop === undefined ? (stored?.home_shop ?? null) : clean(input.homeShop),
    marked_for_deletion: stored?.marked_for_deletion ?? 0,
    marked_at: stored?.marked_at ?? null,
    anonymised: 0,
    anonymised_at: null,
    scn,
    created_at: stored?.created_at ?? at,
    updated_at: at,
  };
}

const COMPARED: Array<keyof ClientRow> = [
  'email',
  'first_name',
  'middle_name',
  'last_name',
  'phone',
  'address',
  'house_number',
  'postal_code',
  'city',
  'country',
  'birth_date',
  'language',
  'consent_newsletter_at',
  'consent_sms_at',
  'consent_profiling_at',
  'card_no',
  'card_level',
  'card_valid_from',
  'card_valid_to',
  'home_shop',
];

function sameClient(stored: ClientRow, wanted: ClientRow): boolean {
  return COMPARED.every((k) => stored[k] === wanted[k]);
}

function checkPurchase(input: PurchaseInput): void {
  const errors: FieldError[] = [];
  if (input.source !== 'SHOP' && input.source !== 'WEB')
    errors.push({ name: 'source', message: 'is SHOP or WEB' });
  if (!REFERENCE.test(input.reference))
    errors.push({ name: 'reference', message: 'use 1 to 64 letters, digits or . _ / -' });
  if (input.shopCode != null && !SHOP_CODE.test(input.shopCode))
    errors.push({ name: 'shopCode', message: 'is not a shop code' });
  if (!ISO_INSTANT.test(input.purchasedAt) || Number.isNaN(Date.parse(input.purchasedAt))) {
    errors.push({ name: 'purchasedAt', message: 'must be an instant YYYY-MM-DDTHH:mm:ssZ' });
  }
  if (!CURRENCY.test(input.currency)) errors.push({ name: 'currency', message: 'must be an ISO 4217 code' });
  if (input.lines.length === 0) errors.push({ name: 'lines', message: 'a purchase has at least one line' });
  for (const [i, l] of input.lines.entries()) {
    if (!Number.isSafeInteger(l.quantity) || l.quantity === 0)
      errors.push({ name: `lines/${i}/quantity`, message: 'must be a whole number, not 0' });
    if (!Number.isSafeInteger(l.unitPriceMinor))
      errors.push({ name: `lines/${i}/unitPriceMinor`, message: 'must be whole minor units' });
    if (!Number.isSafeInteger(l.amountMinor))
      errors.push({ name: `lines/${i}/amountMinor`, message: 'must be whole minor units' });
    if (l.articleNo.trim() === '') errors.push({ name: `lines/${i}/articleNo`, message: 'is required' });
    if (l.sizex.trim() === '') errors.push({ name: `lines/${i}/sizex`, message: 'is required' });
  }
  if (errors.length > 0) throw new ValidationError(errors);
}

function checkOnAccount(input: OnAccountInput): void {
  const errors: FieldError[] = [];
  if (!DOCUMENT_NO.test(input.documentNo))
    errors.push({ name: 'documentNo', message: 'use 1 to 40 letters, digits or . _ / -' });
  if (!(ON_ACCOUNT_TYPES as readonly string[]).includes(input.documentType)) {
    errors.push({ name: 'documentType', message: `is one of ${ON_ACCOUNT_TYPES.join(', ')}` });
  }
  if (!isValidDay(input.documentDate))
    errors.push({ name: 'documentDate', message: 'must be a date YYYY-MM-DD' });
  if (input.dueDate != null && !isValidDay(input.dueDate))
    errors.push({ name: 'dueDate', message: 'must be a date YYYY-MM-DD' });
  if (!CURRENCY.test(input.currency)) errors.push({ name: 'currency', message: 'must be an ISO 4217 code' });
  if ((input.description ?? '').length > 200)
    errors.push({ name: 'description', message: 'has at most 200 characters' });
  if (!Number.isSafeInteger(input.amountMinor) || input.amountMinor === 0) {
    errors.push({ name: 'amountMinor', message: 'must be whole minor units, not 0' });
  } else if (
    !Number.isSafeInteger(input.openMinor) ||
    Math.sign(input.openMinor) * Math.sign(input.amountMinor) < 0 ||
    Math.abs(input.openMinor) > Math.abs(input.amountMinor)
  ) {
    errors.push({ name: 'openMinor', message: 'must have the sign of the amount and not exceed it' });
  }
  if (errors.length > 0) throw new ValidationError(errors);
}
