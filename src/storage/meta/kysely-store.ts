import { Migrator, type Kysely, type MigrationProvider, type Selectable } from 'kysely';
import { randomSalt } from '../../core/ids.js';
import { isUniqueViolation } from './dialect.js';
import { migrations } from './migrations/index.js';
import type { MetaDatabase, SitesTable } from './schema.js';
import type { FunnelHistory, Org } from '../../core/management.js';
import type { FunnelStep, MatchKind } from '../../core/vocabulary.js';
import type { FunnelSummary } from '../../core/answers.js';
import { goalPropsOf, storedGoalProps, type FunnelVersion, type Goal, type NewGoal } from '../../entities/goals.js';
import type { ApiKeyRecord, NewSite, Site, SitePatch } from '../../entities/sites.js';
import { DuplicateDomain, DuplicateGoal, type MetaStore, type RollupKey, type RollupState } from './types.js';

function goalOf(r: { id: number; site_id: number; name: string; kind: MatchKind; pattern: string; props: string; currency: string | null }): Goal {
  return { goalId: r.id, siteId: r.site_id, name: r.name, kind: r.kind, pattern: r.pattern, props: goalPropsOf(r.props), currency: r.currency };
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`MetaStore migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}

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

function toKey(row: { id: number; org_id: number; name: string; created_at: number; revoked_at: number | null }): ApiKeyRecord {
  return {
    id: row.id,
    orgId: row.org_id,
    name: row.name,
    createdAt: Number(row.created_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
  };
}

/** MetaStore on any Kysely dialect that runs the shared migrations (SQLite, PostgreSQL). */
export class KyselyMetaStore implements MetaStore {
  constructor(private readonly db: Kysely<MetaDatabase>) {}

  async createOrg(name: string, now: number): Promise<Org> {
    const row = await this.db
      .insertInto('orgs')
      .values({ name, created_at: now })
      .returning(['id', 'name'])
      .executeTakeFirstOrThrow();
    return row;
  }

  listOrgs(): Promise<Org[]> {
    return this.db.selectFrom('orgs').select(['id', 'name']).orderBy('id').execute();
  }

  getOrg(id: number): Promise<Org | undefined> {
    return this.db.selectFrom('orgs').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
  }

  async createSite(orgId: number, site: NewSite, publicId: string, now: number): Promise<Site> {
    try {
      const row = await this.db
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
        .executeTakeFirstOrThrow();
      return toSite(row);
    } catch (err) {
      if (isUniqueViolation(err)) throw new DuplicateDomain(site.domain);
      throw err;
    }
  }

  async listSites(orgId: number, options: { activeOnly?: boolean } = {}): Promise<Site[]> {
    let q = this.db.selectFrom('sites').selectAll().where('org_id', '=', orgId);
    if (options.activeOnly) q = q.where('status', '=', 'active');
    return (await q.orderBy('id').execute()).map(toSite);
  }

  async listAllActiveSites(): Promise<Site[]> {
    const rows = await this.db.selectFrom('sites').selectAll().where('status', '=', 'active').orderBy('id').execute();
    return rows.map(toSite);
  }

  async getSite(publicId: string): Promise<Site | undefined> {
    const row = await this.db.selectFrom('sites').selectAll().where('public_id', '=', publicId).executeTakeFirst();
    return row && toSite(row);
  }

  async updateSite(publicId: string, patch: SitePatch): Promise<Site | undefined> {
    const values: Partial<Record<keyof SitesTable, unknown>> = {};
    if (patch.name !== undefined) values.name = patch.name;
    if (patch.timezone !== undefined) values.timezone = patch.timezone;
    if (patch.retentionMonths !== undefined) values.retention_months = patch.retentionMonths;
    if (patch.rawDays !== undefined) values.raw_days = patch.rawDays;
    if (patch.honorGpc !== undefined) values.honor_gpc = patch.honorGpc ? 1 : 0;
    if (patch.status !== undefined) values.status = patch.status;
    if (Object.keys(values).length === 0) return this.getSite(publicId);
    try {
      const row = await this.db
        .updateTable('sites')
        .set(values as never)
        .where('public_id', '=', publicId)
        .returningAll()
        .executeTakeFirst();
      return row && toSite(row);
    } catch (err) {
      if (isUniqueViolation(err)) {
        const site = await this.getSite(publicId);
        throw new DuplicateDomain(site?.domain ?? '');
      }
      throw err;
    }
  }

  async createApiKey(orgId: number, name: string, fingerprint: string, now: number): Promise<ApiKeyRecord> {
    const row = await this.db
      .insertInto('api_keys')
      .values({ org_id: orgId, name, fingerprint, created_at: now, revoked_at: null })
      .returning(['id', 'org_id', 'name', 'created_at', 'revoked_at'])
      .executeTakeFirstOrThrow();
    return toKey(row);
  }

  async listApiKeys(orgId: number): Promise<ApiKeyRecord[]> {
    const rows = await this.db
      .selectFrom('api_keys')
      .select(['id', 'org_id', 'name', 'created_at', 'revoked_at'])
      .where('org_id', '=', orgId)
      .orderBy('id')
      .execute();
    return rows.map(toKey);
  }

  async getApiKey(id: number): Promise<ApiKeyRecord | undefined> {
    const row = await this.db
      .selectFrom('api_keys')
      .select(['id', 'org_id', 'name', 'created_at', 'revoked_at'])
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toKey(row);
  }

  async findApiKeyByFingerprint(fingerprint: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.db
      .selectFrom('api_keys')
      .select(['id', 'org_id', 'name', 'created_at', 'revoked_at'])
      .where('fingerprint', '=', fingerprint)
      .executeTakeFirst();
    return row && toKey(row);
  }

  async revokeApiKey(id: number, now: number): Promise<ApiKeyRecord | undefined> {
    // Revocation is irreversible: a second revoke keeps the first instant.
    await this.db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).execute();
    return this.getApiKey(id);
  }

  async createRelayKey(name: string, fingerprint: string, now: number): Promise<{ id: number; name: string }> {
    return this.db
      .insertInto('relay_keys')
      .values({ name, fingerprint, created_at: now })
      .returning(['id', 'name'])
      .executeTakeFirstOrThrow();
  }

  async relayKeyExists(fingerprint: string): Promise<boolean> {
    const row = await this.db.selectFrom('relay_keys').select('id').where('fingerprint', '=', fingerprint).executeTakeFirst();
    return row !== undefined;
  }

  async createGoal(siteInternalId: number, goal: NewGoal, now: number): Promise<Goal> {
    const props = storedGoalProps(goal.props ?? null);
    try {
      const row = await this.db
        .insertInto('goals')
        .values({ site_id: siteInternalId, name: goal.name, kind: goal.kind, pattern: goal.pattern, props, currency: goal.currency ?? null, created_at: now })
        .returning(['id', 'site_id', 'name', 'kind', 'pattern', 'props', 'currency'])
        .executeTakeFirstOrThrow();
      return goalOf(row);
    } catch (err) {
      // The unique index (site, kind, pattern, props) decides, so two concurrent creations cannot both pass.
      if (!isUniqueViolation(err)) throw err;
      const existing = await this.db
        .selectFrom('goals')
        .select('id')
        .where('site_id', '=', siteInternalId)
        .where('kind', '=', goal.kind)
        .where('pattern', '=', goal.pattern)
        .where('props', '=', props)
        .executeTakeFirstOrThrow();
      throw new DuplicateGoal(existing.id);
    }
  }

  async listGoals(siteInternalId: number): Promise<Goal[]> {
    const rows = await this.db
      .selectFrom('goals')
      .select(['id', 'site_id', 'name', 'kind', 'pattern', 'props', 'currency'])
      .where('site_id', '=', siteInternalId)
      .orderBy('id')
      .execute();
    return rows.map(goalOf);
  }

  async deleteGoal(siteInternalId: number, goalId: number): Promise<boolean> {
    const result = await this.db.deleteFrom('goals').where('site_id', '=', siteInternalId).where('id', '=', goalId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async createFunnel(siteInternalId: number, funnel: { name: string; windowMinutes: number; steps: FunnelStep[] }, now: number): Promise<FunnelSummary> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('funnels')
        .values({ site_id: siteInternalId, name: funnel.name, window_minutes: funnel.windowMinutes, version: 1, created_at: now })
        .returning(['id'])
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('funnel_versions')
        .values({ funnel_id: row.id, version: 1, steps: JSON.stringify(funnel.steps), created_at: now })
        .execute();
      return { id: row.id, name: funnel.name, stepCount: funnel.steps.length, windowMinutes: funnel.windowMinutes, version: 1, createdAt: now };
    });
  }

  async replaceFunnelSteps(siteInternalId: number, funnelId: number, steps: FunnelStep[], now: number): Promise<FunnelSummary | undefined> {
    const updated = await this.db.transaction().execute(async (trx) => {
      const funnel = await trx
        .updateTable('funnels')
        .set((eb) => ({ version: eb('version', '+', 1) }))
        .where('site_id', '=', siteInternalId)
        .where('id', '=', funnelId)
        .returning(['version'])
        .executeTakeFirst();
      if (!funnel) return false;
      await trx
        .insertInto('funnel_versions')
        .values({ funnel_id: funnelId, version: funnel.version, steps: JSON.stringify(steps), created_at: now })
        .execute();
      return true;
    });
    if (!updated) return undefined;
    return (await this.listFunnels(siteInternalId)).find((f) => f.id === funnelId);
  }

  async listFunnels(siteInternalId: number): Promise<FunnelSummary[]> {
    const rows = await this.db
      .selectFrom('funnels')
      .innerJoin('funnel_versions', (j) =>
        j.onRef('funnel_versions.funnel_id', '=', 'funnels.id').onRef('funnel_versions.version', '=', 'funnels.version'),
      )
      .select(['funnels.id', 'funnels.name', 'funnels.window_minutes', 'funnels.version', 'funnels.created_at', 'funnel_versions.steps'])
      .where('funnels.site_id', '=', siteInternalId)
      .orderBy('funnels.id')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      stepCount: (JSON.parse(r.steps) as FunnelStep[]).length,
      windowMinutes: r.window_minutes,
      version: r.version,
      createdAt: Number(r.created_at),
    }));
  }

  /** The funnels row of a site's funnel; a funnel of another site is not found. */
  private funnelRow(siteInternalId: number, funnelId: number) {
    return this.db.selectFrom('funnels').selectAll().where('site_id', '=', siteInternalId).where('id', '=', funnelId).executeTakeFirst();
  }

  async getFunnel(siteInternalId: number, funnelId: number, version?: number): Promise<FunnelVersion | undefined> {
    const funnel = await this.funnelRow(siteInternalId, funnelId);
    if (!funnel) return undefined;
    const wanted = version !== undefined && Number.isInteger(version) && version >= 1 && version <= funnel.version ? version : funnel.version;
    const row = await this.db
      .selectFrom('funnel_versions')
      .select(['steps'])
      .where('funnel_id', '=', funnelId)
      .where('version', '=', wanted)
      .executeTakeFirstOrThrow();
    return {
      id: funnel.id,
      name: funnel.name,
      windowMinutes: funnel.window_minutes,
      version: wanted,
      currentVersion: funnel.version,
      steps: JSON.parse(row.steps) as FunnelStep[],
    };
  }

  async funnelHistory(siteInternalId: number, funnelId: number): Promise<FunnelHistory | undefined> {
    const funnel = await this.funnelRow(siteInternalId, funnelId);
    if (!funnel) return undefined;
    const rows = await this.db
      .selectFrom('funnel_versions')
      .select(['version', 'created_at', 'steps'])
      .where('funnel_id', '=', funnelId)
      .orderBy('version')
      .execute();
    return {
      id: funnel.id,
      name: funnel.name,
      windowMinutes: funnel.window_minutes,
      version: funnel.version,
      createdAt: Number(funnel.created_at),
      versions: rows.map((r) => ({ version: r.version, createdAt: Number(r.created_at), steps: JSON.parse(r.steps) as FunnelStep[] })),
    };
  }

  async deleteFunnel(siteInternalId: number, funnelId: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const funnel = await trx.selectFrom('funnels').select('id').where('site_id', '=', siteInternalId).where('id', '=', funnelId).executeTakeFirst();
      if (!funnel) return false;
      await trx.deleteFrom('funnel_versions').where('funnel_id', '=', funnelId).execute();
      await trx.deleteFrom('funnels').where('id', '=', funnelId).execute();
      return true;
    });
  }

  async saltFor(day: string): Promise<Buffer> {
    const existing = await this.db.selectFrom('salts').select('salt').where('day', '=', day).executeTakeFirst();
    if (existing) return Buffer.from(existing.salt);
    // Two callers may race to create the same day's salt: the first insert wins, both read it.
    await this.db.insertInto('salts').values({ day, salt: randomSalt() }).onConflict((oc) => oc.column('day').doNothing()).execute();
    const row = await this.db.selectFrom('salts').select('salt').where('day', '=', day).executeTakeFirstOrThrow();
    return Buffer.from(row.salt);
  }

  async deleteSaltsBefore(day: string): Promise<number> {
    const result = await this.db.deleteFrom('salts').where('day', '<', day).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async acquireLease(name: string, holder: string, now: number, expiresAt: number): Promise<boolean> {
    // One statement: an insert, or a takeover of a row that expired or is already the holder's.
    // Concurrent callers serialize on the row, and only one sees its holder returned.
    const row = await this.db
      .insertInto('leases')
      .values({ name, holder, expires_at: expiresAt })
      .onConflict((oc) =>
        oc
          .column('name')
          .doUpdateSet({ holder, expires_at: expiresAt })
          .where((eb) => eb.or([eb('leases.expires_at', '<=', now), eb('leases.holder', '=', holder)])),
      )
      .returning('holder')
      .executeTakeFirst();
    return row?.holder === holder;
  }

  async renewLease(name: string, holder: string, expiresAt: number): Promise<boolean> {
    const result = await this.db.updateTable('leases').set({ expires_at: expiresAt }).where('name', '=', name).where('holder', '=', holder).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async releaseLease(name: string, holder: string): Promise<void> {
    await this.db.deleteFrom('leases').where('name', '=', name).where('holder', '=', holder).execute();
  }

  async getRollupState(key: RollupKey): Promise<RollupState | undefined> {
    const row = await this.db
      .selectFrom('rollup_state')
      .select(['watermark', 'definitions', 'settlement'])
      .where('store_id', '=', key.storeId)
      .where('site_id', '=', key.siteId)
      .executeTakeFirst();
    return row && { watermark: row.watermark, definitions: row.definitions, settlement: row.settlement };
  }

  async setRollupState(key: RollupKey, state: RollupState): Promise<void> {
    const row = { watermark: state.watermark, definitions: state.definitions, settlement: state.settlement ?? null };
    await this.db
      .insertInto('rollup_state')
      .values({ store_id: key.storeId, site_id: key.siteId, ...row })
      .onConflict((oc) => oc.columns(['store_id', 'site_id']).doUpdateSet(row))
      .execute();
  }

  async addRollupPending(key: RollupKey, days: readonly string[]): Promise<void> {
    if (days.length === 0) return;
    await this.db
      .insertInto('rollup_pending')
      .values([...new Set(days)].map((day) => ({ store_id: key.storeId, site_id: key.siteId, day })))
      .onConflict((oc) => oc.columns(['store_id', 'site_id', 'day']).doNothing())
      .execute();
  }

  async listRollupPending(key: RollupKey): Promise<string[]> {
    const rows = await this.db
      .selectFrom('rollup_pending')
      .select('day')
      .where('store_id', '=', key.storeId)
      .where('site_id', '=', key.siteId)
      .orderBy('day')
      .execute();
    return rows.map((r) => r.day);
  }

  async clearRollupPending(key: RollupKey, day: string): Promise<void> {
    await this.db.deleteFrom('rollup_pending').where('store_id', '=', key.storeId).where('site_id', '=', key.siteId).where('day', '=', day).execute();
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }
}

