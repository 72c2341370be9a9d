// The rollup tables (docs/api.md, "How answers are computed"), owned by the read side: declared here in engine-neutral terms,
// created by the EventStore adapter (`EventStore.createTables`), written only by the rollup job
// (./job.ts) and read only through the statements of the compiler (src/stats/compile.ts). Their
// measure columns come from the registry (src/stats/measures.ts).
import { DIMENSIONS, scopeOf, type Dimension } from '../../core/vocabulary.js';
import type { ColumnSpec, ColumnType, TableSpec } from '../../storage/events/types.js';
import { GOAL_MEASURES, measureColumns, SESSION_FACTS, TRAFFIC_MEASURES } from '../measures.js';

const column = (name: string, type: ColumnType): ColumnSpec => ({ name, type, nullable: false });
/** Counts and sums of measures: 64-bit, never NULL (a measure with nothing to count is 0). */
const counts = (columns: readonly string[]) => columns.map((name) => column(name, 'BIGINT'));
const SITE = column('site_id', 'VARCHAR');
const DAY = column('day', 'DATE');
const TRAFFIC = counts(measureColumns(TRAFFIC_MEASURES));
const DIMENSION_KEY = [column('dimension', 'VARCHAR'), column('key', 'VARCHAR')];

/** Per site and day, the traffic measures. */
export const SITE_DAILY: TableSpec = { name: 'site_daily', columns: [SITE, DAY, ...TRAFFIC], dayColumn: 'day', key: [] };

/** Per site, day, dimension and key (capped, the rest folded into `(other)`), the traffic measures. */
export const DIM_DAILY: TableSpec = { name: 'dim_daily', columns: [SITE, DAY, ...DIMENSION_KEY, ...TRAFFIC], dayColumn: 'day', key: ['dimension', 'key'] };

/** dim_daily summed per calendar month (`month`: its first day). */
export const DIM_MONTHLY: TableSpec = {
  name: 'dim_monthly',
  columns: [SITE, column('month', 'DATE'), ...DIMENSION_KEY, ...TRAFFIC],
  dayColumn: 'month',
  key: ['dimension', 'key'],
};

/** Per site, day and goal, the goal measures. */
export const GOAL_DAILY: TableSpec = {
  name: 'goal_daily',
  columns: [SITE, DAY, column('goal_id', 'BIGINT'), ...counts(measureColumns(GOAL_MEASURES))],
  dayColumn: 'day',
  key: ['goal_id'],
};

/** Per site, day, funnel version and step, the visitors who reached the step. */
export const FUNNEL_DAILY: TableSpec = {
  name: 'funnel_daily',
  columns: [SITE, DAY, column('funnel_id', 'BIGINT'), column('version', 'INTEGER'), column('step', 'INTEGER'), column('visitors', 'BIGINT')],
  dayColumn: 'day',
  key: ['funnel_id', 'version', 'step'],
};

/** Scratch rows of a cap: the keys kept for one site, day and dimension while it is refolded. */
export const DIM_TOP_KEYS: TableSpec = { name: 'dim_top_keys', columns: [SITE, DAY, ...DIMENSION_KEY], dayColumn: 'day', key: ['dimension', 'key'], scratch: true };

export const SESSION_DIMENSIONS = DIMENSIONS.filter((dim) => scopeOf(dim) === 'session');
/** The column of rollup_sessions holding a session dimension's key. */
export const factsKey = (dimension: Dimension) => `k_${dimension}`;

/**
 * Scratch rows of one rewrite: the facts of every session that starts in its days (`sb`, the start
 * day), computed once for all dimensions, and cleared once the rewrite is done.
 */
export const ROLLUP_SESSIONS: TableSpec = {
  name: 'rollup_sessions',
  columns: [
    SITE,
    column('session_id', 'BIGINT'),
    column('sb', 'DATE'),
    ...SESSION_DIMENSIONS.map((dim) => column(factsKey(dim), 'VARCHAR')),
    ...counts(SESSION_FACTS.map((f) => f.column)),
  ],
  dayColumn: 'sb',
  key: ['session_id'],
  scratch: true,
};

/** The tables a day's rewrite replaces from raw events. */
export const DAILY_TABLES = [SITE_DAILY, DIM_DAILY, GOAL_DAILY, FUNNEL_DAILY] as const;
export const ROLLUP_TABLES: readonly TableSpec[] = [...DAILY_TABLES, DIM_MONTHLY, DIM_TOP_KEYS, ROLLUP_SESSIONS];
