import { onPostgres } from '../../kernel/db/engine.ts';
import type { AreaSqlExamples } from '../../kernel/db/sql-examples.ts';
import { sqlExamplesOf } from '../../kernel/db/sql-examples.ts';
import {
  type ActionRow,
  ClientRepository,
  type ClientRow,
  type MessageRow,
  type OnAccountRow,
  type PhotoRow,
  type PurchaseLineRow,
  type PurchaseRow,
} from './client-repository.ts';

// Example calls of the clients repository for the SQL snapshots (scripts/sql-snapshots.ts); they
// use the catalogue's seeded article 10001-100 and the stock area's shop SHOP1.

const AT = '2026-03-02T09:30:00.000Z';
const MARKED_BEFORE = '2026-02-01T00:00:00.000Z';

function client(clientNo: number, email: string, scn: number): ClientRow {
  return {
    client_no: clientNo,
    email,
    email_norm: email.toLowerCase(),
    first_name: 'Anna',
    middle_name: 'van',
    last_name: 'Dijk',
    phone: '+31 6 9876 5432',
    address: 'Biltstraat',
    house_number: '88',
    postal_code: '3572 BJ',
    city: 'Utrecht',
    country: 'NL',
    birth_date: '1990-05-17',
    language: 'LANGUAGE_1',
    consent_newsletter_at: AT,
    consent_sms_at: null,
    consent_profiling_at: null,
    card_no: `CARD-${clientNo}`,
    card_level: 'GOLD',
    card_valid_from: '2026-01-01',
    card_valid_to: '2026-12-31',
    home_shop: 'SHOP1',
    marked_for_deletion: 0,
    marked_at: null,
    anonymised: 0,
    anonymised_at: null,
    scn,
    created_at: AT,
    updated_at: AT,
  };
}

function photo(scn: number): PhotoRow {
  return {
    client_no: 5001,
    kind: 'PROFILE',
    content_type: 'image/png',
    byte_size: 4,
    width: 1,
    height: 1,
    sha256: 'c'.repeat(64),
    data: Buffer.from([0x89, 0x50, 0x4e, 0x47]),
    scn,
  };
}

function purchase(reference: string, scn: number): Omit<PurchaseRow, 'purchase_no'> {
  return {
    client_no: 5001,
    source: 'SHOP',
    shop_code: 'SHOP1',
    reference,
    purchased_at: AT,
    currency: 'EUR',
    total_minor: 11_990,
    scn,
  };
}

const LINES: Array<Omit<PurchaseLineRow, 'purchase_no'>> = [
  {
    line_no: 1,
    article_no: '10001-100',
    sizex: 'S',
    quantity: 1,
    unit_price_minor: 5995,
    amount_minor: 5995,
  },
  {
    line_no: 2,
    article_no: '10001-100',
    sizex: 'M',
    quantity: 1,
    unit_price_minor: 5995,
    amount_minor: 5995,
  },
];

function onAccount(documentNo: string, scn: number): Omit<OnAccountRow, 'entry_no'> {
  return {
    client_no: 5001,
    document_no: documentNo,
    document_type: 'INVOICE',
    document_date: '2026-02-15',
    due_date: '2026-03-15',
    description: 'Alterations',
    currency: 'EUR',
    amount_minor: 2500,
    open_minor: 2500,
    scn,
    created_at: AT,
    updated_at: AT,
  };
}

function message(scn: number): Omit<MessageRow, 'message_no'> {
  return {
    client_no: 5001,
    subject: 'Your order is ready',
    body: 'Your jeans are ready for pickup at Nordwind Utrecht.',
    sent_at: AT,
    read_at: null,
    scn,
  };
}

function action(code: string, scn: number): ActionRow {
  return {
    action_code: code,
    description: 'Spring voucher',
    client_no: null,
    member_level: 'GOLD',
    valid_from: '2026-03-01',
    valid_to: '2026-05-31',
    active: 1,
    scn,
    created_at: AT,
    updated_at: AT,
  };
}

