// Organisations, sites, API keys and relay keys (docs/admin-api.md).
import type { FastifyInstance } from 'fastify';
import { conflict, notFound, invalidParams } from '../../core/errors.js';
import { newApiKey, newRelayKey, newSitePublicId, sha256Hex } from '../../core/ids.js';
import { isValidTimeZone } from '../../core/localtime.js';
import type { AppContext } from '../../context.js';
import { DuplicateDomain, type ApiKeyRecord, type Site } from '../../storage/meta/types.js';
import { idParam, objectBody, oneOf, optionalBoolean, optionalNullableInt, optionalString, requiredString } from '../validate.js';
import { parseDomain } from './domain.js';

export function siteView(site: Site) {
  return {
    id: site.id,
    domain: site.domain,
    name: site.name,
    timezone: site.timezone,
    retentionMonths: site.retentionMonths,
    honorGpc: site.honorGpc,
    status: site.status,
  };
}

const keyView = (k: ApiKeyRecord) => ({ id: k.id, name: k.name, createdAt: k.createdAt, revokedAt: k.revokedAt });

// Known zone names by lower case, to restore the letter case of a name typed in another one.
const ZONE_SPELLING = new Map(Intl.supportedValuesOf('timeZone').map((zone) => [zone.toLowerCase(), zone]));

/**
 * An IANA zone, stored as given except for letter case (`europe/paris` → `Europe/Paris`). Never
 * through `resolvedOptions()`: Node's ICU answers legacy aliases (`Asia/Kathmandu` →
 * `Asia/Katmandu`, `Asia/Kolkata` → `Asia/Calcutta`), and the API echoes the site's zone.
 */
function timezoneField(value: string): string {
  if (!isValidTimeZone(value)) throw invalidParams(`timezone ${JSON.stringify(value)} is not an IANA time zone`);
  return ZONE_SPELLING.get(value.toLowerCase()) ?? value;
}

export async function orgRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const orgOf = async (param: string | undefined) => {
    const org = await ctx.meta.getOrg(idParam(param));
    if (!org) throw notFound('organisation not found');
    return org;
  };

  app.post('/orgs', async (request, reply) => {
    const body = objectBody(request.body, ['name']);
    const org = await ctx.meta.createOrg(requiredString(body, 'name'), ctx.clock.now());
    reply.code(201).send(org);
  });

  app.get('/orgs', async () => ({ orgs: await ctx.meta.listOrgs() }));

  app.post<{ Params: { orgId: string } }>('/orgs/:orgId/sites', async (request, reply) => {
    const org = await orgOf(request.params.orgId);
    const body = objectBody(request.body, ['domain', 'name', 'timezone', 'retentionMonths', 'honorGpc']);
    const input = {
      domain: parseDomain(requiredString(body, 'domain', 253)),
      name: requiredString(body, 'name'),
      timezone: timezoneField(requiredString(body, 'timezone', 64)),
      retentionMonths: optionalNullableInt(body, 'retentionMonths', 1, 1200) ?? null,
      honorGpc: optionalBoolean(body, 'honorGpc') ?? true,
    };
    try {
      const site = await ctx.meta.createSite(org.id, input, newSitePublicId(), ctx.clock.now());
      reply.code(201).send(siteView(site));
    } catch (err) {
      if (err instanceof DuplicateDomain) throw conflict(err.message);
      throw err;
    }
  });

  app.get<{ Params: { orgId: string } }>('/orgs/:orgId/sites', async (request) => {
    const org = await orgOf(request.params.orgId);
    return { sites: (await ctx.meta.listSites(org.id)).map(siteView) };
  });

  app.patch<{ Params: { siteId: string } }>('/sites/:siteId', async (request) => {
    const body = objectBody(request.body, ['name', 'timezone', 'retentionMonths', 'honorGpc', 'status']);
    const timezone = optionalString(body, 'timezone', 64);
    const patch = {
      name: optionalString(body, 'name'),
      timezone: timezone === undefined ? undefined : timezoneField(timezone),
      retentionMonths: optionalNullableInt(body, 'retentionMonths', 1, 1200),
      honorGpc: optionalBoolean(body, 'honorGpc'),
      status: body.status === undefined ? undefined : oneOf(body, 'status', ['active', 'archived'] as const),
    };
    try {
      const site = await ctx.meta.updateSite(request.params.siteId, patch);
      if (!site) throw notFound('site not found');
      ctx.ingest.sites.invalidate(site.id);
      return siteView(site);
    } catch (err) {
      if (err instanceof DuplicateDomain) throw conflict(err.message);
      throw err;
    }
  });

  app.post<{ Params: { orgId: string } }>('/orgs/:orgId/keys', async (request, reply) => {
    const org = await orgOf(request.params.orgId);
    const body = objectBody(request.body, ['name']);
    const key = newApiKey();
    const record = await ctx.meta.createApiKey(org.id, optionalString(body, 'name') ?? '', sha256Hex(key), ctx.clock.now());
    reply.code(201).send({ id: record.id, name: record.name, key, createdAt: record.createdAt });
  });

  app.get<{ Params: { orgId: string } }>('/orgs/:orgId/keys', async (request) => {
    const org = await orgOf(request.params.orgId);
    return { keys: (await ctx.meta.listApiKeys(org.id)).map(keyView) };
  });

  app.post<{ Params: { keyId: string } }>('/keys/:keyId/revoke', async (request) => {
    objectBody(request.body, []);
    const key = await ctx.meta.revokeApiKey(idParam(request.params.keyId), ctx.clock.now());
    if (!key) throw notFound('key not found');
    return { id: key.id, revokedAt: key.revokedAt };
  });

  app.post('/relay-keys', async (request, reply) => {
    const body = objectBody(request.body, ['name']);
    const key = newRelayKey();
    const record = await ctx.meta.createRelayKey(optionalString(body, 'name') ?? '', sha256Hex(key), ctx.clock.now());
    reply.code(201).send({ id: record.id, key });
  });
}
