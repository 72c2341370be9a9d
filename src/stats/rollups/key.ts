// The identities of a site's rollup bookkeeping, apart from the jobs that keep it: the HTTP modules
// and digests read the rollup state by its key without importing the jobs.
import type { EventStore } from '../../storage/events/types.js';
import type { MetaStore, RollupKey } from '../../storage/meta/types.js';
import { withLease } from '../../storage/meta/leases.js';

/** The key of a site's rollup bookkeeping in the MetaStore: the site in this event store. */
export const rollupKey = (events: EventStore, siteId: string): RollupKey => ({ storeId: events.id, siteId });

// One run per site at a time, across every process on the MetaStore: the maintenance worker and
// imports may both ask.
export function underSiteLease<T>(meta: MetaStore, siteId: string, work: () => Promise<T>): Promise<T> {
  return withLease(meta, `rollup:${siteId}`, work);
}
