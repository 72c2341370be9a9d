// An AlertService on in-memory storage with a manual clock, a test CA and a resolver that maps
// receiver.test to the loopback receiver: the code under test is the production code, only the
// outside world (time, DNS, trust) is injected.
import type { Kysely } from 'kysely';
import { ManualClock } from '../src/core/clock.js';
import { ALERT_MAILS_PER_HOUR, AlertService, type AlertServiceOptions } from '../src/alerts/service.js';
import { MemorySlidingWindow } from '../src/storage/counters/rate-limiter.js';
import { KyselyAlertStore } from '../src/storage/meta/kysely-alert-store.js';
import type { Resolver } from '../src/alerts/url-safety.js';
import { DuckDbEventStore } from '../src/storage/events/duckdb.js';
import { kyselyMetaStore } from '../src/storage/meta/kysely-store.js';
import type { MetaDatabase } from '../src/storage/meta/schema.js';
import type { MetaStore } from '../src/storage/meta/types.js';
import { openSqliteDatabase } from '../src/storage/meta/sqlite.js';
import type { Site } from '../src/entities/sites.js';
import { testCertificates } from './test-certificates.js';

export const T0 = Date.UTC(2025, 5, 2, 12, 0, 0);

export const loopbackResolver: Resolver = async (host) => {
  if (host === 'receiver.test') return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};

/** An AlertService for loopback receivers: private addresses allowed, the test CA, injected DNS, alert mails counted in process. */
export function loopbackAlertService(
  deps: Pick<AlertServiceOptions, 'meta' | 'store' | 'events' | 'clock'>,
  overrides: Partial<AlertServiceOptions> = {},
): AlertService {
  const mailLimit = new MemorySlidingWindow(ALERT_MAILS_PER_HOUR, 3_600_000);
  return new AlertService({ ...deps, policy: { allowPrivate: true }, resolve: loopbackResolver, ca: testCertificates().ca, mailLimit, ...overrides });
}

export interface AlertHarness {
  clock: ManualClock;
  /** The metadata database itself, for assertions on rows no port returns. */
  db: Kysely<MetaDatabase>;
  meta: MetaStore;
  events: DuckDbEventStore;
  store: KyselyAlertStore;
  alerts: AlertService;
  site: Site;
  close(): Promise<void>;
}

export async function alertHarness(overrides: Partial<AlertServiceOptions> = {}, metaPath = ':memory:'): Promise<AlertHarness> {
  const clock = new ManualClock(T0);
  const db = await openSqliteDatabase(metaPath);
  const meta = kyselyMetaStore(db);
  const events = await DuckDbEventStore.open({ path: ':memory:', readers: 1 });
  const org = await meta.createOrg('acme', T0);
  const site = await meta.createSite(org.id, { domain: 'shop.example', name: 'Shop', timezone: 'Europe/Paris', retentionMonths: null, rawDays: 30, honorGpc: true }, 'sShop0000001', T0);
  const store = new KyselyAlertStore(db);
  const alerts = loopbackAlertService({ meta, store, events, clock }, overrides);
  return {
    clock,
    db,
    meta,
    events,
    store,
    alerts,
    site,
    async close() {
      await alerts.drain();
      await events.close();
      await meta.close();
    },
  };
}
