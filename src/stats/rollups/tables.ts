// The rollup tables (docs/read-path.md, "Where each day's figures come from"), owned by the read side: declared here in engine-neutral terms,
// created by the EventStore adapter (`EventStore.createTables`), written only by the rollup job
// (./write.ts) and read only through the statements of the compiler (src/stats/sql, and ./sql.ts for the job's own). Their
// measure columns come from the registry (src/stats/measures.ts).
import { dimensionColumn, DIMENSIONS, isStoredDimension, scopeOf, type Dimension } from '../../core/vocabulary.js';
import type { ColumnSpec, ColumnType, TableSpec } from '../../storage/events/types.js';
import { GOAL_MEASURES, measureColumns, SESSION_FACTS, TRAFFIC_MEASURES } from '../measures.js';

const column = (name: string, type: ColumnType): ColumnSpec => ({ name, type, nullable: false });
const nullable = (name: string, type: ColumnType): ColumnSpec => ({ name, type, nullable: true });
/** Counts and sums of measures: 64-bit, never NULL (a measure with nothing to count is 0). */
const counts = (columns: readonly string[]) => columns.map((name) => column(name, 'BIGINT'));
const SITE = column('site_id', 'VARCHAR');
const DAY = column('day', 'DATE');
const TRAFFIC = counts(measureColumns(TRAFFIC_MEASURES));
const DIMENSION_KEY = [column('dimension', 'VARCHAR'), column('key', 'VARCHAR')];

/** Per site and day, the traffic measures. */
export const SITE_DAILY: TableSpec = { name: 'site_daily', columns: [SITE, DAY, ...TRAFFIC], dayColumn: 'day', key: [], fewRowsADay: true };

/** Per site, day, dimension and key (capped, the rest folded into `(other)`), the traffic measures. */
export const DIM_DAILY: TableSpec = { name: 'dim_daily', columns: [SITE, DAY, ...DIMENSION_KEY, ...TRAFFIC], dayColumn: 'day', key: ['dimension', 'key'], keyLeads: true };

/** dim_daily summed per calendar month (`month`: its first day). */
export const DIM_MONTHLY: TableSpec = {
  name: 'dim_monthly',
  columns: [SITE, column('month', 'DATE'), ...DIMENSION_KEY, ...TRAFFIC],
  dayColumn: 'month',
  key: ['dimension', 'key'],
  keyLeads: true,
};

/**
 * Pair months: per site, calendar month (`month`: its first day), session-scoped dimension and key
 * (`filter_dimension`, `filter_key`) and another dimension and key, the traffic measures of the
 * month's days under that filter, each day's visitors distinct that day as everywhere, so the sums
 * are exact. A breakdown under one `is` filter on a session-scoped key (the Sources panel under
 * `country:US`) reads a whole month here instead of its session rows or raw events. Written by
 * ./pairs.ts for a month whose every day is rolled up and inside the raw window, with one mark row
 * (names `''`, the pairs written as its key) that says the month is written with them; several
 * rows of one key add up.
 */
export const PAIR_MONTHLY: TableSpec = {
  name: 'pair_monthly',
  columns: [SITE, column('month', 'DATE'), column('filter_dimension', 'VARCHAR'), column('filter_key', 'VARCHAR'), ...DIMENSION_KEY, ...TRAFFIC],
  dayColumn: 'month',
  key: ['filter_dimension', 'filter_key', 'dimension', 'key'],
  keyLeads: true,
};

const GOAL = column('goal_id', 'BIGINT');

/** Per site, day and goal, the goal measures. */
export const GOAL_DAILY: TableSpec = {
  name: 'goal_daily',
  columns: [SITE, DAY, GOAL, ...counts(measureColumns(GOAL_MEASURES))],
  dayColumn: 'day',
  key: ['goal_id'],
  fewRowsADay: true,
};

/** The scroll depth sums of a page and day (SCROLL_DAILY): deepest scrolls summed, and their visitors. */
export const SCROLL_SUMS = ['depth_sum', 'depth_visitors'] as const;
const PAGE_SCROLL = [column('page', 'VARCHAR'), ...counts(SCROLL_SUMS)];

