// The organisations and their sites (migration 001).
import type { Kysely, Selectable } from 'kysely';
import type { Org } from '../../../core/management.js';
import type { NewSite, Site, SitePatch } from '../../../entities/sites.js';
import { isUniqueViolation } from '../dialect.js';
import type { MetaDatabase, SitesTable } from '../schema.js';
import { DuplicateDomain, type MetaStore } from '../types.js';
import { boundedOfOrg } from './serialized-write.js';

function toSite(row: Selectable<SitesTable>): Site {
  return {
    internalId: row.id,
    id: row.public_id,
    orgId: row.org_id,
    domain: row.domain,
    name: row.name,
    timezone: row.timezone,
    retentionMonths: row.retention_months,
    rawDays: row.raw_days,
    honorGpc: row.honor_gpc === 1,
    status: row.status,
    createdAt: Number(row.created_at),
  };
}

/** Organisations and sites. */
export function siteRecords(db: Kysely<MetaDatabase>) {
  // Named, for the methods that call each other (`this` would be whichever object they are called on).
  const records = {
    async createOrg(name: string, now: number): Promise<Org> {
      const row = await db
        .insertInto('orgs')
        .values({ name, created_at: now })
        .returning(['id', 'name'])
        .executeTakeFirstOrThrow();
      return row;
    },

    listOrgs(): Promise<Org[]> {
      return db.selectFrom('orgs').select(['id', 'name']).orderBy('id').execute();
    },

    getOrg(id: number): Promise<Org | undefined> {
      return db.selectFrom('orgs').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
    },

    async createSite(orgId: number, site: NewSite, publicId: string, now: number): Promise<Site> {
      try {
        const row = await boundedOfOrg(db, 'sites', orgId, (trx) => trx
          .insertInto('sites')
          .values({
            public_id: publicId,
            org_id: orgId,
            domain: site.domain,
            name: site.name,
            timezone: site.timezone,
            retention_months: site.retentionMonths,
            raw_days: site.rawDays,
            honor_gpc: site.honorGpc ? 1 : 0,
            status: 'active',
            created_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow());
        return toSite(row);
      } catch (err) {
        if (isUniqueViolation(err)) throw new DuplicateDomain(site.domain);
        throw err;
      }
    },

    async listSites(orgId: number, options: { activeOnly?: boolean } = {}): Promise<Site[]> {
      let q = db.selectFrom('sites').selectAll().where('org_id', '=', orgId);
      if (options.activeOnly) q = q.where('status', '=', 'active');
      return (await q.orderBy('id').execute()).map(toSite);
    },

    async listAllActiveSites(): Promise<Site[]> {
      const rows = await db.selectFrom('sites').selectAll().where('status', '=', 'active').orderBy('id').execute();
      return rows.map(toSite);
    },

    async getSite(publicId: string): Promise<Site | undefined> {
      const row = await db.selectFrom('sites').selectAll().where('public_id', '=', publicId).executeTakeFirst();
      return row && toSite(row);
    },

    async updateSite(publicId: string, patch: SitePatch): Promise<Site | undefined> {
      const values: Partial<Record<keyof SitesTable, unknown>> = {};
      if (patch.name !== undefined) values.name = patch.name;
      if (patch.timezone !== undefined) values.timezone = patch.timezone;
      if (patch.retentionMonths !== undefined) values.retention_months = patch.retentionMonths;
      if (patch.rawDays !== undefined) values.raw_days = patch.rawDays;
      if (patch.honorGpc !== undefined) values.honor_gpc = patch.honorGpc ? 1 : 0;
      if (patch.status !== undefined) values.status = patch.status;
      if (Object.keys(values).length === 0) return records.getSite(publicId);
      const update = (trx: Kysely<MetaDatabase>) => trx.updateTable('sites').set(values as never).where('public_id', '=', publicId).returningAll().executeTakeFirst();
      try {
        // Back from archived, a site takes a place among its organisation's active ones again.
        const current = patch.status === 'active' ? await records.getSite(publicId) : undefined;
        const row = current?.status === 'archived' ? await boundedOfOrg(db, 'sites', current.orgId, update) : await update(db);
        return row && toSite(row);
      } catch (err) {
        if (isUniqueViolation(err)) {
          const site = await records.getSite(publicId);
          throw new DuplicateDomain(site?.domain ?? '');
        }
        throw err;
      }
    },
  } satisfies Partial<MetaStore>;
  return records;
}
