// An organisation's sites and API keys (docs/admin-api.md), for the operator and, through OrgAccess, for
// the organisation's admins and owners (/app/v1/manage).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { OrgAccess } from '../auth/authorization.js';
import { apiError } from '../../core/errors.js';
import { newApiKey, newSitePublicId, sha256Hex } from '../../core/ids.js';
import { isValidTimeZone } from '../../core/localtime.js';
import type { AppContext } from '../../context.js';
import type { ApiKeyRecord, Site } from '../../entities/sites.js';
import type { CreatedKey, ManagedKey, ManagedSite, Org } from '../../core/management.js';
import { NEW_KEY, NEW_SITE, NO_BODY, SITE_CHANGE } from '../bodies.js';
import { idParam, readBody } from '../validate.js';
import { parseDomain } from './domain.js';
import { RAW_DAYS, type Role } from '../../core/vocabulary.js';

export function siteView(site: Site): ManagedSite {
  return {
    id: site.id,
    domain: site.domain,
    name: site.name,
    timezone: site.timezone,
    retentionMonths: site.retentionMonths,
    rawDays: site.rawDays,
    honorGpc: site.honorGpc,
    status: site.status,
  };
}

const keyView = (k: ApiKeyRecord): ManagedKey => ({ id: k.id, name: k.name, scope: k.scope, createdAt: k.createdAt, revokedAt: k.revokedAt });

/**
 * The IANA zone names a site's `timezone` accepts (in their canonical letter case), sorted. ICU's
 * list leaves out `UTC`, which every zone check accepts and which is the zone sites most often use.
 */
export const TIME_ZONES: readonly string[] = [...new Set([...Intl.supportedValuesOf('timeZone'), 'UTC'])].sort();

// Known zone names by lower case, to restore the letter case of a name typed in another one.
const ZONE_SPELLING = new Map(TIME_ZONES.map((zone) => [zone.toLowerCase(), zone]));

/**
 * An IANA zone, stored as given except for letter case (`europe/paris` → `Europe/Paris`). Never
 * through `resolvedOptions()`: Node's ICU answers legacy aliases (`Asia/Kathmandu` →
 * `Asia/Katmandu`, `Asia/Kolkata` → `Asia/Calcutta`), and the API echoes the site's zone.
 */
function timezoneField(value: string): string {
  if (!isValidTimeZone(value)) throw apiError('INVALID_PARAMS', 'timezone', { value: JSON.stringify(value) });
  return ZONE_SPELLING.get(value.toLowerCase()) ?? value;
}

/** The organisation of a path id, once the request may act on it as admin; else 404 / 403. */
export async function orgFor(ctx: AppContext, access: OrgAccess, request: FastifyRequest, param: string | undefined): Promise<Org> {
  const org = await ctx.meta.getOrg(idParam(param));
  if (!org) throw apiError('NOT_FOUND', 'organisation');
  await access.require(request, org.id, 'admin', 'organisation');
  return org;
}

/** The site of a public id, once the request may act on its organisation with role `needed` (admin unless said); else 404 / 403. */
export async function siteFor(ctx: AppContext, access: OrgAccess, request: FastifyRequest, publicId: string, needed: Role = 'admin'): Promise<Site> {
  const site = await ctx.meta.getSite(publicId);
  if (!site) throw apiError('NOT_FOUND', 'site');
  await access.require(request, site.orgId, needed, 'site');
  return site;
}

export async function orgRoutes(app: FastifyInstance, ctx: AppContext, access: OrgAccess): Promise<void> {
  app.post<{ Params: { orgId: string } }>('/orgs/:orgId/sites', async (request, reply) => {
    const org = await orgFor(ctx, access, request, request.params.orgId);
    const body = readBody(NEW_SITE, request.body);
    const input = {
      domain: parseDomain(body.domain),
      name: body.name,
      timezone: timezoneField(body.timezone),
      retentionMonths: body.retentionMonths ?? null,
      rawDays: body.rawDays ?? RAW_DAYS.default,
      honorGpc: body.honorGpc ?? true,
    };
    const site = await ctx.meta.createSite(org.id, input, newSitePublicId(), ctx.clock.now());
    reply.code(201).send(siteView(site));
  });

  app.get<{ Params: { orgId: string } }>('/orgs/:orgId/sites', async (request) => {
    const org = await orgFor(ctx, access, request, request.params.orgId);
    return { sites: (await ctx.meta.listSites(org.id)).map(siteView) };
  });

  app.get<{ Params: { siteId: string } }>('/sites/:siteId', async (request) => siteView(await siteFor(ctx, access, request, request.params.siteId)));

  app.patch<{ Params: { siteId: string } }>('/sites/:siteId', async (request) => {
    await siteFor(ctx, access, request, request.params.siteId);
    const body = readBody(SITE_CHANGE, request.body);
    const patch = { ...body, timezone: body.timezone === undefined ? undefined : timezoneField(body.timezone) };
    const site = await ctx.meta.updateSite(request.params.siteId, patch);
    if (!site) throw apiError('NOT_FOUND', 'site');
    ctx.ingest.sites.invalidate(site.id);
    return siteView(site);
  });


  app.post<{ Params: { orgId: string } }>('/orgs/:orgId/keys', async (request, reply) => {
    const org = await orgFor(ctx, access, request, request.params.orgId);
    const { name = '', scope = 'read' } = readBody(NEW_KEY, request.body);
    const key = newApiKey();
    const record = await ctx.meta.createApiKey(org.id, name, sha256Hex(key), ctx.clock.now(), scope);
    const created: CreatedKey = { id: record.id, name: record.name, scope: record.scope, key, createdAt: record.createdAt };
    reply.code(201).send(created);
  });

  app.get<{ Params: { orgId: string } }>('/orgs/:orgId/keys', async (request) => {
    const org = await orgFor(ctx, access, request, request.params.orgId);
    return { keys: (await ctx.meta.listApiKeys(org.id)).map(keyView) };
  });

  app.post<{ Params: { keyId: string } }>('/keys/:keyId/revoke', async (request) => {
    readBody(NO_BODY, request.body);
    const existing = await ctx.meta.getApiKey(idParam(request.params.keyId));
    if (!existing) throw apiError('NOT_FOUND', 'key');
    await access.require(request, existing.orgId, 'admin', 'key');
    const key = (await ctx.meta.revokeApiKey(existing.id, ctx.clock.now()))!;
    return { id: key.id, revokedAt: key.revokedAt };
  });
}