/**
 * Per site, day and page, the deepest scroll (engage events' `scroll_depth`) of each of the page's
 * visitors that day, summed (`depth_sum`), and how many visitors reported one (`depth_visitors`):
 * their mean over any days is the sums' ratio. Never capped (it is read for given pages only).
 */
export const SCROLL_DAILY: TableSpec = {
  name: 'scroll_daily',
  columns: [SITE, DAY, ...PAGE_SCROLL],
  dayColumn: 'day',
  key: ['page'],
};

/**
 * Per site, day and page, how many of the page's `engage` events reported each value of each web
 * vital (`vital`: lcp, inp, cls or ttfb; `value`: the whole number the event carried; `reports`: how
 * many carried it), and under vital `reports` (value 0) how many reported any: the multiset of a
 * page's values over any days is these rows summed, so a 75th percentile by nearest rank over a year
 * is exact. A page and day has at most one row per report and vital, fewer where values repeat.
 */
export const VITALS_DAILY: TableSpec = {
  name: 'vitals_daily',
  columns: [SITE, DAY, column('page', 'VARCHAR'), column('vital', 'VARCHAR'), column('value', 'BIGINT'), column('reports', 'BIGINT')],
  dayColumn: 'day',
  key: ['page', 'vital', 'value'],
};

/** Per site, day, funnel version and step, the visitors who reached the step. */
export const FUNNEL_DAILY: TableSpec = {
  name: 'funnel_daily',
  columns: [SITE, DAY, column('funnel_id', 'BIGINT'), column('version', 'INTEGER'), column('step', 'INTEGER'), column('visitors', 'BIGINT')],
  dayColumn: 'day',
  key: ['funnel_id', 'version', 'step'],
  fewRowsADay: true,
};

/** Scratch rows of a cap: the keys kept for one site, day and dimension while it is refolded. */
export const DIM_TOP_KEYS: TableSpec = { name: 'dim_top_keys', columns: [SITE, DAY, ...DIMENSION_KEY], dayColumn: 'day', key: ['dimension', 'key'], scratch: true };

/** The session-scoped dimensions: their keys are the same on every event of a session. */
export const SESSION_DIMENSIONS = DIMENSIONS.filter((dim) => scopeOf(dim) === 'session');

/**
 * Session rows: one per session and local day it has events on (a session across midnight has a
 * row on each day, each with that day's visitor hash, the only visitor identifier kept). A row holds
 * the day's counts (`starts` 1 on the day the session starts, its pageviews and events that day),
 * the session-scoped keys under the events table's column names (an absent value as `(none)`, so
 * that a filter or a key is a plain comparison), and on the starting day's row whether the session
 * bounced (`bounces` 1) and its duration (`duration_ms`), from its facts over its whole length (0
 * on the other rows). Written by the rollup job with the daily rollups, kept as long
 * as raw events; the planner reads them for long filtered reads (docs/read-path.md, "Session rows").
 */
export const SESSION_ROWS: TableSpec = {
  name: 'session_days',
  columns: [
    // Compared on every session row a long read selects: as a dictionary, once per part.
    { ...SITE, repeated: true },
    DAY,
    column('session_id', 'BIGINT'),
    column('visitor_id', 'BIGINT'),
    ...counts(['starts', 'pageviews', 'events']),
    // Long filtered reads compare and group these keys over every session row of their period.
    ...SESSION_DIMENSIONS.map((dim) => ({ ...column(dimensionColumn(dim), 'VARCHAR'), repeated: true })),
    ...counts([TRAFFIC_MEASURES.bounces.column, TRAFFIC_MEASURES.durationMs.column]),
  ],
  dayColumn: 'day',
  key: ['session_id', 'visitor_id'],
};

/** The session-scoped dimensions every event of a session carries (copied from its first at ingest): all but the exit page, derived per session. */
export const CARRIED_DIMENSIONS = SESSION_DIMENSIONS.filter(isStoredDimension);

