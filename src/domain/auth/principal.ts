export const ROLES = ['B2B', 'B2C', 'ADMIN'] as const;
export type Role = (typeof ROLES)[number];

export interface Principal {
  userId: number;
  name: string;
  roles: ReadonlySet<Role>;
  /** Set when the user is confined to one wholesale customer. */
  customerNo: number | null;
  /** Set when the user is confined to one retail client. */
  clientNo: number | null;
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
