import {
  type Confinement,
  describeConfinement,
  effectiveRoles,
  type Principal,
  parseRoles,
  permittedRoles,
  type Role,
} from '../../kernel/access/principal.ts';
import type { Database } from '../../kernel/db/database.ts';
import { inWriteTransaction } from '../../kernel/db/unit-of-work.ts';
import { KERNEL_ERRORS, ValidationError } from '../../kernel/errors.ts';
import { AuthRepository, type UserRow } from './auth-repository.ts';
import { GENERAL_ERRORS } from './errors.ts';
import { hashSecret, hashToken, newSecret, newToken, verifySecret } from './secrets.ts';

export interface IssuedToken {
  token: string;
  expiresIn: number;
  expires: Date;
}

export interface NewUser {
  name: string;
  roles: Role[];
  customerNo?: number | null;
  clientNo?: number | null;
  /** Given only for the demo user; otherwise a random secret is generated and returned once. */
  secret?: string;
}

export interface UserSummary {
  name: string;
  roles: Role[];
  customerNo: number | null;
  clientNo: number | null;
  active: boolean;
  createdAt: string;
  revokedAt: string | null;
}

interface CachedPrincipal {
  principal: Principal;
  expiresAtMs: number;
  checkedAtMs: number;
}

const USER_NAME = /^[A-Za-z0-9._@-]{1,64}$/;

export class AuthService {
  readonly #repo: AuthRepository;
  readonly #cache = new Map<string, CachedPrincipal>();

  private readonly database: Database;
  private readonly options: { tokenTtlSeconds: number; tokenCacheSeconds: number };
  private readonly now: () => Date;

  constructor(
    database: Database,
    options: { tokenTtlSeconds: number; tokenCacheSeconds: number },
    now: () => Date = () => new Date(),
  ) {
    this.database = database;
    this.options = options;
    this.now = now;
    this.#repo = new AuthRepository(database.db);
  }

  async issueToken(name: string, secret: string): Promise<IssuedToken> {
    const user = await this.#repo.findUserByName(name);
    // Verify against a dummy hash for unknown users so the answer time does not reveal which names exist.
    const ok = await verifySecret(secret, user?.secret_hash ?? DUMMY_HASH);
    if (!user || !ok || user.active !== 1) {
      throw GENERAL_ERRORS.INVALID_CREDENTIALS('The user name or secret is wrong, or the user is revoked.');
    }
    usableRoles(parseRoles(user.roles), {
      name: user.name,
      customerNo: user.customer_no,
      clientNo: user.client_no,
    });
    const token = newToken();
    const now = this.now();
    const expires = new Date(now.getTime() + this.options.tokenTtlSeconds * 1000);
    await this.#repo.deleteExpiredTokens(now.toISOString());
    await this.#repo.insertToken(hashToken(token), user.id, now.toISOString(), expires.toISOString());
    return { token, expiresIn: this.options.tokenTtlSeconds, expires };
  }

