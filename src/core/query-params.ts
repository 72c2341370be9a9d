// The read API's query parameters, declared once: the OpenAPI document publishes each one's schema
// and description (src/http/v1/schemas.ts lists them per route), and src/core/query.ts parses a
// request by the same schemas (their values, bounds and lengths), answering its own error messages.
import { Type, type TInteger, type TString } from 'typebox';
import { daySchema, dimensionSchema, stringEnum } from './answers.js';
import { METRICS } from './metric-registry.js';
import { FIRST_DAY, LAST_DAY } from './period.js';
import { SEGMENT_PARAM } from './segments.js';
import {
  BREAKDOWN_INCLUDES,
  BREAKDOWN_LIMIT,
  COMPARISONS,
  CONTAINS_TEXT_LENGTH,
  DIMENSIONS,
  FILTER_VALUES_MAX,
  GOAL_DIMENSION,
  JOURNEY_DIRECTIONS,
  JOURNEY_LIMIT,
  JOURNEY_STEPS,
  PRESETS,
  PROPERTY_PREFIX,
  RAW_CLIP,
} from './vocabulary.js';

export interface QueryParam<Schema extends object = object> {
  name: string;
  in: 'query';
  description: string;
  schema: Schema;
  required?: boolean;
  /** Repeatable. */
  repeat?: boolean;
}

/** An integer parameter in minimum..maximum (both accepted). */
export type IntegerParam = QueryParam<TInteger & { minimum: number; maximum: number }>;
/** A parameter of one of `enum`. */
export type ChoiceParam<V extends string> = QueryParam<{ enum: readonly V[] }>;
/** A text parameter of at most `maxLength` characters. */
export type TextParam = QueryParam<TString & { maxLength: number }>;

const param = <Schema extends object>(name: string, description: string, schema: Schema, more: Pick<QueryParam, 'required' | 'repeat'> = {}): QueryParam<Schema> => ({
  name,
  in: 'query',
  description,
  schema,
  ...more,
});
const integerIn = (minimum: number, maximum: number) => Type.Integer({ minimum, maximum }) as IntegerParam['schema'];
const BOOLEAN = ['true', 'false'] as const;
const includes = Object.keys(BREAKDOWN_INCLUDES).join('|');

export const QUERY_PARAMS = {
  period: param(
    'period',
    "Preset in the site zone; default 30d; 12mo from the first day of the month eleven months back, all from the site's first day with data",
    stringEnum(PRESETS),
  ),
  from: param('from', `First day, inclusive, ${FIRST_DAY} to ${LAST_DAY}; with \`to\`, takes priority over \`period\``, daySchema),
  to: param('to', `Last day, inclusive, ${FIRST_DAY} to ${LAST_DAY}; with \`from\``, daySchema),
  comparison: param('comparison', 'What prev compares with: the previous period (default), the same days a year earlier, or nothing', stringEnum(COMPARISONS)),
  filter: param(
    'filter',
    `<dimension>:<value> (is), <dimension>!:<value> (is not, (none) included) or <dimension>~:<text> (contains, case-insensitive, literal, 1 to ${CONTAINS_TEXT_LENGTH.max} characters); a value may list up to ${FILTER_VALUES_MAX} values separated by | (country:DE|AT: is any of them; !: none of them; ~: contains any of them), a literal | written \\| and a literal \\ as \\\\; repeatable, combined with AND, one per dimension whatever the operator; dimensions: ${DIMENSIONS.join(', ')}, or ${PROPERTY_PREFIX}<key> (a custom property; the key ends at the first ':', so a key containing ':' cannot be filtered); (none) matches absent values; ${GOAL_DIMENSION}:<goalId> (with raw=clip, is only, several ids with |) keeps the events completing the goals: visitors are then converters, and stats add conversionRate, breakdown rows conversions and conversionRate`,
    Type.String(),
    { repeat: true },
  ),
  segment: param(
    SEGMENT_PARAM,
    "A shared segment's id (GET /v1/sites/{siteId}/segments): its filters join the request's, as if written out; a dimension in both is 400, an unknown segment 404",
    Type.Integer(),
  ),
  raw: param(
    'raw',
    `${RAW_CLIP}: where the read needs raw events and the period starts before the raw window, answer the part inside it (header Svc-Raw-Window) instead of 400 RAW_WINDOW_EXCEEDED`,
    stringEnum([RAW_CLIP]),
  ),
  elapsed: param('elapsed', 'true compares a period containing today with the same elapsed part of the compared period', stringEnum(BOOLEAN)),
  metric: param('metric', 'Default visitors', stringEnum(METRICS)),
  compare: param('compare', 'true adds the compared period as `prev`', stringEnum(BOOLEAN)),
  dimension: param(
    'dimension',
    `Dimension to rank; ${PROPERTY_PREFIX}<key> ranks the values of a custom property over the events that carry it (views: those events)`,
    dimensionSchema,
    { required: true },
  ),
  breakdownLimit: param('limit', `Default ${BREAKDOWN_LIMIT.default}`, integerIn(BREAKDOWN_LIMIT.min, BREAKDOWN_LIMIT.max)),
  offset: param('offset', 'Default 0', integerIn(0, 1_000_000_000)),
  search: param('search', 'Case-insensitive substring of the key', Type.String({ maxLength: 256 }) as TextParam['schema']),
  include: param(
    'include',
    'What the rows add, comma-separated: bounceRate, avgDuration (each row as stats with the key as a filter), timeOnPage (dimension page, likewise), scrollDepth and vitals (dimension page, without filter)',
    Type.String({ pattern: `^(${includes})(,(${includes}))*$` }),
  ),
  steps: param('steps', `Pages per row at most; default ${JOURNEY_STEPS.default}`, integerIn(JOURNEY_STEPS.min, JOURNEY_STEPS.max)),
  page: param(
    'page',
    "A page (its path, literally): the rows start (next) or end (previous) at each of its visits; without it, the rows are the sessions' first pages",
    // The longest page an event keeps (src/ingest/url-values.ts).
    Type.String({ pattern: '^/', maxLength: 2048 }) as TextParam['schema'],
  ),
  direction: param('direction', `Default ${JOURNEY_DIRECTIONS[0]}; read with page only (without one, the journeys' first paths)`, stringEnum(JOURNEY_DIRECTIONS)),
  journeyLimit: param('limit', `Default ${JOURNEY_LIMIT.default}`, integerIn(JOURNEY_LIMIT.min, JOURNEY_LIMIT.max)),
  version: param('version', 'Out of 1..current selects the current version', Type.Integer()),
} satisfies Record<string, QueryParam>;

/** The period parameters every read over a period takes. */
export const PERIOD_PARAMS = [QUERY_PARAMS.period, QUERY_PARAMS.from, QUERY_PARAMS.to];
