// The events of one import of another tool's raw events (GoatCounter's, Umami's export), found by the
// import id they carry (`import_id`), so that deleting the import, or importing the same export
// again, finds them among the site's collected events.
import type { Period } from '../../core/period.js';
import { joinSql, sql, trusted } from '../../sql/sql.js';
import { EVENTS_TABLE } from './schema.js';
import type { EventStore } from './types.js';

/** Every day an import's events may lie on: every engine's DATE range (ClickHouse's Date ends in 2105). */
export const ANY_DAY: Period = { from: '1970-01-01', to: '2105-12-31' };

/** The site-local days of `days` that hold events of the imports `importIds` (of any import: null), ascending. */
export async function daysOfImports(events: EventStore, siteId: string, importIds: readonly string[] | null, days: Period): Promise<string[]> {
  if (importIds?.length === 0) return [];
  const d = events.dialect;
  const imports = importIds === null ? sql`import_id IS NOT NULL` : sql`import_id IN (${joinSql(importIds.map((id) => sql`${id}`), ', ')})`;
  const rows = await events.query<{ d: string }>(
    sql`SELECT DISTINCT ${trusted(d.dayText('day'))} AS d FROM events WHERE site_id = ${siteId}
      AND day BETWEEN ${trusted(d.dateLiteral(days.from))} AND ${trusted(d.dateLiteral(days.to))} AND ${imports} ORDER BY d`,
  );
  return rows.map((r) => r.d);
}

/** Removes the events of the imports `importIds` on `days` (what was derived from them is the caller's to rewrite). */
export async function removeImportEvents(events: EventStore, siteId: string, importIds: readonly string[], days: Period): Promise<void> {
  for (const importId of importIds) await events.replaceRows(EVENTS_TABLE, { siteId, days, where: { import_id: importId } }, null);
}
