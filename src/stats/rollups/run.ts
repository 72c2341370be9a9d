// The rollup job: brings each site's rollups (./write.ts) up to date, pass by pass (./passes.ts).
//
// Crash safety without multi-statement transactions: a range of days is rewritten (each table's
// rows replaced, `EventStore.replaceRows`) before the site's watermark moves past it, and readers
// use rollups only up to the watermark, so a half-written range is never read and is simply
// rewritten on the next run. Days already under the watermark that must be rewritten (imports) are
// first recorded as pending, and cleared only once rewritten. The watermark and the pending days
// are the MetaStore's (small transactional state); the rollup rows are the EventStore's.
import type { EventStore } from '../../storage/events/types.js';
import type { Site } from '../../entities/sites.js';
import { goalPropsField } from '../../entities/goals.js';
import type { MetaStore, RollupState } from '../../storage/meta/types.js';
import { addDays, localDay, startOfLocalDay } from '../../core/localtime.js';
import { SESSION_GAP_MS } from '../../core/session-gap.js';
import { addMonths, firstOfMonth, MAX_PERIOD_DAYS, type Period } from '../../core/period.js';
import { dayRange } from '../sql/filters.js';
import { GOAL_ROWS_KEY, parseComputed, rawCut, SESSION_PATHS_KEY, SESSION_ROWS_KEY, writtenFrom, type Definitions } from './coverage.js';
import { sql, trusted } from '../../sql/sql.js';
import { rollupKey, underSiteLease } from './key.js';
import { chunks, eventDays } from './passes.js';
import { BACKFILL_DAYS, backfillPart, dropRemoved, nextComputed } from './backfill.js';
import { rewriteDays } from './write.js';
import { updatePairMonths } from './pairs.js';
import { rawWindowStart } from '../windows.js';

export interface RollupDeps {
  events: EventStore;
  meta: MetaStore;
}

export interface RollupOptions {
  /** Keys kept per site, day and dimension; the rest fold into `(other)`. */
  dimensionKeyCap?: number;
  /** Days a run backfills for new goals and funnel versions (`BACKFILL_DAYS`). */
  backfillDays?: number;
}

export const DEFAULT_DIMENSION_KEY_CAP = 10_000;

export async function loadDefinitions(meta: MetaStore, site: Site): Promise<Definitions> {
  const goals = (await meta.listGoals(site.internalId)).map((g) => ({ goalId: g.goalId, kind: g.kind, pattern: g.pattern, ...goalPropsField(g.props), currency: g.currency }));
  const funnels: Definitions['funnels'] = [];
  for (const summary of await meta.listFunnels(site.internalId)) {
    for (let version = 1; version <= summary.version; version++) {
      const f = await meta.getFunnel(site.internalId, summary.id, version);
      if (f) funnels.push({ id: f.id, version: f.version, windowMinutes: f.windowMinutes, steps: f.steps });
    }
  }
  return { goals, funnels, sessionRows: SESSION_ROWS_KEY, sessionPaths: SESSION_PATHS_KEY, goalRows: GOAL_ROWS_KEY };
}

/** The last site-local day that has ended, sessions included. */
export function lastClosedDay(now: number, timeZone: string): string {
  const today = localDay(now, timeZone);
  // A day is rolled up once it has ended and its last sessions have too.
  return now >= startOfLocalDay(today, timeZone) + SESSION_GAP_MS ? addDays(today, -1) : addDays(today, -2);
}

/**
 * The first day from which the site's raw events are whole: its first event's, but the days before
 * the retention task's cut (`cut`) that it keeps for an import's events do not count (the days
 * around them, and those whose collected events went before the import came, are not whole).
 */
async function earliestRawDay(events: EventStore, siteId: string, today: string, cut: string | null): Promise<string | null> {
  const d = events.dialect;
  const days = { from: addDays(today, -MAX_PERIOD_DAYS), to: today };
  const kept = cut === null || cut <= days.from ? null : { from: days.from, to: addDays(cut, -1) };
  const whole = kept === null ? trusted('') : sql`AND day NOT IN (SELECT day FROM events WHERE site_id = ${siteId} AND ${dayRange(d, 'day', kept)} AND import_id IS NOT NULL)`;
  // The first row, not min(): engines differ on what an aggregate over no rows gives.
  const rows = await events.query<{ d: string }>(
    sql`SELECT ${trusted(d.dayText('day'))} AS d FROM events WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days)} ${whole} ORDER BY day LIMIT 1`,
  );
  return rows[0]?.d ?? null;
}

