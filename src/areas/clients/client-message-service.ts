import type { Database } from '../../kernel/db/database.ts';
import { inWriteTransaction } from '../../kernel/db/unit-of-work.ts';
import { type FieldError, ValidationError } from '../../kernel/errors.ts';
import { splitPage } from '../../kernel/feed-page.ts';
import { type LanguageText, toLanguageJson } from '../../kernel/language.ts';
import { liveClient, today } from './client-common.ts';
import { ClientRepository, type ClientRow, messagePosition } from './client-repository.ts';
import { isValidDay } from './client-validation.ts';
import { type ActionWire, actionToWire, type MessageWire, messageToWire } from './client-wire.ts';
import { CLIENTS_ERRORS } from './errors.ts';

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

/**
 * What the shop says to and offers a retail client (docs/clients.md): user messages and client
 * actions. Every write is one transaction that takes its SCN first: the SCN counter's row lock
 * orders all writers, so an action found not yet claimed is not claimed when the claim is written
 * (the claim key's unique index stands behind that).
 */
export class ClientMessageService {
  readonly #read: ClientRepository;

  readonly database: Database;
  readonly now: () => Date;

  constructor(database: Database, now: () => Date = () => new Date()) {
    this.database = database;
    this.now = now;
    this.#read = new ClientRepository(database.db);
  }

  /**
   * The client's messages, newest first, paged by stable position (messagePosition: NEXTOFFSET is
   * the position of the next, older, message); listing marks nothing read.
   */
  async messages(
    clientNo: number,
    options: { unreadOnly: boolean; offset: number; limit: number },
  ): Promise<{ unread: number; nextOffset: number | null; items: MessageWire[] }> {
    await liveClient(this.#read, clientNo);
    const rows = await this.#read.messagesPage(
      clientNo,
      options.unreadOnly,
      options.offset,
      options.limit + 1,
    );
    const shown = splitPage(rows, options, (m) => messagePosition(m.message_no));
    return {
      unread: await this.#read.unreadCount(clientNo),
      nextOffset: shown.nextOffset,
      items: shown.rows.map(messageToWire),
    };
  }

  /** Reads one message: it is marked read (the first reading instant stays). */
  async readMessage(clientNo: number, messageNo: number): Promise<{ unread: number; message: MessageWire }> {
    const at = this.now().toISOString();
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new ClientRepository(uow.db);
      await liveClient(repo, clientNo);
      const message = await repo.findMessage(clientNo, messageNo);
      if (!message) throw CLIENTS_ERRORS.MESSAGE_NOT_FOUND(`Client ${clientNo} has no message ${messageNo}.`);
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

  /**
   * Back office: sends a message to a client. The lengths are the request schema's; a subject or
   * body that is only white space is refused here (`/SUBJECT`, `/BODY`), as both are stored trimmed.
   */
  async sendMessage(
    clientNo: number,
    message: { subject: string; body: string },
  ): Promise<{ messageNo: number }> {
    const errors: FieldError[] = [];
    const subject = message.subject.trim();
    const body = message.body.trim();
    if (subject === '') errors.push({ name: '/SUBJECT', message: 'has 1 to 200 characters' });
    if (body === '') errors.push({ name: '/BODY', message: 'has 1 to 10000 characters' });
    if (errors.length > 0) throw new ValidationError(errors);
    const at = this.now().toISOString();
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new ClientRepository(uow.db);
      const scn = await uow.scn();
      await liveClient(repo, clientNo);
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
    const row = await liveClient(this.#read, clientNo);
    const rows = await this.#read.offeredActions(
      clientNo,
      validCardLevel(row, today(this.now)),
      today(this.now),
    );
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
      const client = await liveClient(repo, clientNo);
      const action = await repo.findAction(code);
      const level = validCardLevel(client, today);
      if (
        action?.active !== 1 ||
        (action.client_no !== null && action.client_no !== clientNo) ||
        (action.member_level !== null && action.member_level !== level)
      ) {
        throw CLIENTS_ERRORS.ACTION_NOT_FOUND(`No action "${code}" for client ${clientNo}.`);
      }
      if (today < action.valid_from || today > action.valid_to) {
        throw CLIENTS_ERRORS.ACTION_NOT_VALID(
          `Action ${code} runs from ${action.valid_from} to ${action.valid_to}.`,
        );
      }
      const claimedAt = await repo.insertClaim(code, clientNo, at, scn);
      if (claimedAt === undefined) {
        throw CLIENTS_ERRORS.ACTION_ALREADY_CLAIMED(`Client ${clientNo} already claimed action ${code}.`);
      }
      return actionToWire({ ...action, claimed_at: claimedAt });
    });
  }

  /**
   * Back office: defines or changes a client action. The shapes (code, member level, lengths) are
   * the request schema's; here the days must exist and be in order, a description be given in some
   * language, and a client of its own exist (named as in ActionBody: `/VALIDTO`, `/CLIENT`).
   */
  async saveAction(input: ActionInput): Promise<void> {
    const errors: FieldError[] = [];
    if (!isValidDay(input.validFrom))
      errors.push({ name: '/VALIDFROM', message: 'must be a date YYYY-MM-DD' });
    if (!isValidDay(input.validTo)) errors.push({ name: '/VALIDTO', message: 'must be a date YYYY-MM-DD' });
    else if (input.validTo < input.validFrom)
      errors.push({ name: '/VALIDTO', message: 'is before VALIDFROM' });
    if (!Object.values(input.description).some((t) => t && t.trim() !== '')) {
      errors.push({ name: '/DESCRIPTION', message: 'give a text in at least one language' });
    }
    if (errors.length > 0) throw new ValidationError(errors);
    const at = this.now().toISOString();
    await inWriteTransaction(this.database, async (uow) => {
      const repo = new ClientRepository(uow.db);
      const scn = await uow.scn();
      if (input.clientNo != null && !(await repo.findClient(input.clientNo))) {
        throw new ValidationError([{ name: '/CLIENT', message: `no client ${input.clientNo}` }]);
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
}

/** The member level that counts today: a card's level while the card is valid. */
function validCardLevel(row: ClientRow, today: string): string | null {
  if (row.card_no === null || row.card_valid_from === null || row.card_valid_to === null) return null;
  return row.card_valid_from <= today && today <= row.card_valid_to ? row.card_level : null;
}
