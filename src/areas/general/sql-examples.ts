import type { AreaSqlExamples } from '../../kernel/db/sql-examples.ts';
import { sqlExamplesOf } from '../../kernel/db/sql-examples.ts';
import { AuthRepository } from './auth-repository.ts';
import { type ClaimRow, IdempotencyRepository } from './idempotency-repository.ts';

// Example calls of the general area's repositories for the SQL snapshots (scripts/sql-snapshots.ts).

const AT = '2026-03-02T09:30:00.000Z';
const NOW_MS = Date.parse(AT);
const WINDOW_MS = 15 * 60_000;
const TOKEN_HASH = 'd'.repeat(64);

const CLAIM: ClaimRow = {
  requestHash: 'e'.repeat(64),
  at: AT,
  leaseUntil: '2026-03-02T09:31:00.000Z',
  claimId: 'claim-2',
  claimedBy: 'host-a:4242',
};

export const sqlExamples: AreaSqlExamples = {
  // User 1 (alice) with a token; user 2 (shop-client) confined to client 5001; a login attempt
  // window; idempotency key key-1 of user 1, pending under claim-1.
  async seed(db) {
    await db
      .insertInto('api_user')
      .values([
        {
          name: 'alice',
          secret_hash: 'scrypt$salt$hash',
          roles: 'admin',
          customer_no: null,
          client_no: null,
          active: 1,
          created_at: AT,
          revoked_at: null,
        },
        {
          name: 'shop-client',
          secret_hash: 'scrypt$salt$hash',
          roles: 'client',
          customer_no: null,
          client_no: 5001,
          active: 1,
          created_at: AT,
          revoked_at: null,
        },
      ])
      .execute();
    await db
      .insertInto('api_token')
      .values({ token_hash: TOKEN_HASH, user_id: 1, created_at: AT, expires_at: '2026-03-02T10:30:00.000Z' })
      .execute();
    await db
      .insertInto('login_attempt')
      .values({ key: 'user:alice', window_start_ms: NOW_MS - 60_000, attempts: 2 })
      .execute();
    await db
      .insertInto('idempotency_key')
      .values({
        user_id: 1,
        idempotency_key: 'key-1',
        request_hash: CLAIM.requestHash,
        state: 'pending',
        response_status: null,
        response_type: null,
        response_body: null,
        created_at: AT,
        lease_until: '2026-03-02T09:31:00.000Z',
        claim_id: 'claim-1',
        claimed_by: 'host-a:4242',
      })
      .execute();
  },
  repositories: [
    sqlExamplesOf(AuthRepository, {
      countLoginAttempt: (r) => r.countLoginAttempt('user:alice', NOW_MS, WINDOW_MS, 5),
      countUsers: (r) => r.countUsers(),
      deleteExpiredTokens: (r) => r.deleteExpiredTokens(AT),
      deleteLoginAttemptsBefore: (r) => r.deleteLoginAttemptsBefore(NOW_MS - WINDOW_MS),
      findToken: (r) => r.findToken(TOKEN_HASH),
      findUserByName: (r) => r.findUserByName('alice'),
      insertToken: (r) => r.insertToken('f'.repeat(64), 1, AT, '2026-03-02T10:30:00.000Z'),
      insertUser: (r, db) =>
        r.insertUser(db, {
          name: 'bob',
          secret_hash: 'scrypt$salt$hash',
          roles: 'customer',
          customer_no: 1001,
          client_no: null,
          active: 1,
          created_at: AT,
          revoked_at: null,
        }),
      listUsers: (r) => r.listUsers(),
      refundLoginAttempt: (r) => r.refundLoginAttempt('user:alice', NOW_MS - 60_000),
      revokeUser: (r, db) => r.revokeUser(db, 'alice', AT),
      revokeUsersOfClients: (r, db) => r.revokeUsersOfClients(db, [5001, 5002], AT),
    }),
    sqlExamplesOf(IdempotencyRepository, {
      claim: (r) => r.claim(1, 'key-2', CLAIM),
      complete: (r) =>
        r.complete(1, 'key-1', 'claim-1', { status: 200, type: 'application/json', body: '{"OK":true}' }),
      deleteOlderThan: (r) => r.deleteOlderThan('2026-03-01T09:30:00.000Z'),
      find: (r) => r.find(1, 'key-1'),
      release: (r) => r.release(1, 'key-1', 'claim-1'),
      takeOver: {
        'a claim without an id': (r) => r.takeOver(1, 'key-1', null, CLAIM),
        'a claim whose lease ran out': (r) =>
          r.takeOver(1, 'key-1', 'claim-1', CLAIM, {
            now: '2026-03-02T09:32:00.000Z',
            legacyCreatedBefore: '2026-03-02T09:27:00.000Z',
          }),
      },
    }),
  ],
};
