// Roles of a membership and what each allows (docs/accounts.md): every role reads
// the organisation's sites; admin also changes its sites, goals, funnels, alert rules and API keys;
// owner also manages its members.
export const ROLES = ['viewer', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** True when `role` grants at least what `needed` grants. */
export function roleAtLeast(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}
