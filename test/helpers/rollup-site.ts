// A site on a fresh event store and in-memory metadata, its rollup tables made and five goals defined
// (two pages, three events: one a revenue goal, one requiring a property value that some events lack):
// the fixture of the suites that compare rolled-up reads with raw ones.
import { openSqliteMetaStore } from '../../src/storage/meta/sqlite.js';
import { createRollupTables } from '../../src/stats/rollups/write.js';
import type { EventStoreAdapter } from './event-stores.js';

export async function openRollupSite(adapter: EventStoreAdapter, seed: number, timezone: string, rawDays = 30) {
  const events = await adapter.open();
  const meta = await openSqliteMetaStore(':memory:');
  await createRollupTables(events);
  const org = await meta.createOrg('o', 0);
  const site = await meta.createSite(org.id, { domain: `s${seed}.test`, name: 's', timezone, retentionMonths: null, rawDays, honorGpc: true }, `site${seed}`, 0);
  const goals = [
    await meta.createGoal(site.internalId, { name: 'pricing', kind: 'page', pattern: '/pricing' }, 0),
    await meta.createGoal(site.internalId, { name: 'blog', kind: 'page', pattern: '/blog/*' }, 0),
    await meta.createGoal(site.internalId, { name: 'signup', kind: 'event', pattern: 'signup' }, 0),
    await meta.createGoal(site.internalId, { name: 'trial', kind: 'event', pattern: 'trial', currency: 'EUR' }, 0),
    await meta.createGoal(site.internalId, { name: 'pro signup', kind: 'event', pattern: 'signup', props: { plan: 'pro' } }, 0),
  ];
  const close = async () => {
    await events.close();
    await meta.close();
  };
  return { events, meta, site, goals, close };
}