export const sqlExamples: AreaSqlExamples = {
  // Client 5001 with a photo, purchase 1 (R-1001, two lines), on-account entry INV-1, message 1;
  // client 5002 marked for deletion; action SPRING.
  async seed(db) {
    await db
      .insertInto('client')
      .values([
        client(5001, 'anna@example.com', 10),
        {
          ...client(5002, 'old@example.com', 10),
          marked_for_deletion: 1,
          marked_at: '2026-01-10T08:00:00.000Z',
        },
      ])
      .execute();
    await db.insertInto('client_photo').values(photo(10)).execute();
    await db.insertInto('client_purchase').values(purchase('R-1001', 10)).execute();
    await db
      .insertInto('client_purchase_line')
      .values(LINES.map((l) => ({ ...l, purchase_no: 1 })))
      .execute();
    await db.insertInto('client_on_account').values(onAccount('INV-1', 10)).execute();
    await db.insertInto('client_message').values(message(10)).execute();
    await db.insertInto('client_action').values(action('SPRING', 10)).execute();
  },
  repositories: [
    sqlExamplesOf(ClientRepository, {
      anonymise: (r) => r.anonymise(5002, MARKED_BEFORE, AT, 100),
      clientNoByCard: (r) => r.clientNoByCard('CARD-5001'),
      clientNoByEmail: (r) => r.clientNoByEmail('anna@example.com'),
      deletePhotos: (r) => r.deletePhotos(5001),
      dueForAnonymisation: (r) => r.dueForAnonymisation(MARKED_BEFORE, 100),
      findAction: (r) => r.findAction('SPRING'),
      findClient: (r) => r.findClient(5001),
      findMessage: (r) => r.findMessage(5001, 1),
      findOnAccount: (r) => r.findOnAccount('INV-1'),
      findPhoto: (r) => r.findPhoto(5001, 'PROFILE'),
      findPurchase: (r) => r.findPurchase('SHOP', 'R-1001'),
      hasPhoto: (r) => r.hasPhoto(5001, 'PROFILE'),
      insertClaim: (r) => r.insertClaim('SPRING', 5001, AT, 100),
      insertClient: (r) => r.insertClient(client(5003, 'new@example.com', 100)),
      insertMessage: (r) => r.insertMessage(message(100)),
      insertPurchase: (r) => r.insertPurchase(purchase('R-1002', 100), LINES),
      markMessageRead: (r) => r.markMessageRead(5001, 1, AT, 100),
      maxClientNo: (r) => r.maxClientNo(),
      // PostgreSQL only (the sequence of migration 0017); on SQLite the statement fails, which the
      // example swallows so the snapshot still shows it.
      insertNewClient: (r, db) =>
        onPostgres(db) ? r.insertNewClient(client(0, 'new.client@example.com', 0)) : undefined,
      clientNoTaken: (r) => r.clientNoTaken(5003).catch(() => undefined),
      messagesPage: {
        every: (r) => r.messagesPage(5001, false, 1, 50),
        'unread only': (r) => r.messagesPage(5001, true, 1, 50),
      },
      offeredActions: {
        'a member': (r) => r.offeredActions(5001, 'GOLD', '2026-03-02'),
        'no member': (r) => r.offeredActions(5001, null, '2026-03-02'),
      },
      onAccountEntries: {
        every: (r) => r.onAccountEntries(5001, {}),
        'open ones of one document, a page': (r) =>
          r.onAccountEntries(5001, { openOnly: true, documentNo: 'INV-1', offset: 0, limit: 50 }),
      },
      purchaseLines: (r) => r.purchaseLines([1, 2]),
      purchasesPage: {
        'full list': (r) => r.purchasesPage(5001, 0, 1, 100),
        feed: (r) => r.purchasesPage(5001, 5, 1, 100),
      },
      putPhoto: (r) => r.putPhoto(photo(100)),
      setMarked: {
        mark: (r) => r.setMarked(5001, true, AT, 100),
        unmark: (r) => r.setMarked(5002, false, AT, 100),
      },
      unreadCount: (r) => r.unreadCount(5001),
      updateClient: (r) => r.updateClient(5001, { phone: '+31 6 1111 2222', scn: 100, updated_at: AT }),
      upsertAction: (r) => r.upsertAction(action('SUMMER', 100)),
      upsertOnAccount: (r) => r.upsertOnAccount({ ...onAccount('INV-1', 100), open_minor: 0 }),
    }),
  ],
};
