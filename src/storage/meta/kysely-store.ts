// The MetaStore on any Kysely dialect that runs the shared migrations (SQLite, PostgreSQL): the
// records of each kind in a module of their own (./kysely/), composed here over one handle.
import { Migrator, type Kysely, type MigrationProvider } from 'kysely';
import { migrations } from './migrations/index.js';
import type { MetaDatabase } from './schema.js';
import type { MetaStore } from './types.js';
import { siteRecords } from './kysely/sites.js';
import { keyRecords } from './kysely/keys.js';
import { goalRecords } from './kysely/goals.js';
import { funnelRecords } from './kysely/funnels.js';
import { saltRecords } from './kysely/salts.js';
import { leaseRecords } from './kysely/leases.js';
import { rollupStateRecords } from './kysely/rollup-state.js';
import { segmentRecords } from './kysely/segments.js';

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`MetaStore migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}

/** The MetaStore over a migrated handle; closing it closes the handle the other stores share. */
export function kyselyMetaStore(db: Kysely<MetaDatabase>): MetaStore {
  return {
    ...siteRecords(db),
    ...keyRecords(db),
    ...goalRecords(db),
    ...funnelRecords(db),
    ...saltRecords(db),
    ...leaseRecords(db),
    ...rollupStateRecords(db),
    ...segmentRecords(db),
    async close(): Promise<void> {
      await db.destroy();
    },
  };
}