/** The goal measures counted per conversion: a goal row holds their sums (`unique_conversions` is its visitors, counted when read). */
export const GOAL_ROW_SUMS = measureColumns(GOAL_MEASURES).filter((name) => name !== GOAL_MEASURES.uniqueConversions.column);

/**
 * Goal rows: per site, day, goal, visitor hash and the carried keys of its conversions (an absent
 * value as `(none)`, as session rows hold it), the conversions' counts and revenue sums. Each event
 * is counted under its own keys, as a filtered raw read counts it, so that goals under filters on
 * carried keys read them instead of every event of the period (docs/read-path.md, "Goal rows"): a
 * year's goals under `country:US` group the year's converting visitors, not its 10 M events. A day
 * has at most one row per conversion. Written by the rollup job with goal_daily (which it sums),
 * kept as long as raw events.
 */
export const GOAL_ROWS: TableSpec = {
  name: 'goal_days',
  columns: [
    { ...SITE, repeated: true },
    DAY,
    GOAL,
    column('visitor_id', 'BIGINT'),
    ...CARRIED_DIMENSIONS.map((dim) => ({ ...column(dimensionColumn(dim), 'VARCHAR'), repeated: true })),
    ...counts(GOAL_ROW_SUMS),
  ],
  dayColumn: 'day',
  key: ['goal_id', 'visitor_id'],
};

/**
 * Session paths: one row per session and local day on which it has a pageview or its start (a
 * session across midnight has a row on each day), for journeys (docs/api.md, Journeys): the visitor
 * of its start event that day (`start_visitor`, NULL on a day it did not start), the carried keys
 * as session rows hold them, and `paths`, the day's pageviews' paths in time order (then bytewise),
 * consecutive repeats once. Bounded: a row whose paths would hold more than PATHS_MAX_BYTES, or whose
 * events disagree on a key, holds none (`raw_needed`): journeys read that day of the session from
 * raw events. Written by the rollup job with the session rows, kept as long as raw events.
 */
export const SESSION_PATHS: TableSpec = {
  name: 'session_paths',
  columns: [
    { ...SITE, repeated: true },
    DAY,
    column('session_id', 'BIGINT'),
    nullable('start_visitor', 'BIGINT'),
    ...CARRIED_DIMENSIONS.map((dim) => ({ ...column(dimensionColumn(dim), 'VARCHAR'), repeated: true })),
    { ...column('paths', 'VARCHAR'), list: true },
    column('raw_needed', 'BOOLEAN'),
  ],
  dayColumn: 'day',
  key: ['session_id'],
};

/**
 * The most bytes a session path row's paths hold (its paths' lengths summed): about 80 paths of 50
 * bytes. A day of a session past it (a crawler's, mostly) is read from raw events, so that answers
 * stay exact whatever the bound, which only keeps the table small.
 */
export const PATHS_MAX_BYTES = 4096;

/**
 * Scratch rows of one rewrite: the parts of sessions, one per session, day and visitor hash, over
 * the rewritten days and one day either side, each with that day's counts, keys, facts
 * (SESSION_FACTS), and its last pageview (`exit_page`, at `last_pageview_ts`; NULL without one).
 * The session rows are made from them: one pass over raw events for every session's facts.
 */
export const SESSION_PARTS: TableSpec = {
  name: 'session_parts',
  columns: [
    SITE,
    DAY,
    column('session_id', 'BIGINT'),
    column('visitor_id', 'BIGINT'),
    ...counts(['starts', 'events']),
    ...SESSION_DIMENSIONS.map((dim) => nullable(dimensionColumn(dim), 'VARCHAR')),
    ...counts(SESSION_FACTS.map((f) => f.column)),
    nullable('last_pageview_ts', 'BIGINT'),
  ],
  dayColumn: 'day',
  key: ['session_id', 'visitor_id'],
  scratch: true,
};

// Imported aggregates (docs/imports.md): another tool's daily figures, per site, day and import,
// with the rollups' measure columns. An import never writes a day that holds events or rollups, so
// a read adds them to the other sources' days.
const IMPORT_ID = column('import_id', 'VARCHAR');
/**
 * The measures of imported keys: NULL where the export's table has no column for one (unknown, never
 * a guessed 0: sums leave it out). The site's own figures come from a table every export has whole.
 */
