// Finding a dimension's values by what a person reads. The API's `search` matches keys, and most keys
// are what people read: pages, browser and system names, and region and city names as the
// geolocation database writes them. A country's key is its ISO code, shown by its name in the
// page's language (keyLabel: `Deutschland` for a German reader): countries are matched here, by name or code, over every country
// of the period, a list bounded by the number of codes; goals (ids) by their names, over the site's goals.
import { keyLabel, type GoalNames } from './labels.js';
import type { RowsPage } from '../../src/core/dashboard-reads.js';
import type { BreakdownRow } from '../../src/core/answers.js';
import { GOAL_DIMENSION, type FilterDimension } from '../../src/core/vocabulary.js';

/** More than there are ISO 3166 country codes (249), so one read holds every country of a period. */
const COUNTRY_ROWS = 300;

/** Whether the dialog matches the dimension's values by their names itself, rather than the API by key. */
export const matchedByName = (dimension: FilterDimension): boolean => dimension === 'country' || dimension === GOAL_DIMENSION;

/** The rows to read for a search: the API's matches, or every row of a dimension matched by name. */
export function valuesPage(dimension: FilterDimension, search: string, shown: number): RowsPage {
  return matchedByName(dimension) ? { limit: COUNTRY_ROWS } : { limit: shown, search };
}

/** Text as compared: lower case, without accents (`Ö` as `o`), so `osterreich` finds `Österreich`. */
const folded = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLocaleLowerCase();

/**
 * The rows whose name or key contains `search` (case and accents aside): an exact key first, then
 * names that start with it, then the others, each in the API's order (most visitors first).
 */
export function rowsNamed(dimension: FilterDimension, rows: readonly BreakdownRow[], search: string, shown: number, goals?: GoalNames): BreakdownRow[] {
  if (search === '') return rows.slice(0, shown);
  const wanted = folded(search);
  const rank = (row: BreakdownRow): number => {
    const name = folded(keyLabel(dimension, row.key, goals));
    if (folded(row.key) === wanted) return 0;
    if (name.startsWith(wanted)) return 1;
    return name.includes(wanted) ? 2 : 3;
  };
  const ranked = rows.map((row) => ({ row, rank: rank(row) })).filter((r) => r.rank < 3);
  return ranked
    .sort((a, b) => a.rank - b.rank)
    .slice(0, shown)
    .map((r) => r.row);
}
