// The rollup job's last step: a site's settlement (src/stats/settlement.ts), its raw days after the
// watermark counted up to a cut a little before the run, so that reads of those days group only the
// events of the sessions still open at the cut.
import { addDays, localDay } from '../../core/localtime.js';
import type { Site } from '../../entities/sites.js';
import type { EventStore } from '../../storage/events/types.js';
import { settledGoalRows, settledSessionRows, settlementCheckStatement, settlementFactsStatement, type GoalRef } from '../compile.js';
import { SETTLE_LAG_MS, type Settlement } from '../settlement.js';
import { SETTLED_GOALS, SETTLED_SESSIONS } from './tables.js';

/**
 * Replaces the site's settled rows with those of a cut `SETTLE_LAG_MS` before `now`, and returns the
 * settlement (JSON) to keep in its rollup state; null, its rows removed, where the days after the
 * watermark hold fewer than `minEvents` events before the cut, or events came in while it counted.
 */
export async function settleSite(events: EventStore, site: Site, watermark: string | null, goals: readonly GoalRef[], now: number, minEvents: number): Promise<string | null> {
  const d = events.dialect;
  const cut = now - SETTLE_LAG_MS;
  // Every settled row of the site, whichever days an earlier settlement covered.
  const scope = { siteId: site.id, days: { from: null, to: addDays(localDay(now, site.timezone), 1) } };
  const replace = (sessions: ReturnType<typeof settledSessionRows> | null, conversions: ReturnType<typeof settledGoalRows>) =>
    events.replaceTogether([
      { table: SETTLED_SESSIONS, scope, rows: sessions },
      { table: SETTLED_GOALS, scope, rows: conversions },
    ]);
  const days = watermark === null ? null : { from: addDays(watermark, 1), to: localDay(cut, site.timezone) };
  if (days === null || days.from > days.to) {
    await replace(null, null);
    return null;
  }
  const [facts] = await events.query<{ events: unknown; open_from: unknown }>(settlementFactsStatement(d, site.id, days, cut));
  const counted = Number(facts?.events ?? 0);
  if (counted < minEvents) {
    await replace(null, null);
    return null;
  }
  await replace(settledSessionRows(d, site.id, days, cut), settledGoalRows(d, site.id, days, cut, goals));
  const draft: Settlement = { cut, openFrom: Number(facts!.open_from), days, events: counted, sessionEvents: 0, conversions: 0, goals: [...goals] };
  const [held] = await events.query<{ events: unknown; session_events: unknown; conversions: unknown }>(settlementCheckStatement(d, site.id, draft));
  // An event stored late (an earlier instant, after the first count) may or may not be in the rows: they are not kept.
  if (Number(held?.events) !== counted) {
    await replace(null, null);
    return null;
  }
  return JSON.stringify({ ...draft, sessionEvents: Number(held!.session_events), conversions: Number(held!.conversions) } satisfies Settlement);
}
