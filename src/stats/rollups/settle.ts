// The rollup job's last step: a site's settlement (src/stats/settlement.ts), its raw days after the
// watermark counted up to a cut a little before the run, so that reads of those days group only the
// events of the sessions still open at the cut.
import { addDays, localDay } from '../../core/localtime.js';
import type { Site } from '../../entities/sites.js';
import type { EventStore } from '../../storage/events/types.js';
import { sql, trusted } from '../../sql/sql.js';
import type { GoalRef } from '../../entities/goals.js';
import { eventCountStatement, openFromStatement, settlementCheckStatement, settlementRows } from '../sql/settlement.js';
import { HELD_EVENTS, HELD_ROWS, parseSettlements, SETTLE_LAG_MS, SETTLE_MAX_OPEN_SHARE, SETTLED_ROWS_GRACE_MS, type Settlement, type Settlements } from '../settlement.js';
import { SETTLED_TABLES } from './tables.js';

/**
 * The site's next settlements (JSON, for its rollup state), given the current ones (`known`): a new
 * one of a cut `SETTLE_LAG_MS` before `now`, its rows written, where the days after the watermark
 * hold at least `minEvents` events before it (else none); the one it replaces retired; and the rows
 * of every other cut removed once retired for `SETTLED_ROWS_GRACE_MS`.
 */
export async function settleSite(events: EventStore, site: Site, known: string | null | undefined, watermark: string | null, goals: readonly GoalRef[], now: number, minEvents: number): Promise<string> {
  const { current, retired } = parseSettlements(known);
  const next = await settle(events, site, watermark, goals, now - SETTLE_LAG_MS, minEvents);
  const settlements: Settlements = {
    current: next,
    retired: [...retired.filter((r) => now - r.at < SETTLED_ROWS_GRACE_MS), ...(current ? [{ cut: current.cut, at: now }] : [])],
  };
  await removeRowsOtherThan(events, site, [...(next ? [next.cut] : []), ...settlements.retired.map((r) => r.cut)]);
  return JSON.stringify(settlements);
}

/** The settlement of the days after the watermark at `cut`, its rows written; null where there is none worth making. */
async function settle(events: EventStore, site: Site, watermark: string | null, goals: readonly GoalRef[], cut: number, minEvents: number): Promise<Settlement | null> {
  if (watermark === null) return null;
  const d = events.dialect;
  const days = { from: addDays(watermark, 1), to: localDay(cut, site.timezone) };
  if (days.from > days.to) return null;
  const count = async (from: number | null) => Number((await events.query<Record<string, unknown>>(eventCountStatement(d, site.id, days, from, cut)))[0]?.[HELD_EVENTS] ?? 0);
  const before = await count(null);
  if (before < minEvents) return null;
  const [open] = await events.query<{ open_from: unknown }>(openFromStatement(d, site.id, days, cut));
  const openFrom = Number(open!.open_from);
  if ((await count(openFrom)) > before * SETTLE_MAX_OPEN_SHARE) return null;
  const rows = settlementRows(d, site.id, days, cut, goals);
  const scope = { siteId: site.id, days: { from: null, to: days.to }, where: { cut } };
  await events.replaceTogether(SETTLED_TABLES.map((table, i) => ({ table, scope, rows: rows[i] ?? null })));
  const [held] = await events.query<Record<string, unknown>>(settlementCheckStatement(d, site.id, { days, cut }));
  // An event stored meanwhile with an earlier instant may or may not be in the rows: they are not used.
  if (Number(held?.[HELD_EVENTS]) !== before) return null;
  return { cut, openFrom, days, events: before, rows: Number(held![HELD_ROWS]), goals: [...goals] };
}

/**
 * Removes the site's settled rows of every cut but `kept`: those retired past their grace, and any
 * a run that stopped before recording its settlement wrote.
 */
async function removeRowsOtherThan(events: EventStore, site: Site, kept: readonly number[]): Promise<void> {
  for (const table of SETTLED_TABLES) {
    const cuts = await events.query<{ cut: unknown; last: string }>(
      sql`SELECT cut, ${trusted(events.dialect.dayText('max(day)'))} AS last FROM ${trusted(table.name)} WHERE site_id = ${site.id} GROUP BY cut`,
    );
    for (const { cut, last } of cuts.filter((r) => !kept.includes(Number(r.cut)))) {
      await events.replaceRows(table, { siteId: site.id, days: { from: null, to: last }, where: { cut: Number(cut) } }, null);
    }
  }
}
