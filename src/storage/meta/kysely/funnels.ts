// A site's funnels: each change of steps is a new version, and every version is kept (rollups are
// per funnel version), up to FUNNEL_VERSIONS_MAX.
import type { Kysely } from 'kysely';
import type { FunnelHistory } from '../../../core/management.js';
import { FUNNEL_VERSIONS_MAX, FUNNELS_PER_SITE_MAX, type FunnelStep } from '../../../core/vocabulary.js';
import type { FunnelSummary } from '../../../core/answers.js';
import type { FunnelVersion } from '../../../entities/goals.js';
import type { MetaDatabase } from '../schema.js';
import { LimitReached, type MetaStore } from '../types.js';
import { boundedInsert } from './serialized-write.js';

/** The funnels row of a site's funnel; a funnel of another site is not found. */
function funnelRow(db: Kysely<MetaDatabase>, siteInternalId: number, funnelId: number) {
  return db.selectFrom('funnels').selectAll().where('site_id', '=', siteInternalId).where('id', '=', funnelId).executeTakeFirst();
}

/** Funnels and their versions. */
export function funnelRecords(db: Kysely<MetaDatabase>) {
  // Named, for the methods that call each other (`this` would be whichever object they are called on).
  const records = {
    async createFunnel(siteInternalId: number, funnel: { name: string; windowMinutes: number; steps: FunnelStep[] }, now: number): Promise<FunnelSummary> {
      return boundedInsert(db, 'funnels', siteInternalId, FUNNELS_PER_SITE_MAX, async (trx) => {
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
    },

    async replaceFunnelSteps(siteInternalId: number, funnelId: number, steps: FunnelStep[], now: number): Promise<FunnelSummary | undefined> {
      const updated = await db.transaction().execute(async (trx) => {
        const funnel = await trx
          .updateTable('funnels')
          .set((eb) => ({ version: eb('version', '+', 1) }))
          .where('site_id', '=', siteInternalId)
          .where('id', '=', funnelId)
          .returning(['version'])
          .executeTakeFirst();
        if (!funnel) return false;
        // The increment holds the funnel's row until commit: two changes at once count one after the other.
        if (funnel.version > FUNNEL_VERSIONS_MAX) throw new LimitReached('funnelVersions', FUNNEL_VERSIONS_MAX);
        await trx
          .insertInto('funnel_versions')
          .values({ funnel_id: funnelId, version: funnel.version, steps: JSON.stringify(steps), created_at: now })
          .execute();
        return true;
      });
      if (!updated) return undefined;
      return (await records.listFunnels(siteInternalId)).find((f) => f.id === funnelId);
    },

    async listFunnels(siteInternalId: number): Promise<FunnelSummary[]> {
      const rows = await db
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
    },

    async getFunnel(siteInternalId: number, funnelId: number, version?: number): Promise<FunnelVersion | undefined> {
      const funnel = await funnelRow(db, siteInternalId, funnelId);
      if (!funnel) return undefined;
      const wanted = version !== undefined && Number.isInteger(version) && version >= 1 && version <= funnel.version ? version : funnel.version;
      const row = await db
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
    },

    async funnelHistory(siteInternalId: number, funnelId: number): Promise<FunnelHistory | undefined> {
      const funnel = await funnelRow(db, siteInternalId, funnelId);
      if (!funnel) return undefined;
      const rows = await db
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
    },

    async deleteFunnel(siteInternalId: number, funnelId: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const funnel = await trx.selectFrom('funnels').select('id').where('site_id', '=', siteInternalId).where('id', '=', funnelId).executeTakeFirst();
        if (!funnel) return false;
        await trx.deleteFrom('funnel_versions').where('funnel_id', '=', funnelId).execute();
        await trx.deleteFrom('funnels').where('id', '=', funnelId).execute();
        return true;
      });
    },
  } satisfies Partial<MetaStore>;
  return records;
}
