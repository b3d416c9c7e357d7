import type { Database } from '../../kernel/db/database.ts';
import { inOneStatement, inWriteTransaction } from '../../kernel/db/unit-of-work.ts';
import type { ConflictError } from '../../kernel/errors.ts';
import { writeChanged } from '../../kernel/write-changed.ts';
import { emailTaken, liveClient, today, uniqueConflict } from './client-common.ts';
import { processPhoto } from './client-photo.ts';
import { type ClientInput, checkClientInput, mergeClient, sameClient } from './client-profile-rules.ts';
import { ClientRepository, type ClientRow } from './client-repository.ts';
import { normaliseEmail } from './client-validation.ts';
import {
  type ClientWire,
  clientToWire,
  fullName,
  type MemberCardInfoWire,
  memberCardOf,
} from './client-wire.ts';
import { CLIENTS_ERRORS } from './errors.ts';
import type { PhotoKind } from './tables.ts';

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

export interface PhotoResult {
  clientNo: number;
  contentType: string;
  width: number;
  height: number;
  sha256: string;
  data: Buffer;
}

/**
 * Retail clients (docs/clients.md): contact data, consents, member cards, photos and the GDPR
 * deletion path. Purchases and on-account entries (ClientPurchaseService) and user messages and
 * client actions (ClientMessageService) have their own services beside this one.
 *
 * Every write is one transaction that takes its SCN first: the SCN counter's row lock orders all
 * writers, so what a write checks (the e-mail is free) is what it finds when it writes. The unique
 * indexes (e-mail, card number) stand behind those checks; their violations map to the same 409s.
 *
 * Reads take the client number already scoped by the caller (clientScope, src/kernel/access.ts);
 * an anonymised client is gone for them (404 CLIENT_NOT_FOUND).
 */
export class ClientService {
  readonly #read: ClientRepository;

  readonly database: Database;
  readonly now: () => Date;

  constructor(database: Database, now: () => Date = () => new Date()) {
    this.database = database;
    this.now = now;
    this.#read = new ClientRepository(database.db);
  }

