export const ROLES = ['B2B', 'B2C', 'ADMIN'] as const;
export type Role = (typeof ROLES)[number];

export interface Principal {
  userId: number;
  name: string;
  /** The roles the token may use: those the user holds that its confinement permits (below). */
  roles: ReadonlySet<Role>;
  /** Set when the user is confined to one wholesale customer. */
  customerNo: number | null;
  /** Set when the user is confined to one retail client. */
  clientNo: number | null;
}

export interface Confinement {
  customerNo: number | null;
  clientNo: number | null;
}

/**
 * The roles a confinement permits. A customer's user works through the wholesale operations, a
 * client's through the retail ones; every operation of those roles honours the confinement. The
 * back office (ADMIN) and the other audience know nothing of a party, so a confined user never gets
 * them. A user confined to both a customer and a client gets nothing.
 */
export function permittedRoles(scope: Confinement): readonly Role[] {
  if (scope.customerNo != null && scope.clientNo != null) return [];
  if (scope.customerNo != null) return ['B2B'];
  if (scope.clientNo != null) return ['B2C'];
  return ROLES;
}

/** What a confinement is called in messages: `customer 10001`, `client 100002`. */
export function describeConfinement(scope: Confinement): string | null {
  if (scope.customerNo != null && scope.clientNo != null)
    return `customer ${scope.customerNo} and client ${scope.clientNo}`;
  if (scope.customerNo != null) return `customer ${scope.customerNo}`;
  if (scope.clientNo != null) return `client ${scope.clientNo}`;
  return null;
}

/**
 * The roles a user may use: those it holds that its confinement permits. Users stored before
 * confinement and roles were checked together (e.g. B2B,B2C,ADMIN confined to a customer) keep only
 * the permitted ones.
 */
export function effectiveRoles(held: readonly Role[], scope: Confinement): Role[] {
  const permitted = permittedRoles(scope);
  return held.filter((r) => permitted.includes(r));
}

export function parseRoles(text: string): Role[] {
  const roles = text
    .split(',')
    .map((r) => r.trim().toUpperCase())
    .filter(Boolean);
  const unknown = roles.filter((r) => !(ROLES as readonly string[]).includes(r));
  if (unknown.length > 0)
    throw new Error(`unknown role(s): ${unknown.join(', ')}; roles are ${ROLES.join(', ')}`);
  if (roles.length === 0) throw new Error(`at least one role is needed: ${ROLES.join(', ')}`);
  return [...new Set(roles)] as Role[];
}
