// GET /app/v1/sites/:id/properties: the custom property keys the site's events carry over the period,
// for the dashboard's Properties tab to pick from (most events first).
import type { EventReader } from '../../storage/events/types.js';
import type { PropertyKeysAnswer } from '../../core/answers.js';
import { propertyKeysStatement } from '../sql/properties.js';
import type { PlannedQuery } from '../planner.js';

/** How many keys the list holds at most. */
export const PROPERTY_KEYS_LIMIT = 100;

export async function computePropertyKeys(events: EventReader, q: PlannedQuery): Promise<PropertyKeysAnswer['keys']> {
  const statement = propertyKeysStatement(events.dialect, q.siteId, q.plan.period, PROPERTY_KEYS_LIMIT);
  if (statement === null) return [];
  const rows = await events.query<{ k: string; n: unknown }>(statement);
  return rows.map((r) => ({ key: r.k, events: Number(r.n) }));
}