  async getClient(clientNo: number): Promise<ClientWire> {
    const row = await liveClient(this.#read, clientNo);
    return clientToWire(row, await this.#read.hasPhoto(clientNo, 'PROFILE'), deletionDue(row));
  }

  /**
   * The client's name, address and e-mail, as `getClient` answers them (404 for an unknown or
   * anonymised client), in one statement: what an order needs of its client, without the photo
   * look-up of the full answer.
   */
  async contactOf(
    clientNo: number,
  ): Promise<
    Pick<
      ClientWire,
      | 'FIRSTNAME'
      | 'MIDDLENAME'
      | 'LASTNAME'
      | 'ADDRESS'
      | 'HOUSENUMBER'
      | 'POSTALCODE'
      | 'CITY'
      | 'COUNTRY'
      | 'EMAIL'
    >
  > {
    const row = await liveClient(this.#read, clientNo);
    return clientToWire(row, false, null);
  }

  /** The client with this e-mail address (any case), or 404. */
  async clientNoByEmail(email: string): Promise<number> {
    const no = await this.#read.clientNoByEmail(normaliseEmail(email));
    if (no === undefined) throw CLIENTS_ERRORS.CLIENT_NOT_FOUND('No client has this e-mail address.');
    return no;
  }

  /** SQLite: the next number (under BEGIN IMMEDIATE; on PostgreSQL the sequence numbers them: #create). */
  async #nextClientNo(repo: ClientRepository): Promise<number> {
    return Math.max(FIRST_CLIENT_NO, (await repo.maxClientNo()) + 1);
  }

  /**
   * Creates or changes a client in one transaction. Without `clientNo` a new client is made (its
   * number is the next free one); an e-mail address that is already a client's is 409 EMAIL_TAKEN,
   * also when two requests create the same address at once. With `clientNo` that client is changed
   * (404 when there is none, unless `createWithNumber`). The shapes are the request schema's; field
   * errors name the fields by their pointers in the client record (`/EMAIL`, `/POSTALCODE`,
   * `/MEMBERCARD/VALIDTO`), which a caller that sent it under a root places there (withRoot).
   */
  async saveClient(input: ClientInput, options: SaveClientOptions = {}): Promise<SaveClientResult> {
    checkClientInput(input);
    const at = this.now().toISOString();
    if (input.clientNo === undefined && this.database.engine === 'postgres') return this.#create(input, at);
    try {
      return await inWriteTransaction(this.database, async (uow) => {
        const repo = new ClientRepository(uow.db);
        // A new client without a number (here SQLite's; PostgreSQL's is #create) reads nothing it
        // then changes: BEGIN IMMEDIATE orders its number, and the unique e-mail and card indexes
        // guard the rest, so it stamps. A change of a client reads, merges and writes the row, and
        // takes the SCN first so no concurrent change is lost.
        const fresh = input.clientNo === undefined;
        const scn = fresh ? await uow.stamp() : await uow.scn();
        const stored = input.clientNo !== undefined ? await repo.findClient(input.clientNo) : undefined;
        if (
          stored?.anonymised === 1 ||
          (input.clientNo !== undefined && !stored && !options.createWithNumber)
        ) {
          throw CLIENTS_ERRORS.CLIENT_NOT_FOUND(`No client ${input.clientNo}.`);
        }
        const creating = stored === undefined;
        const clientNo = creating ? (input.clientNo ?? (await this.#nextClientNo(repo))) : stored.client_no;
        if (creating && !fresh && this.database.engine === 'postgres') await repo.clientNoTaken(clientNo);
        const row = mergeClient(stored, input, clientNo, at, scn);

        // A new client's e-mail and card are guarded by their unique indexes alone (the insert's
        // violation is mapped to 409 by uniqueConflict below); a change looks first, so that the
        // answer names the conflict before anything is written.
        if (!fresh) {
          const emailOwner = row.email_norm === null ? undefined : await repo.clientNoByEmail(row.email_norm);
          if (emailOwner !== undefined && emailOwner !== clientNo) throw emailTaken();
          const cardOwner = row.card_no === null ? undefined : await repo.clientNoByCard(row.card_no);
          if (cardOwner !== undefined && cardOwner !== clientNo) throw cardTaken(row.card_no ?? '');
        }

        // The row carries the SCN taken first; writeChanged only decides whether to write it.
        const { written } = await writeChanged(uow, [{ wanted: row, stored }], {
          same: (wanted, old) => old !== undefined && sameClient(old, wanted),
          write: async () => {
            if (stored) await repo.updateClient(clientNo, { ...row, created_at: stored.created_at });
            else await repo.insertClient(row);
          },
        });
        const changed = written === 1;
        const saved = changed ? { ...row, created_at: stored?.created_at ?? at } : stored;
        if (!saved) throw new Error('unreachable');
        return {
          clientNo,
          created: creating,
          changed,
          // a client created now has no photo yet (photos belong to a client row)
          client: clientToWire(
            saved,
            !creating && (await repo.hasPhoto(clientNo, 'PROFILE')),
            deletionDue(saved),
          ),
        };
      });
    } catch (error) {
      throw uniqueConflict(error) ?? error;
    }
  }

  /**
   * PostgreSQL: a new client without a number of its own is one statement (decision 46), run on its
   * own without BEGIN and COMMIT: it reads nothing it then changes (saveClient, below).
   */
  async #create(input: ClientInput, at: string): Promise<SaveClientResult> {
    const row = mergeClient(undefined, input, 0, at, 0);
    try {
      const { clientNo, scn } = await inOneStatement(this.database, (db) =>
        new ClientRepository(db).insertNewClient(row),
      );
      const saved = { ...row, client_no: clientNo, scn };
      return {
        clientNo,
        created: true,
        changed: true,
        client: clientToWire(saved, false, deletionDue(saved)),
      };
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
      await liveClient(repo, clientNo);
      await repo.setMarked(clientNo, marked, at, scn);
      const row = await liveClient(repo, clientNo);
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
    const row = await liveClient(this.#read, clientNo);
    const card = memberCardOf(row);
    if (!card) throw CLIENTS_ERRORS.MEMBER_CARD_NOT_FOUND(`Client ${clientNo} has no member card.`);
    const day = today(this.now);
    return {
      CLIENT: clientNo,
      ...card,
      NAME: fullName(row),
      VALID: card.VALIDFROM <= day && day <= card.VALIDTO,
      HASPHOTO: await this.#read.hasPhoto(clientNo, 'CARD'),
    };
  }

  /**
   * The client's profile photo, or its member-card version (made from the profile photo when that
   * is posted: JPEG, 420 x 540, cropped to the region of interest).
   */
  async photo(clientNo: number, kind: PhotoKind): Promise<PhotoResult> {
    await liveClient(this.#read, clientNo);
    const photo = await this.#read.findPhoto(clientNo, kind);
    if (!photo) {
      throw CLIENTS_ERRORS.PHOTO_NOT_FOUND(
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
   * both photos. Errors name the photo `/PHOTO` (and a declared type that is not the bytes' too).
   */
  async putProfilePhoto(
    clientNo: number,
    data: Buffer | null,
    options: { declaredType?: string } = {},
  ): Promise<{ clientNo: number; profile: Omit<PhotoResult, 'data'> | null; scn: number }> {
    const processed = data === null ? null : await processPhoto(data, options.declaredType);
    const at = this.now().toISOString();
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new ClientRepository(uow.db);
      const scn = await uow.scn();
      await liveClient(repo, clientNo);
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
}

function cardTaken(cardNo: string): ConflictError {
  return CLIENTS_ERRORS.CARD_TAKEN(`Member card ${cardNo} belongs to another client.`);
}

export function deletionDue(row: Pick<ClientRow, 'marked_for_deletion' | 'marked_at'>): string | null {
  if (row.marked_for_deletion !== 1 || row.marked_at === null) return null;
  return new Date(new Date(row.marked_at).getTime() + DELETION_GRACE_DAYS * DAY_MS).toISOString();
}
