import { ForbiddenError, ValidationError } from '../errors.ts';
import type { Principal } from './principal.ts';

/** Party numbers (customers, clients) are 32-bit integers in the database. */
export const MAX_PARTY_NO = 2_147_483_647;

/**
 * The wholesale customer a call may act on. A token confined to one customer acts on that customer
 * only: naming another (existing or not) answers 403 OUTSIDE_SCOPE before anything is looked up, and
 * leaving it out (or 0) means its own. Other tokens get what they asked for; undefined means "all".
 */
export function scopedCustomerNo(
  principal: Pick<Principal, 'customerNo'> | null,
  requested: number | undefined,
  field = 'strcustomer',
): number | undefined {
  const own = principal?.customerNo ?? null;
  const asked = requested === undefined || requested === 0 ? undefined : requested;
  if (asked !== undefined && asked > MAX_PARTY_NO) {
    throw new ValidationError([{ name: field, message: `must be at most ${MAX_PARTY_NO}` }]);
  }
  if (own === null) return asked;
  if (asked !== undefined && asked !== own) {
    throw new ForbiddenError('OUTSIDE_SCOPE', `This token is confined to customer ${own}.`);
  }
  return own;
}