  /**
   * Resolves a bearer token. A verified token is trusted from memory for `tokenCacheSeconds` so the
   * hot read path does not pay a database round trip; a revocation in this process clears the cache
   * at once, one in another process takes effect within that many seconds.
   */
  async authenticate(token: string): Promise<Principal> {
    const nowMs = this.now().getTime();
    // Keyed by the token itself: a request whose token is cached hashes nothing (decision 54).
    const cached = this.#cache.get(token);
    if (
      cached &&
      nowMs < cached.expiresAtMs &&
      nowMs - cached.checkedAtMs < this.options.tokenCacheSeconds * 1000
    ) {
      return cached.principal;
    }
    this.#cache.delete(token);
    const row = await this.#repo.findToken(hashToken(token));
    if (!row) throw KERNEL_ERRORS.TOKEN_INVALID('The token is unknown.');
    const expiresAtMs = Date.parse(row.expires_at);
    if (expiresAtMs <= nowMs) throw KERNEL_ERRORS.TOKEN_EXPIRED('The token has expired; get a new one.');
    if (row.token_revoked_at !== null || row.active !== 1) {
      throw KERNEL_ERRORS.TOKEN_REVOKED('The token or its user has been revoked.');
    }
    const principal: Principal = {
      userId: row.user_id,
      name: row.name,
      roles: new Set(
        usableRoles(parseRoles(row.roles), {
          name: row.name,
          customerNo: row.customer_no,
          clientNo: row.client_no,
        }),
      ),
      customerNo: row.customer_no,
      clientNo: row.client_no,
    };
    if (this.#cache.size > 10_000) this.#cache.clear();
    this.#cache.set(token, { principal, expiresAtMs, checkedAtMs: nowMs });
    return principal;
  }

  async createUser(input: NewUser): Promise<{ name: string; secret: string }> {
    if (!USER_NAME.test(input.name)) {
      throw new ValidationError([{ name: 'name', message: 'use 1 to 64 letters, digits or . _ @ -' }]);
    }
    if (input.customerNo != null && input.clientNo != null) {
      throw new ValidationError([
        { name: 'customer', message: 'a user is confined to a customer or a client, not both' },
      ]);
    }
    const scope = { customerNo: input.customerNo ?? null, clientNo: input.clientNo ?? null };
    const refused = input.roles.filter((r) => !permittedRoles(scope).includes(r));
    if (refused.length > 0 || input.roles.length === 0) {
      const permitted = permittedRoles(scope).join(', ');
      throw new ValidationError([
        {
          name: 'roles',
          message:
            input.roles.length === 0
              ? 'give at least one role'
              : `a user confined to ${describeConfinement(scope)} may hold only the role ${permitted} (not ${refused.join(', ')}); create a separate user for the other roles`,
        },
      ]);
    }
    const secret = input.secret ?? newSecret();
    const secretHash = await hashSecret(secret);
    await inWriteTransaction(this.database, async ({ db }) => {
      const existing = await db
        .selectFrom('api_user')
        .select('id')
        .where('name', '=', input.name)
        .executeTakeFirst();
      if (existing) throw GENERAL_ERRORS.USER_EXISTS(`A user named "${input.name}" exists already.`);
      await this.#repo.insertUser(db, {
        name: input.name,
        secret_hash: secretHash,
        roles: input.roles.join(','),
        customer_no: input.customerNo ?? null,
        client_no: input.clientNo ?? null,
        active: 1,
        created_at: this.now().toISOString(),
        revoked_at: null,
      });
    });
    return { name: input.name, secret };
  }

  async revokeUser(name: string): Promise<void> {
    const found = await inWriteTransaction(this.database, ({ db }) =>
      this.#repo.revokeUser(db, name, this.now().toISOString()),
    );
    if (!found) throw GENERAL_ERRORS.USER_NOT_FOUND(`No user named "${name}".`);
    this.#cache.clear();
  }

  /** After a client's personal data is erased, API users confined to it have nothing left to see. */
  async revokeUsersOfClients(clientNos: number[]): Promise<string[]> {
    const names = await inWriteTransaction(this.database, ({ db }) =>
      this.#repo.revokeUsersOfClients(db, clientNos, this.now().toISOString()),
    );
    if (names.length > 0) this.#cache.clear();
    return names;
  }

  async listUsers(): Promise<UserSummary[]> {
    return (await this.#repo.listUsers()).map(toSummary);
  }

  countUsers(): Promise<number> {
    return this.#repo.countUsers();
  }
}

/**
 * The roles a stored user may use (see permittedRoles). A user whose confinement permits none of its
 * roles (stored before the rule, e.g. ADMIN confined to a customer) can neither log in nor use a
 * token it already holds.
 */
function usableRoles(held: Role[], scope: Confinement & { name: string }): Role[] {
  const roles = effectiveRoles(held, scope);
  if (roles.length === 0) {
    throw GENERAL_ERRORS.CONFINEMENT_CONFLICT(
      `User "${scope.name}" is confined to ${describeConfinement(scope)}, which permits only the role ${permittedRoles(scope).join(', ') || '(none)'}, and it holds none of them; an administrator must replace it (tv2 user revoke, tv2 user add).`,
    );
  }
  return roles;
}

function toSummary(u: UserRow): UserSummary {
  return {
    name: u.name,
    roles: parseRoles(u.roles),
    customerNo: u.customer_no,
    clientNo: u.client_no,
    active: u.active === 1,
    createdAt: u.created_at,
    revokedAt: u.revoked_at,
  };
}

const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
