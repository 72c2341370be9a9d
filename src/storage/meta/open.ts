// The MetaStore factory: the adapter comes from the configuration (SVC_DATABASE_URL selects
// PostgreSQL, else SQLite in SVC_DATA_DIR), and every store on the metadata database is built over
// one connection to it. The rest of the code sees only the port interfaces.
import { join } from 'node:path';
import type { Config } from '../../config.js';
import type { AccountStore } from './account-types.js';
import type { AlertStore } from './alert-types.js';
import type { DigestStore } from './digest-types.js';
import { KyselyDigestStore } from './kysely-digest-store.js';
import { kyselyAccountStore } from './kysely-account-store.js';
import { KyselyAlertStore } from './kysely-alert-store.js';
import { KyselyImportStore } from './kysely-import-store.js';
import type { ImportJobStore } from './import-types.js';
import { kyselyMetaStore } from './kysely-store.js';
import type { MetaStore } from './types.js';

export interface MetaStores {
  /** Closing it closes the database connection the other stores share. */
  meta: MetaStore;
  alerts: AlertStore;
  accounts: AccountStore;
  digests: DigestStore;
  imports: ImportJobStore;
}

/** A PostgreSQL URL, or a SQLite file path (`:memory:` included). */
export type MetaLocation = { databaseUrl: string } | { sqlitePath: string };

/** SVC_DATABASE_URL when set, else `meta.sqlite` in SVC_DATA_DIR. */
export function metaLocationOf(config: Pick<Config, 'dataDir' | 'databaseUrl'>): MetaLocation {
  return config.databaseUrl !== undefined ? { databaseUrl: config.databaseUrl } : { sqlitePath: join(config.dataDir, 'meta.sqlite') };
}

/** `warn` hears of connection trouble the stores recover from by themselves (PostgreSQL). */
export async function openMetaStores(location: MetaLocation, warn: (message: string) => void = () => undefined): Promise<MetaStores> {
  // Each database's driver is loaded only by the processes that use it (pg is 15 MB resident).
  const db =
    'databaseUrl' in location
      ? await (await import('./postgres.js')).openPostgresDatabase(location.databaseUrl, warn)
      : await (await import('./sqlite.js')).openSqliteDatabase(location.sqlitePath);
  return { meta: kyselyMetaStore(db), alerts: new KyselyAlertStore(db), accounts: kyselyAccountStore(db), digests: new KyselyDigestStore(db), imports: new KyselyImportStore(db) };
}
