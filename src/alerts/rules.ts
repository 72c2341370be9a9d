// What each rule type watches and when it fires (docs/webhooks.md, Rules). A rule fires once when its
// condition becomes true and re-arms only after the condition was false at an evaluation; a goal
// rule fires at most once per site-local day.
import { localDay } from '../core/localtime.js';
import type { EventStore } from '../storage/events/types.js';
import { goalConversionsOnDay, lastEventTimes, RAW_WINDOW_MS, visitorsInWindow, type GoalCount } from './rule-metrics.js';
import type { GoalDefinition, RuleWithSite } from '../entities/alerts.js';
import type { RuleType } from '../core/vocabulary.js';

export const SPIKE_WINDOW_MS = 5 * 60_000;
export const DROP_WINDOW_MS = 12 * 3_600_000;
const HOUR_MS = 3_600_000;

export function conditionHolds(type: RuleType, value: number, threshold: number): boolean {
  return type === 'drop' ? value <= threshold : value >= threshold;
}

export interface EpisodeState {
  inEpisode: boolean;
  lastFiredDay: string | null;
}

export interface Decision {
  fire: boolean;
  next: EpisodeState;
}

export function decide(type: RuleType, holds: boolean, state: EpisodeState, today: string): Decision {
  if (!holds) return { fire: false, next: { inEpisode: false, lastFiredDay: state.lastFiredDay } };
  if (state.inEpisode) return { fire: false, next: state };
  if (type === 'goal' && state.lastFiredDay === today) return { fire: false, next: { inEpisode: true, lastFiredDay: today } };
  return { fire: true, next: { inEpisode: true, lastFiredDay: today } };
}

/** Silence values are hours; two decimals are plenty for a message and keep the body readable. */
function roundHours(ms: number): number {
  return Math.round((ms / HOUR_MS) * 100) / 100;
}

type RuleForValue = Pick<RuleWithSite, 'id' | 'type' | 'goalId' | 'sitePublicId' | 'siteTimezone' | 'siteCreatedAt'>;

/**
 * The current value of every rule at `now`, one batched query per measurement (goals: one per
 * site). A goal rule whose goal no longer exists has no value and is skipped; one whose site's goals
 * could not be counted has the error for a value (a `StatementTimeout` past their deadline).
 */
export async function ruleValues(
  events: EventStore,
  rules: readonly RuleForValue[],
  goals: ReadonlyMap<number, GoalDefinition>,
  now: number,
  goalCountDeadlineMs?: number,
): Promise<Map<number, number | Error>> {
  const sitesOf = (type: RuleType) => [...new Set(rules.filter((r) => r.type === type).map((r) => r.sitePublicId))];
  // Goals to count, grouped by the site-local day that is "today" for their site (one query a day).
  const goalsByDay = new Map<string, Map<number, GoalCount>>();
  for (const r of rules) {
    const goal = r.type === 'goal' && r.goalId !== null ? goals.get(r.goalId) : undefined;
    if (!goal) continue;
    const day = localDay(now, r.siteTimezone);
    const forDay = goalsByDay.get(day) ?? new Map<number, GoalCount>();
    forDay.set(goal.goalId, { ...goal, siteId: r.sitePublicId });
    goalsByDay.set(day, forDay);
  }

  const [spike, drop, lastSeen] = await Promise.all([
    visitorsInWindow(events, sitesOf('spike'), now - SPIKE_WINDOW_MS, now),
    visitorsInWindow(events, sitesOf('drop'), now - DROP_WINDOW_MS, now),
    lastEventTimes(events, sitesOf('silence'), now),
  ]);
  // Goal counts one day after another (and one site at a time within a day): whatever the rules' time
  // zones, an evaluation holds at most one read connection for them, and the others stay to readers.
  const conversions = new Map<number, number | Error>();
  for (const [day, forDay] of goalsByDay) {
    for (const [goalId, n] of await goalConversionsOnDay(events, day, [...forDay.values()], goalCountDeadlineMs)) conversions.set(goalId, n);
  }

  const values = new Map<number, number | Error>();
  for (const r of rules) {
    switch (r.type) {
      case 'spike':
        values.set(r.id, spike.get(r.sitePublicId) ?? 0);
        break;
      case 'drop':
        values.set(r.id, drop.get(r.sitePublicId) ?? 0);
        break;
      case 'silence': {
        // No event in the raw window: silent at least since the window start (or the site's creation).
        const since = lastSeen.get(r.sitePublicId) ?? Math.max(r.siteCreatedAt, now - RAW_WINDOW_MS);
        values.set(r.id, roundHours(Math.max(0, now - since)));
        break;
      }
      case 'goal': {
        const n = r.goalId === null ? undefined : conversions.get(r.goalId);
        if (n !== undefined) values.set(r.id, n);
        break;
      }
    }
  }
  return values;
}
