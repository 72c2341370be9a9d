// A site's first day with data, which `period=all` starts from (docs/api.md, Parameters): the
// earliest of its rolled-up days, its raw events' days and its imported aggregates' days. Read only
// for a request that asks for `all`, so that parsing a query stays pure and other requests pay nothing.
import type { QuerySite, RawParams } from '../core/query.js';
import type { Site } from '../entities/sites.js';
import type { EventReader } from '../storage/events/types.js';
import { importedDaysOf } from './imported-days.js';
import { firstCollectedDaysStatement } from './sql/daily.js';

export async function firstDataDayOf(events: EventReader, siteId: string): Promise<string | null> {
  const [collected, imported] = await Promise.all([
    events.query<{ f: string }>(firstCollectedDaysStatement(events.dialect, siteId)),
    importedDaysOf(events, siteId),
  ]);
  const days = [...collected.map((row) => row.f), ...(imported ? [imported.from] : [])].sort();
  return days[0] ?? null;
}

/** The site as `parseQuery` takes it, with its first day with data when the request's period is `all`. */
export async function querySite(events: EventReader, site: Site, params: RawParams): Promise<QuerySite> {
  if (params['period'] !== 'all') return site;
  return { id: site.id, timezone: site.timezone, firstDataDay: await firstDataDayOf(events, site.id) };
}