/**
 * Brings a site's rollups up to date: pending days first, then a bounded part of the backfill of
 * new goals and funnel versions, then every closed day after the watermark, advancing it chunk by
 * chunk. Idempotent; an interrupted run resumes where it stopped.
 */
export function rollupSite(deps: RollupDeps, site: Site, now: number, options: RollupOptions = {}): Promise<void> {
  return underSiteLease(deps.meta, site.id, () => rollupSiteNow(deps, site, now, options));
}

/** `rollupSite`, for a caller that holds the site's lease already. */
export async function rollupSiteNow(deps: RollupDeps, site: Site, now: number, options: RollupOptions): Promise<void> {
  const { events, meta } = deps;
  const cap = options.dimensionKeyCap ?? DEFAULT_DIMENSION_KEY_CAP;
  const key = rollupKey(events, site.id);
  const defs = await loadDefinitions(meta, site);
  const today = localDay(now, site.timezone);
  const closed = lastClosedDay(now, site.timezone);
  const state: RollupState = (await meta.getRollupState(key)) ?? { watermark: null, definitions: JSON.stringify(defs) };

  // The months whose days this run rewrites: their pair months are written again after them.
  const touched = new Set<string>();
  const touch = (days: Period) => {
    for (let month = firstOfMonth(days.from); month <= days.to; month = addMonths(month, 1)) touched.add(month);
  };
  for (const day of await meta.listRollupPending(key)) {
    const one = { from: day, to: day };
    touch(one);
    await rewriteDays(events, site.id, one, defs, cap, (await eventDays(events, site.id, one)).length > 0);
    await meta.clearRollupPending(key, day);
  }

  const firstRaw = await earliestRawDay(events, site.id, today, rawCut(state, today, site.rawDays));
  const computed = await nextComputed(events, site.id, state, defs, firstRaw);
  await dropRemoved(events, site.id, parseComputed(state.definitions), defs, today);
  if (JSON.stringify(computed) !== state.definitions) {
    state.definitions = JSON.stringify(computed);
    await meta.setRollupState(key, state);
  }
  if (computed.backfill) {
    computed.backfill = await backfillPart(events, site.id, defs, computed.backfill, options.backfillDays ?? BACKFILL_DAYS);
    if (!computed.backfill) delete computed.backfill;
    state.definitions = JSON.stringify(computed);
    await meta.setRollupState(key, state);
  }

  const from = state.watermark === null ? firstRaw : addDays(state.watermark, 1);
  if (from === null || from > closed) {
    // Nothing to roll up: the watermark still moves to the last closed day (those days are empty).
    if (state.watermark === null || state.watermark < closed) {
      state.watermark = closed;
      await meta.setRollupState(key, state);
    }
  } else {
    const withEvents = await eventDays(events, site.id, { from, to: closed });
    const holdsEvents = (p: Period) => withEvents.some(({ day }) => day >= p.from && day <= p.to);
    const all = chunks({ from, to: closed }, withEvents);
    for (let i = 0; i < all.length; i++) {
      let range = all[i]!;
      const hasEvents = holdsEvents(range);
      // Empty chunks in a row are cleared together: a long quiet stretch costs a few statements.
      while (!hasEvents && i + 1 < all.length && !holdsEvents(all[i + 1]!)) range = { from: range.from, to: all[++i]!.to };
      await rewriteDays(events, site.id, range, defs, cap, hasEvents);
      touch(range);
      state.watermark = range.to;
      await meta.setRollupState(key, state);
    }
  }
  const bounds = { watermark: state.watermark, windowStart: rawWindowStart(today, site.rawDays), sessionRowsFrom: writtenFrom(state, SESSION_ROWS_KEY) };
  await updatePairMonths(events, site.id, bounds, touched);
}

export async function runRollups(deps: RollupDeps, now: number, options: RollupOptions = {}): Promise<void> {
  for (const site of await deps.meta.listAllActiveSites()) await rollupSite(deps, site, now, options);
}
