import type { AreaSqlExamples } from '../../kernel/db/sql-examples.ts';
import { sqlExamplesOf } from '../../kernel/db/sql-examples.ts';
import { type NewTender, TenderRepository } from './tender-repository.ts';

// Example calls of the tenders repository for the SQL snapshots (scripts/sql-snapshots.ts): the
// seed is gift voucher 1 (code GV...) of 100.00 with its ISSUE entry.

const AT = '2026-03-02T09:30:00Z';
const CODE = '8K2M9QX4P8R3TZ5H4';

function tender(code: string, webId: string): NewTender {
  return {
    kind: 'GIFT_VOUCHER',
    code,
    client_no: null,
    currency: 'EUR',
    valid_until: '2029-03-02',
    blocked: 0,
    balance: 10_000,
    issued_amount: 10_000,
    web_id: webId,
    email: null,
    scn: 1,
    created_at: AT,
    updated_at: AT,
  };
}

const debit = { code: CODE, kinds: ['GIFT_VOUCHER', 'CREDIT_NOTE_VOUCHER'] as const, amount: 1_000 };
const when = { currency: 'EUR', reference: 'WEB-7731', today: '2026-03-02', at: AT, scn: 2 };

export const sqlExamples: AreaSqlExamples = {
  async seed(db) {
    const { id } = await db
      .insertInto('tender')
      .values(tender(CODE, 'GV-1'))
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('tender_entry')
      .values({
        tender_id: id,
        kind: 'ISSUE',
        amount: 10_000,
        reference: 'GV-1',
        balance_after: 10_000,
        at: AT,
        scn: 1,
      })
      .execute();
  },
  repositories: [
    sqlExamplesOf(TenderRepository, {
      insertTender: (r) => r.insertTender(tender('2222222222222222X', 'GV-2')),
      findByWebId: (r) => r.findByWebId('GIFT_VOUCHER', 'GV-1'),
      findByCode: (r) => r.findByCode(CODE),
      debit: {
        unconfined: (r) => r.debit({ ...debit, ...when, ownClient: null }),
        'confined to a client': (r) => r.debit({ ...debit, ...when, ownClient: 100001 }),
        'paying an order': (r) =>
          r.debit({ ...debit, ...when, reference: 'ORDER 12', issuedBy: 'WEB-7731', ownClient: 100001 }),
      },
      credit: (r) => r.credit(1, 1_000, AT, 2),
      lockByCode: (r) => r.lockByCode(CODE),
      insertEntry: (r) =>
        r.insertEntry({
          tender_id: 1,
          kind: 'REDEEM',
          amount: -1_000,
          reference: 'WEB-7731',
          balance_after: 9_000,
          at: AT,
          day: '2026-03-02',
          scn: 2,
        }),
      adjust: (r) => r.adjust(CODE, -250, AT, 2),
      entryPage: (r) => r.entryPage(1, 1, 100),
      findEntry: (r) => r.findEntry(1, 'REDEEM', 'WEB-7731'),
      entries: (r) => r.entries(1),
      openOfClient: (r) => r.openOfClient(100001, 'CREDIT_NOTE_VOUCHER', '2026-03-02', 1000),
      liability: (r) => r.liability(),
      setBlocked: (r) => r.setBlocked(CODE, true, AT, 2),
      setValidUntil: (r) => r.setValidUntil(CODE, '2030-01-01', AT, 2),
      expiryCandidates: (r) => r.expiryCandidates('2030-01-01', 0, 500),
      expire: (r) => r.expire(1, 10_000, '2030-01-01', AT, 2),
      checkFailures: (r) => r.checkFailures('user:1'),
      recordFailure: (r) => r.recordFailure('user:1', AT, '2026-03-02T09:25:00Z'),
    }),
  ],
};
