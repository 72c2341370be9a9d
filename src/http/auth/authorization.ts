// Per-route authorisation of the organisation-scoped admin routes. The same handlers serve the
// operator (/admin/v1, whose token the whole scope checks first) and signed-in members and manage
// keys (/app/v1/manage), each through its own OrgAccess.
import type { FastifyRequest } from 'fastify';
import { apiError, type FixedMessageName } from '../../core/errors.js';
import { requireSession } from './session-cookie.js';
import { roleAtLeast, type Role } from '../../core/vocabulary.js';
import type { AccountService } from '../../accounts/service.js';
import type { ApiKeyRecord } from '../../entities/sites.js';

export interface OrgAccess {
  /**
   * Lets the request act on organisation `orgId` with at least role `needed`, else throws: 404 with
   * `notFoundMessage` (the name of the resource's own "not found") for a non-member, 403 for a lower role.
   */
  require(request: FastifyRequest, orgId: number, needed: Role, notFoundMessage: FixedMessageName<'NOT_FOUND'>): Promise<void>;
  /**
   * Whether the caller may make any user a member directly (the operator). Owners may only change
   * the role of a member: people join by invitation, so an owner cannot add, and so learn of, an
   * account outside the organisation.
   */
  readonly addsMembers: boolean;
  /**
   * Whether the caller may change an organisation's `Sign-in domains` (the operator): a domain lets
   * the organisation receive strangers' accounts, so an owner only sees its list.
   */
  readonly grantsSignInDomains: boolean;
  /** The signed-in user acting, or undefined for the operator and a manage key. */
  actingUserId(request: FastifyRequest): Promise<number | undefined>;
}

/** The operator: the admin token was checked for the whole scope; every organisation is its own. */
export const operatorAccess: OrgAccess = {
  async require() {},
  addsMembers: true,
  grantsSignInDomains: true,
  async actingUserId() {
    return undefined;
  },
};

/** Lets a request act with a manage key (checked by /app/v1's hook): as an admin of the key's organisation. */
export function actWithKey(request: FastifyRequest, key: ApiKeyRecord): void {
  request.manageKey = key;
}

/**
 * Whether a manage key reaches a route of /app/v1/manage (its pattern): the organisation's sites
 * and what belongs to them (goals, funnels, alert rules, shared links, imports, exports, and what
 * else a site gains), never members, invitations, keys or the organisation's own settings.
 */
export function keyReaches(routeUrl: string | undefined): boolean {
  return routeUrl !== undefined && /^\/app\/v1\/manage\/(sites\/|alerts\/|orgs\/:orgId\/sites$)/.test(routeUrl);
}

/**
 * A signed-in user, by its membership as stored now (a changed role counts on the next request);
 * or a manage key, an admin of its own organisation only.
 */
export function memberAccess(accounts: AccountService): OrgAccess {
  return {
    async require(request, orgId, needed, notFoundMessage) {
      const key = request.manageKey;
      const role = key ? (key.orgId === orgId ? 'admin' : undefined) : await accounts.roleIn(orgId, (await requireSession(request)).user.id);
      if (role === undefined) throw apiError('NOT_FOUND', notFoundMessage);
      if (!roleAtLeast(role, needed)) throw apiError('FORBIDDEN', 'role', { needed, role });
    },
    addsMembers: false,
    grantsSignInDomains: false,
    async actingUserId(request) {
      // A manage key acts for no user, as the operator does: it sees and makes shared segments only.
      if (request.manageKey) return undefined;
      return (await requireSession(request)).user.id;
    },
  };
}
