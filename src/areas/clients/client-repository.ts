import { type Kysely, sql } from 'kysely';
import { keptPerCount } from '../../kernel/db/compiled-once.ts';
import type { DB } from '../../kernel/db/schema.ts';
import { transactionScnSql } from '../../kernel/db/scn-horizon.ts';
import { MAX_INT32 } from '../../kernel/int-limits.ts';
import type {
  ClientActionTable,
  ClientMessageTable,
  ClientOnAccountTable,
  ClientPhotoTable,
  ClientPurchaseLineTable,
  ClientTable,
  PhotoKind,
  PurchaseSource,
} from './tables.ts';

export type ClientRow = ClientTable;
export interface PhotoRow extends Omit<ClientPhotoTable, 'data'> {
  data: Buffer;
}
export type PurchaseLineRow = ClientPurchaseLineTable;
export type ActionRow = ClientActionTable;
export interface PurchaseRow {
  purchase_no: number;
  client_no: number;
  source: PurchaseSource;
  shop_code: string | null;
  reference: string;
  purchased_at: string;
  currency: string;
  total_minor: number;
  scn: number;
}
export interface OnAccountRow extends Omit<ClientOnAccountTable, 'entry_no'> {
  entry_no: number;
}
export interface MessageRow extends Omit<ClientMessageTable, 'message_no'> {
  message_no: number;
}
export interface OfferedActionRow extends ActionRow {
  claimed_at: string | null;
}

/**
 * The stable paging position of a message in its client's newest-first list (docs/clients.md, "User
 * messages"): the 32-bit maximum minus the message number, so positions ascend as the list goes from
 * the newest message to the oldest and the first page (stroffset 1) starts at the newest.
 */
export function messagePosition(messageNo: number): number {
  return MAX_INT32 - messageNo;
}

/** Which unique rule a failed insert or update broke, when it was one of this area's. */
export type UniqueRule = 'email' | 'card' | 'client_no' | 'document_no' | 'purchase_reference' | 'claim';

const PG_CONSTRAINTS: Record<string, UniqueRule> = {
  client_email_norm: 'email',
  client_card_no: 'card',
  client_pkey: 'client_no',
  client_on_account_document_no_key: 'document_no',
  client_purchase_reference: 'purchase_reference',
  client_action_claim_pk: 'claim',
};
const SQLITE_COLUMNS: Record<string, UniqueRule> = {
  'client.email_norm': 'email',
  'client.card_no': 'card',
  'client.client_no': 'client_no',
  'client_on_account.document_no': 'document_no',
  'client_purchase.source, client_purchase.reference': 'purchase_reference',
  'client_action_claim.action_code, client_action_claim.client_no': 'claim',
};

/**
 * The unique rule behind an engine error, if any: PostgreSQL names the constraint (SQLSTATE 23505),
 * SQLite the columns ("UNIQUE constraint failed: client.email_norm").
 */
