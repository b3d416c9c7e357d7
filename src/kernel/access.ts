/**
 * Access for confined tokens: the one place that decides what a token confined to one party may act
 * on. A user (and so its token) may be confined to one wholesale customer (`Principal.customerNo`,
 * B2B operations) or to one retail client (`Principal.clientNo`, B2C operations); the Principal
 * type and its roles live in ./access/principal.ts.
 *
 * The rules every function below follows:
 * - A confined token acts on its own party only. Naming another party answers 403 OUTSIDE_SCOPE,
 *   decided before anything is looked up, so the answer is the same whether that party exists or
 *   not and never tells which parties exist.
 * - Leaving the party out, or passing 0, means its own party.
 * - An unconfined token gets what it asked for (each function says what "nothing asked" means).
 * - Party numbers are 32-bit integers in the database: a larger one is 400 VALIDATION_FAILED
 *   naming the field, never a database error.
 *
 * Areas call these functions and throw no OUTSIDE_SCOPE of their own.
 */
import type { Principal } from './access/principal.ts';
import { KERNEL_ERRORS, ValidationError } from './errors.ts';

/** Party numbers (customers, clients) are 32-bit integers in the database. */
export const MAX_PARTY_NO = 2_147_483_647;

type CustomerConfinement = Pick<Principal, 'customerNo'> | null;
type ClientConfinement = Pick<Principal, 'clientNo'> | null;

/** 0 and absent both mean "not named". */
const named = (requested: number | undefined) =>
  requested === undefined || requested === 0 ? undefined : requested;

const outsideCustomer = (own: number) =>
  KERNEL_ERRORS.OUTSIDE_SCOPE(`This token is confined to customer ${own}.`);

const outsideClient = (own: number) =>
  KERNEL_ERRORS.OUTSIDE_SCOPE(`This token is confined to client ${own}.`);

/** The customer the token is confined to; null when it is not confined to a customer (no principal: none). */
export function confinedCustomer(principal: CustomerConfinement): number | null {
  return principal?.customerNo ?? null;
}

/** The client the token is confined to; null when it is not confined to a client (no principal: none). */
export function confinedClient(principal: ClientConfinement): number | null {
  return principal?.clientNo ?? null;
}

/**
 * The wholesale customer a call may act on.
 * - A number above MAX_PARTY_NO is 400 naming `field`, for any token (before the confinement).
 * - Confined: its own customer. Another number (existing or not) is 403 OUTSIDE_SCOPE
 *   "This token is confined to customer N." before anything is looked up; absent or 0 is its own.
 * - Unconfined: the number asked for; absent or 0 is `undefined`, which means "all customers" for
 *   a list (a call that needs one customer says so itself).
 *
 * @param requested the customer number asked for; undefined when not given
 * @param field     the parameter or JSON pointer that carries it, for the error
 */
export function customerScope(
  principal: CustomerConfinement,
  requested: number | undefined,
  field = 'strcustomer',
): number | undefined {
  const own = confinedCustomer(principal);
  const asked = named(requested);
  if (asked !== undefined && asked > MAX_PARTY_NO) {
    throw new ValidationError([{ name: field, message: `must be at most ${MAX_PARTY_NO}` }]);
  }
  if (own === null) return asked;
  if (asked !== undefined && asked !== own) throw outsideCustomer(own);
  return own;
}

/**
 * Asserts that a customer a write is about to touch is the confined token's own: another customer
 * is 403 OUTSIDE_SCOPE "This token is confined to customer N."; an unconfined token may touch any.
 * The number is the one the write resolved (never 0 here), so no "0 means own" applies.
 */
export function assertOwnCustomer(principal: CustomerConfinement, customerNo: number): void {
  const own = confinedCustomer(principal);
  if (own !== null && customerNo !== own) throw outsideCustomer(own);
}

/**
 * A token confined to customer `own` that names a customer by another key than its number (the
 * external key): the caller looks up its own customer only and says whether the key is that
 * customer's. Any other key is 403 OUTSIDE_SCOPE "This token is confined to customer N.", whether
 * or not another customer carries it (no other customer is looked up, so the answer does not tell).
 */
export function assertOwnCustomerKey(own: number, isOwnKey: boolean): void {
  if (!isOwnKey) throw outsideCustomer(own);
}

/**
 * A token confined to customer `own` that asks for the customers of representative `asked` may ask
 * only for its own customer's representative (`ownRepresentative`, null when it has none); another
 * code (existing or not) is 403 OUTSIDE_SCOPE naming the customer and the code.
 */
export function assertOwnRepresentative(own: number, asked: string, ownRepresentative: string | null): void {
  if (ownRepresentative !== asked) {
    throw KERNEL_ERRORS.OUTSIDE_SCOPE(
      `This token is confined to customer ${own}, which is not a customer of representative "${asked}".`,
    );
  }
}

/**
 * A token confined to customer `own` may change its customer's names, addresses and the like but
 * not its commercial terms: `changed` lists the terms a write would change (by their wire names);
 * any is 403 OUTSIDE_SCOPE naming them. Posting the terms as they are is fine (`changed` empty).
 */
export function assertTermsUnchanged(own: number, changed: readonly string[]): void {
  if (changed.length > 0) {
    throw KERNEL_ERRORS.OUTSIDE_SCOPE(
      `A token confined to customer ${own} cannot change its commercial terms (${changed.join(', ')}).`,
    );
  }
}

/**
 * The retail client a call may act on.
 * - Confined: its own client. Another number (existing or not, of any size) is 403 OUTSIDE_SCOPE
 *   "This token is confined to client N." before anything is looked up; absent or 0 is its own.
 * - Unconfined: the client must be named (absent or 0 is 400 "give the client number" naming
 *   `field`) and be a whole number from 1 to MAX_PARTY_NO (400 otherwise).
 *
 * @param requested the client number asked for; undefined when not given
 * @param field     the parameter or JSON pointer that carries it, for the error
 */
export function clientScope(
  principal: ClientConfinement,
  requested: number | undefined,
  field = 'strclient',
): number {
  const own = confinedClient(principal);
  const asked = named(requested);
  if (own !== null) {
    if (asked !== undefined && asked !== own) throw outsideClient(own);
    return own;
  }
  if (asked === undefined) throw new ValidationError([{ name: field, message: 'give the client number' }]);
  if (!Number.isSafeInteger(asked) || asked < 1 || asked > MAX_PARTY_NO) {
    throw new ValidationError([
      { name: field, message: `must be a client number from 1 to ${MAX_PARTY_NO}` },
    ]);
  }
  return asked;
}

/**
 * A token confined to client `own` that names a client by another key than its number (the e-mail
 * address): the caller looks up its own client only and says whether the key is that client's.
 * Any other key is 403 OUTSIDE_SCOPE "This token is confined to client N.", whether or not another
 * client carries it (no other client is looked up, so the answer does not tell).
 */
export function assertOwnClientKey(own: number, isOwnKey: boolean): void {
  if (!isOwnKey) throw outsideClient(own);
}
