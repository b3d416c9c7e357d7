import { MAX_PARTY_NO } from '../../kernel/access/party-scope.ts';
import type { Principal } from '../../kernel/access/principal.ts';
import { ForbiddenError, ValidationError } from '../../kernel/errors.ts';

/**
 * The client a call may act on. A token confined to one client (Principal.clientNo) acts on that
 * client only: asking for another answers 403 OUTSIDE_SCOPE before anything is looked up (so the
 * answer says nothing about whether that client exists), and leaving the client out (or 0) means
 * its own. Any other retail token must name the client.
 *
 * @param requested the client number asked for; undefined or 0 when not given
 * @param field     the parameter or JSON pointer that carries it, for the error
 */
export function scopedClientNo(
  principal: Pick<Principal, 'clientNo'> | null,
  requested: number | undefined,
  field = 'strclient',
): number {
  const own = principal?.clientNo ?? null;
  const asked = requested === undefined || requested === 0 ? undefined : requested;
  if (own !== null) {
    if (asked !== undefined && asked !== own) {
      throw new ForbiddenError('OUTSIDE_SCOPE', `This token is confined to client ${own}.`);
    }
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

/** True when the principal is confined to one client. */
export function isConfined(principal: Pick<Principal, 'clientNo'> | null): boolean {
  return (principal?.clientNo ?? null) !== null;
}
