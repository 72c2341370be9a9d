// The rollup job's last step: a site's settlement (src/stats/settlement.ts), its raw days after the
// watermark counted up to a cut a little before the run, so that reads of those days group only the
// events of the sessions still open at the cut.
import { addDays, localDay } from '../../core/localtime.js';
import type { Site } from '../../entities/sites.js';
import type { EventStore } from '../../storage/events/types.js';
import { sql, trusted } from '../../sql/sql.js';
import { openFromStatement, settlementCheckStatement, settlementRows, type GoalRef } from '../compile.js';
import { HELD_EVENTS, parseSettlements, SETTLE_LAG_MS, SETTLED_ROWS_GRACE_MS, type Settlement, type Settlements } from '../settlement.js';
import { SETTLED_TABLES } from './tables.js';

export interface SettleOptions {
  /** The fewest events before the cut for which the days are settled. */
  minEvents: number;
}

/**
 * The site's next settlements (JSON, for its rollup state), given the current ones (`known`): a new
 * one of a cut `SETTLE_LAG_MS` before `now`, its rows written, where the days after the watermark
 * hold at least `minEvents` events before it (else none); the one it replaces retired; and the rows
 * of every other cut removed once retired for `SETTLED_ROWS_GRACE_MS`.
 */
export async function settleSite(events: EventStore, site: Site, known: string | null | undefined, watermark: string | null, goals: readonly GoalRef[], now: number, options: SettleOptions): Promise<string | null> {
  const { current, retired } = parseSettlements(known);
  const next = await settle(events, site, watermark, goals, now - SETTLE_LAG_MS, options.minEvents);
  if (!next && !current && retired.length === 0) return null;
  const settlements: Settlements = {
    current: next,
    retired: [...retired.filter((r) => now - r.at < SETTLED_ROWS_GRACE_MS), ...(current ? [{ cut: current.cut, at: now }] : [])],
  };
  await removeRowsOtherThan(events, site, addDays(localDay(now, site.timezone), 1), [...(next ? [next.cut] : []), ...settlements.retired.map((r) => r.cut)]);
  return settlements.current || settlements.retired.length > 0 ? JSON.stringify(settlements) : null;
}

/** The settlement of the days after the watermark at `cut`, its rows written; null where there is none to make. */
async function settle(events: EventStore, site: Site, watermark: string | null, goals: readonly GoalRef[], cut: number, minEvents: number): Promise<Settlement | null> {
  if (watermark === null) return null;
  const d = events.dialect;
  const days = { from: addDays(watermark, 1), to: localDay(cut, site.timezone) };
  if (days.from > days.to) return null;
  const [counted] = await events.query<Record<string, unknown>>(settlementCheckStatement(d, site.id, { days, cut }));
  const before = Number(counted?.[HELD_EVENTS] ?? 0);
  if (before < minEvents) return null;
  const [open] = await events.query<{ open_from: unknown }>(openFromStatement(d, site.id, days, cut));
  const rows = settlementRows(d, site.id, days, cut, goals);
  const scope = { siteId: site.id, days: { from: null, to: days.to }, where: { cut } };
  await events.replaceTogether(SETTLED_TABLES.map((table, i) => ({ table, scope, rows: rows[i] ?? null })));
  return { cut, openFrom: Number(open!.open_from), days, events: before, goals: [...goals] };
}

/** Removes the site's settled rows (up to `lastDay`) of every cut but `kept`: those retired past their grace, and any a run stopped before recording. */
async function removeRowsOtherThan(events: EventStore, site: Site, lastDay: string, kept: readonly number[]): Promise<void> {
  for (const table of SETTLED_TABLES) {
    const cuts = await events.query<{ cut: unknown }>(sql`SELECT DISTINCT cut FROM ${trusted(table.name)} WHERE site_id = ${site.id}`);
    for (const cut of cuts.map((r) => Number(r.cut)).filter((c) => !kept.includes(c))) {
      await events.replaceRows(table, { siteId: site.id, days: { from: null, to: lastDay }, where: { cut } }, null);
    }
  }
}