const KNOWN_OR_UNKNOWN = measureColumns(TRAFFIC_MEASURES).map((name) => (name === TRAFFIC_MEASURES.visitors.column ? column(name, 'BIGINT') : nullable(name, 'BIGINT')));

/** Per site, day and import, the site's traffic measures. */
export const IMPORTED_DAILY: TableSpec = { name: 'imported_daily', columns: [SITE, DAY, IMPORT_ID, ...TRAFFIC], dayColumn: 'day', key: ['import_id'] };

/** Per site, day, import, dimension and key (never capped), the traffic measures. */
export const IMPORTED_DIM_DAILY: TableSpec = {
  name: 'imported_dim_daily',
  columns: [SITE, DAY, IMPORT_ID, ...DIMENSION_KEY, ...KNOWN_OR_UNKNOWN],
  dayColumn: 'day',
  key: ['dimension', 'key', 'import_id'],
  keyLeads: true,
};

/**
 * imported_dim_daily summed per import and calendar month (`month`: its first day), read for the
 * whole months of long breakdowns as dim_monthly is.
 */
export const IMPORTED_DIM_MONTHLY: TableSpec = {
  name: 'imported_dim_monthly',
  columns: [SITE, column('month', 'DATE'), IMPORT_ID, ...DIMENSION_KEY, ...KNOWN_OR_UNKNOWN],
  dayColumn: 'month',
  key: ['dimension', 'key', 'import_id'],
  keyLeads: true,
};

/**
 * Per site, day, import and page, the scroll depth sums as SCROLL_DAILY holds them (from Plausible's
 * pages table, docs/imports.md): a day and page without them (an older export) has no row, its
 * scroll depth unknown.
 */
export const IMPORTED_SCROLL_DAILY: TableSpec = {
  name: 'imported_scroll_daily',
  columns: [SITE, DAY, IMPORT_ID, ...PAGE_SCROLL],
  dayColumn: 'day',
  key: ['page', 'import_id'],
};

/**
 * The rows of an import being read, as parsed (dimension `''`: the site's own figures; keys of one
 * day may repeat and add up): kept until the import is written whole into the tables above,
 * so that a job that stops half-way leaves nothing those tables show.
 */
export const IMPORT_STAGING: TableSpec = {
  name: 'import_staging',
  columns: [SITE, DAY, IMPORT_ID, ...DIMENSION_KEY, ...KNOWN_OR_UNKNOWN],
  dayColumn: 'day',
  key: ['import_id', 'dimension', 'key'],
};

/** The scroll depth sums of an import being read, kept until it is written with the rows of IMPORT_STAGING. */
export const IMPORT_SCROLL_STAGING: TableSpec = {
  name: 'import_scroll_staging',
  columns: [SITE, DAY, IMPORT_ID, ...PAGE_SCROLL],
  dayColumn: 'day',
  key: ['import_id', 'page'],
};

export const IMPORTED_TABLES = [IMPORTED_DAILY, IMPORTED_DIM_DAILY, IMPORTED_DIM_MONTHLY, IMPORTED_SCROLL_DAILY] as const;
/** The tables of an import being read. */
export const IMPORT_STAGING_TABLES = [IMPORT_STAGING, IMPORT_SCROLL_STAGING] as const;

/** The tables a day's rewrite replaces from raw events. */
export const DAILY_TABLES = [SITE_DAILY, DIM_DAILY, GOAL_DAILY, GOAL_ROWS, FUNNEL_DAILY, SESSION_ROWS, SESSION_PATHS, SCROLL_DAILY, VITALS_DAILY] as const;
export const ROLLUP_TABLES: readonly TableSpec[] = [...DAILY_TABLES, DIM_MONTHLY, PAIR_MONTHLY, DIM_TOP_KEYS, SESSION_PARTS, ...IMPORTED_TABLES, ...IMPORT_STAGING_TABLES];
