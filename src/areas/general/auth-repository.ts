import { type Kysely, sql } from 'kysely';
import type { DB } from '../../kernel/db/schema.ts';

export interface UserRow {
  id: number;
  name: string;
  secret_hash: string;
  roles: string;
  customer_no: number | null;
  client_no: number | null;
  active: number;
  created_at: string;
  revoked_at: string | null;
}

export interface TokenWithUser {
  expires_at: string;
  token_revoked_at: string | null;
  user_id: number;
  name: string;
  roles: string;
  customer_no: number | null;
  client_no: number | null;
  active: number;
}

export class AuthRepository {
  private readonly db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.db = db;
  }

  findUserByName(name: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('api_user').selectAll().where('name', '=', name).executeTakeFirst();
  }

  listUsers(): Promise<UserRow[]> {
    return this.db.selectFrom('api_user').selectAll().orderBy('name').execute();
  }

  async insertUser(db: Kysely<DB>, user: Omit<UserRow, 'id'>): Promise<void> {
    await db.insertInto('api_user').values(user).execute();
  }

  async revokeUser(db: Kysely<DB>, name: string, at: string): Promise<boolean> {
    const user = await db.selectFrom('api_user').select('id').where('name', '=', name).executeTakeFirst();
    if (!user) return false;
    await db.updateTable('api_user').set({ active: 0, revoked_at: at }).where('id', '=', user.id).execute();
    await db
      .updateTable('api_token')
      .set({ revoked_at: at })
      .where('user_id', '=', user.id)
      .where('revoked_at', 'is', null)
      .execute();
    return true;
  }

  /** Revokes the users confined to any of these clients, and their tokens; returns their names. */
  async revokeUsersOfClients(db: Kysely<DB>, clientNos: number[], at: string): Promise<string[]> {
    if (clientNos.length === 0) return [];
    const users = await db
      .selectFrom('api_user')
      .select(['id', 'name'])
      .where('client_no', 'in', clientNos)
      .where('active', '=', 1)
      .execute();
    for (const user of users) await this.revokeUser(db, user.name, at);
    return users.map((u) => u.name);
  }

  async insertToken(tokenHash: string, userId: number, createdAt: string, expiresAt: string): Promise<void> {
    await this.db
      .insertInto('api_token')
      .values({ token_hash: tokenHash, user_id: userId, created_at: createdAt, expires_at: expiresAt })
      .execute();
  }

  /** Expired tokens are useless; deleting them keeps the table as small as the live sessions. */
  async deleteExpiredTokens(now: string): Promise<void> {
    await this.db.deleteFrom('api_token').where('expires_at', '<', now).execute();
  }

  findToken(tokenHash: string): Promise<TokenWithUser | undefined> {
    return this.db
      .selectFrom('api_token')
      .innerJoin('api_user', 'api_user.id', 'api_token.user_id')
      .select([
        'api_token.expires_at',
        'api_token.revoked_at as token_revoked_at',
        'api_user.id as user_id',
        'api_user.name',
        'api_user.roles',
        'api_user.customer_no',
        'api_user.client_no',
        'api_user.active',
      ])
      .where('api_token.token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  async countUsers(): Promise<number> {
    const row = await this.db
      .selectFrom('api_user')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Counts one login attempt on `key` in one statement (atomic on both engines, also across
   * processes): a key whose window has passed starts a new one at `nowMs` with 1; otherwise the count
   * grows by one, but stops at `limit + 1` (refused attempts do not pile up). Returns the count and
   * the window start after the increment.
   */
  async countLoginAttempt(
    key: string,
    nowMs: number,
    windowMs: number,
    limit: number,
  ): Promise<{ attempts: number; windowStartMs: number }> {
    const expired = sql<boolean>`login_attempt.window_start_ms <= ${nowMs - windowMs}`;
    const row = await this.db
      .insertInto('login_attempt')
      .values({ key, window_start_ms: nowMs, attempts: 1 })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          attempts: sql<number>`CASE WHEN ${expired} THEN 1 WHEN login_attempt.attempts > ${limit} THEN login_attempt.attempts ELSE login_attempt.attempts + 1 END`,
          window_start_ms: sql<number>`CASE WHEN ${expired} THEN excluded.window_start_ms ELSE login_attempt.window_start_ms END`,
        }),
      )
      .returning(['attempts', 'window_start_ms'])
      .executeTakeFirstOrThrow();
    return { attempts: Number(row.attempts), windowStartMs: Number(row.window_start_ms) };
  }

  /** Takes back one attempt counted in the window that began at `windowStartMs` (a later window keeps its count). */
  async refundLoginAttempt(key: string, windowStartMs: number): Promise<void> {
    await this.db
      .updateTable('login_attempt')
      .set({ attempts: sql<number>`attempts - 1` })
      .where('key', '=', key)
      .where('window_start_ms', '=', windowStartMs)
      .where('attempts', '>', 0)
      .execute();
  }

  async deleteLoginAttemptsBefore(windowStartMs: number): Promise<void> {
    await this.db.deleteFrom('login_attempt').where('window_start_ms', '<', windowStartMs).execute();
  }
}
