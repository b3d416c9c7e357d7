import type { FastifyRequest } from 'fastify';
import { describeConfinement, type Principal, type Role } from '../kernel/access/principal.ts';
import { KERNEL_ERRORS, ValidationError } from '../kernel/errors.ts';
import type { OperationAudience } from '../kernel/operation.ts';
import type { Services } from '../kernel/services.ts';

const ROLE_OF_AUDIENCE: Partial<Record<OperationAudience | 'ADMIN', Role>> = {
  B2B: 'B2B',
  B2C: 'B2C',
  ADMIN: 'ADMIN',
};
const ROLE_NAMES: Record<Role, string> = {
  B2B: 'wholesale (B2B)',
  B2C: 'retail (B2C)',
  ADMIN: 'back-office (ADMIN)',
};

/** Resolves the caller of a non-public operation and checks the operation's audience. */
export async function principalFor(
  request: FastifyRequest,
  audience: OperationAudience | 'ADMIN',
  services: Services,
): Promise<Principal> {
  const header = request.headers.authorization;
  if (header === undefined) {
    throw KERNEL_ERRORS.TOKEN_MISSING(
      'Send "Authorization: Bearer <TOKEN>"; get a token from /TV2/GetToken.',
    );
  }
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match?.[1]) throw KERNEL_ERRORS.TOKEN_MISSING('The Authorization header is not "Bearer <TOKEN>".');
  const principal = await services.general.auth.authenticate(match[1]);
  const role = ROLE_OF_AUDIENCE[audience];
  if (role !== undefined && !principal.roles.has(role)) {
    // A confined user may use only the role of its party (principal.ts: permittedRoles).
    const confinedTo = describeConfinement(principal);
    throw KERNEL_ERRORS.ROLE_REQUIRED(
      confinedTo
        ? `This operation is for ${ROLE_NAMES[role]} users; this token is confined to ${confinedTo} and may use only ${[...principal.roles].join(', ')} operations.`
        : `This operation is for ${ROLE_NAMES[role]} users; this token lacks that role.`,
    );
  }
  return principal;
}

/** Parses HTTP Basic credentials; undefined when the header is absent or not Basic. */
export function basicCredentials(header: string | undefined): { name: string; secret: string } | undefined {
  const match = header ? /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header) : null;
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  if (decoded.includes('\0')) {
    // Never looked up: PostgreSQL cannot compare text holding U+0000 (a 500 otherwise).
    throw new ValidationError([{ name: 'authorization', message: 'must not contain the character U+0000' }]);
  }
  const colon = decoded.indexOf(':');
  if (colon < 1) return undefined;
  return { name: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}