export function uniqueRuleOf(error: unknown): UniqueRule | undefined {
  const e = error as { code?: unknown; constraint?: unknown; message?: unknown };
  if (e?.code === '23505' && typeof e.constraint === 'string') return PG_CONSTRAINTS[e.constraint];
  if (
    (e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') &&
    typeof e.message === 'string'
  ) {
    const columns = /constraint failed: (.+)$/.exec(e.message)?.[1];
    return columns ? SQLITE_COLUMNS[columns] : undefined;
  }
  return undefined;
}

/** Personal data cleared by anonymisation (country, home shop and language are kept for statistics). */
const ANONYMISED: Partial<ClientRow> = {
  email: null,
  email_norm: null,
  first_name: null,
  middle_name: null,
  last_name: null,
  phone: null,
  address: null,
  house_number: null,
  postal_code: null,
  city: null,
  birth_date: null,
  consent_newsletter_at: null,
  consent_sms_at: null,
  consent_profiling_at: null,
  card_no: null,
  card_level: null,
  card_valid_from: null,
  card_valid_to: null,
};

const keptClientRead = keptPerCount<ClientRow>();

/** Every SQL statement of the clients area. */
export class ClientRepository {
  private readonly db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.db = db;
  }

  // --- clients ---------------------------------------------------------------------------------

  /** Kept compiled (a web order reads its client: building the select was a few % of its CPU). */
  async findClient(clientNo: number): Promise<ClientRow | undefined> {
    const query = keptClientRead(this.db, 1, [clientNo], () =>
      this.db.selectFrom('client').selectAll().where('client_no', '=', clientNo),
    );
    return (await this.db.executeQuery(query)).rows[0];
  }

  async clientNoByEmail(emailNorm: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('client')
      .select('client_no')
      .where('email_norm', '=', emailNorm)
      .executeTakeFirst();
    return row?.client_no;
  }

  async clientNoByCard(cardNo: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('client')
      .select('client_no')
      .where('card_no', '=', cardNo)
      .executeTakeFirst();
    return row?.client_no;
  }

  /**
   * PostgreSQL: a new client in one statement, numbered by the sequence and stamped with the SCN of
   * the transaction it runs in (decision 46: run on its own, the statement is its transaction).
   * `row`'s own number and SCN are not used. The e-mail's and card's unique indexes guard the rest.
   */
  async insertNewClient(row: ClientRow): Promise<{ clientNo: number; scn: number }> {
    const { client_no: _number, scn: _scn, ...columns } = row;
    const inserted = await this.db
      .insertInto('client')
      .values({ ...columns, client_no: sql<number>`nextval('client_no_seq')`, scn: transactionScnSql })
      .returning(['client_no', 'scn'])
      .executeTakeFirstOrThrow();
    return { clientNo: Number(inserted.client_no), scn: Number(inserted.scn) };
  }

  /** PostgreSQL: a client created with its own number moves the sequence past it. */
  async clientNoTaken(clientNo: number): Promise<void> {
    await sql`SELECT setval('client_no_seq', greatest(${clientNo}::bigint, (SELECT last_value FROM client_no_seq)))`.execute(
      this.db,
    );
  }

  async maxClientNo(): Promise<number> {
    const row = await this.db
      .selectFrom('client')
      .select((eb) => eb.fn.max('client_no').as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async insertClient(row: ClientRow): Promise<void> {
    await this.db.insertInto('client').values(row).execute();
  }

  async updateClient(clientNo: number, changes: Partial<ClientRow>): Promise<void> {
    await this.db.updateTable('client').set(changes).where('client_no', '=', clientNo).execute();
  }

  /** Sets or clears the flag; a client already marked keeps its first marking instant. */
  async setMarked(clientNo: number, marked: boolean, at: string, scn: number): Promise<boolean> {
    const result = await this.db
      .updateTable('client')
      .set(
        marked
          ? { marked_for_deletion: 1, marked_at: at, scn, updated_at: at }
          : {
              marked_for_deletion: 0,
              marked_at: null,
              scn,
              updated_at: at,
            },
      )
      .where('client_no', '=', clientNo)
      .where('anonymised', '=', 0)
      .where('marked_for_deletion', '=', marked ? 0 : 1)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Clients marked at or before `markedBefore` and not yet anonymised, oldest first. */
  async dueForAnonymisation(markedBefore: string, limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('client')
      .select('client_no')
      .where('marked_for_deletion', '=', 1)
      .where('anonymised', '=', 0)
      .where('marked_at', '<=', markedBefore)
      .orderBy('marked_at')
      .orderBy('client_no')
      .limit(limit)
      .execute();
    return rows.map((r) => r.client_no);
  }

  /**
   * Clears the client's personal data, photos and messages, if it is still marked and due (a
   * concurrent unmarking wins). Purchases, on-account entries and action claims stay.
   */
  async anonymise(clientNo: number, markedBefore: string, at: string, scn: number): Promise<boolean> {
    const result = await this.db
      .updateTable('client')
      .set({ ...ANONYMISED, anonymised: 1, anonymised_at: at, scn, updated_at: at })
      .where('client_no', '=', clientNo)
      .where('marked_for_deletion', '=', 1)
      .where('anonymised', '=', 0)
      .where('marked_at', '<=', markedBefore)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) return false;
    await this.db.deleteFrom('client_photo').where('client_no', '=', clientNo).execute();
    await this.db.deleteFrom('client_message').where('client_no', '=', clientNo).execute();
    return true;
  }

  // --- photos ----------------------------------------------------------------------------------

  findPhoto(clientNo: number, kind: PhotoKind): Promise<PhotoRow | undefined> {
    return this.db
      .selectFrom('client_photo')
      .selectAll()
      .where('client_no', '=', clientNo)
      .where('kind', '=', kind)
      .executeTakeFirst();
  }

  async hasPhoto(clientNo: number, kind: PhotoKind): Promise<boolean> {
    const row = await this.db
      .selectFrom('client_photo')
      .select('client_no')
      .where('client_no', '=', clientNo)
      .where('kind', '=', kind)
      .executeTakeFirst();
    return row !== undefined;
  }

  async putPhoto(row: PhotoRow): Promise<void> {
    const { client_no, kind, ...changes } = row;
    await this.db
      .insertInto('client_photo')
      .values(row)
      .onConflict((oc) => oc.columns(['client_no', 'kind']).doUpdateSet(changes))
      .execute();
  }

  async deletePhotos(clientNo: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('client_photo')
      .where('client_no', '=', clientNo)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  // --- purchases -------------------------------------------------------------------------------

  /**
   * One page of a client's purchases from position `from`: the purchase number is the stable
   * position (given by the database, never reused; purchases are never deleted), so a page is a
   * range of the (client, purchase) index. With `sinceScn` > 0 only those recorded after it.
   */
  async purchasesPage(
    clientNo: number,
    sinceScn: number,
    from: number,
    limit: number,
  ): Promise<PurchaseRow[]> {
    let q = this.db
      .selectFrom('client_purchase')
      .selectAll()
      .where('client_no', '=', clientNo)
      .where('purchase_no', '>=', from);
    if (sinceScn > 0) q = q.where('scn', '>', sinceScn);
    const rows = await q.orderBy('purchase_no').limit(limit).execute();
    return rows.map((r) => ({ ...r, purchase_no: Number(r.purchase_no), scn: Number(r.scn) }));
  }

  purchaseLines(purchaseNos: number[]): Promise<PurchaseLineRow[]> {
    if (purchaseNos.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('client_purchase_line')
      .selectAll()
      .where('purchase_no', 'in', purchaseNos)
      .orderBy('purchase_no')
      .orderBy('line_no')
      .execute();
  }

  findPurchase(source: PurchaseSource, reference: string): Promise<PurchaseRow | undefined> {
    return this.db
      .selectFrom('client_purchase')
      .selectAll()
      .where('source', '=', source)
      .where('reference', '=', reference)
      .executeTakeFirst();
  }

  async insertPurchase(
    header: Omit<PurchaseRow, 'purchase_no'>,
    lines: Array<Omit<PurchaseLineRow, 'purchase_no'>>,
  ): Promise<number> {
    const { purchase_no } = await this.db
      .insertInto('client_purchase')
      .values(header)
      .returning('purchase_no')
      .executeTakeFirstOrThrow();
    const no = Number(purchase_no);
    if (lines.length > 0) {
      await this.db
        .insertInto('client_purchase_line')
        .values(lines.map((l) => ({ ...l, purchase_no: no })))
        .execute();
    }
    return no;
  }

  // --- on-account entries ----------------------------------------------------------------------

  onAccountEntries(
    clientNo: number,
    filter: { openOnly?: boolean; documentNo?: string; offset?: number; limit?: number },
  ): Promise<OnAccountRow[]> {
    let q = this.db.selectFrom('client_on_account').selectAll().where('client_no', '=', clientNo);
    if (filter.openOnly) q = q.where('open_minor', '<>', 0);
    if (filter.documentNo !== undefined) q = q.where('document_no', '=', filter.documentNo);
    q = q.orderBy('document_date').orderBy('document_no');
    if (filter.limit !== undefined) q = q.limit(filter.limit).offset(filter.offset ?? 0);
    return q.execute();
  }

  findOnAccount(documentNo: string): Promise<OnAccountRow | undefined> {
    return this.db
      .selectFrom('client_on_account')
      .selectAll()
      .where('document_no', '=', documentNo)
      .executeTakeFirst();
  }

  async upsertOnAccount(row: Omit<OnAccountRow, 'entry_no'>): Promise<void> {
    const { document_no, client_no, created_at, ...changes } = row;
    await this.db
      .insertInto('client_on_account')
      .values(row)
      .onConflict((oc) => oc.column('document_no').doUpdateSet(changes))
      .execute();
  }

  // --- messages --------------------------------------------------------------------------------

  /**
   * One page of a client's messages, newest first, from position `from` (messagePosition: it grows
   * as message numbers fall), so a page is a backward range of the (client, message) index and a
   * message read during a pass of the unread ones shifts nothing.
   */
  async messagesPage(
    clientNo: number,
    unreadOnly: boolean,
    from: number,
    limit: number,
  ): Promise<MessageRow[]> {
    let q = this.db
      .selectFrom('client_message')
      .selectAll()
      .where('client_no', '=', clientNo)
      .where('message_no', '<=', MAX_INT32 - from);
    if (unreadOnly) q = q.where('read_at', 'is', null);
    const rows = await q.orderBy('message_no', 'desc').limit(limit).execute();
    return rows.map((r) => ({ ...r, message_no: Number(r.message_no), scn: Number(r.scn) }));
  }

  async unreadCount(clientNo: number): Promise<number> {
    const row = await this.db
      .selectFrom('client_message')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('client_no', '=', clientNo)
      .where('read_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  findMessage(clientNo: number, messageNo: number): Promise<MessageRow | undefined> {
    return this.db
      .selectFrom('client_message')
      .selectAll()
      .where('client_no', '=', clientNo)
      .where('message_no', '=', messageNo)
      .executeTakeFirst();
  }

  async insertMessage(row: Omit<MessageRow, 'message_no'>): Promise<number> {
    const { message_no } = await this.db
      .insertInto('client_message')
      .values(row)
      .returning('message_no')
      .executeTakeFirstOrThrow();
    return Number(message_no);
  }

  /** Marks a message read once: the first reading instant stays. */
  async markMessageRead(clientNo: number, messageNo: number, at: string, scn: number): Promise<boolean> {
    const result = await this.db
      .updateTable('client_message')
      .set({ read_at: at, scn })
      .where('client_no', '=', clientNo)
      .where('message_no', '=', messageNo)
      .where('read_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  // --- client actions --------------------------------------------------------------------------

  findAction(code: string): Promise<ActionRow | undefined> {
    return this.db.selectFrom('client_action').selectAll().where('action_code', '=', code).executeTakeFirst();
  }

  async upsertAction(row: ActionRow): Promise<void> {
    const { action_code, created_at, ...changes } = row;
    await this.db
      .insertInto('client_action')
      .values(row)
      .onConflict((oc) => oc.column('action_code').doUpdateSet(changes))
      .execute();
  }

  /**
   * Active actions valid on `day` offered to the client (to every client or to this one; to any
   * member level or to the client's), with the instant the client claimed each, if it did.
   */
  offeredActions(clientNo: number, memberLevel: string | null, day: string): Promise<OfferedActionRow[]> {
    return this.db
      .selectFrom('client_action as a')
      .leftJoin('client_action_claim as c', (j) =>
        j.onRef('c.action_code', '=', 'a.action_code').on('c.client_no', '=', clientNo),
      )
      .selectAll('a')
      .select('c.claimed_at')
      .where('a.active', '=', 1)
      .where('a.valid_from', '<=', day)
      .where('a.valid_to', '>=', day)
      .where((eb) => eb.or([eb('a.client_no', 'is', null), eb('a.client_no', '=', clientNo)]))
      .where((eb) =>
        memberLevel === null
          ? eb('a.member_level', 'is', null)
          : eb.or([eb('a.member_level', 'is', null), eb('a.member_level', '=', memberLevel)]),
      )
      .orderBy('a.valid_to')
      .orderBy('a.action_code')
      .execute();
  }

  /**
   * Claims an action for a client unless it already is: a conditional insert, so of any number of
   * concurrent claims exactly one inserts (the others find the row, or wait for its transaction and
   * then find it). Returns the claim instant, or undefined when it was already claimed.
   */
  async insertClaim(
    actionCode: string,
    clientNo: number,
    at: string,
    scn: number,
  ): Promise<string | undefined> {
    const row = await this.db
      .insertInto('client_action_claim')
      .values({ action_code: actionCode, client_no: clientNo, claimed_at: at, scn })
      .onConflict((oc) => oc.columns(['action_code', 'client_no']).doNothing())
      .returning('claimed_at')
      .executeTakeFirst();
    return row?.claimed_at;
  }
}
