// The /v1 route table: each operation's path, summary and parameters, and the read API's error
// envelope. The routes serialize their answers with the schemas of src/core/answers.ts, and the
// OpenAPI document (src/http/openapi.ts) is generated from both, so the published contract and the
// bytes on the wire cannot drift apart.
import { Type } from 'typebox';
import type { ErrorCode } from '../../core/errors.js';
import { daySchema, dimensionSchema, object, stringEnum, type Operation } from '../../core/answers.js';
import { FIRST_DAY, LAST_DAY } from '../../core/period.js';
import { BREAKDOWN_OFFSET_MAX, JOURNEY_PAGE_MAX_LENGTH, SEARCH_MAX_LENGTH } from '../../core/query.js';
import {
  BREAKDOWN_INCLUDES,
  BREAKDOWN_LIMIT,
  COMPARISONS,
  CONTAINS_TEXT_LENGTH,
  FILTER_VALUES_MAX,
  DIMENSIONS,
  GOAL_DIMENSION,
  JOURNEY_DIRECTIONS,
  JOURNEY_LIMIT,
  JOURNEY_STEPS,
  PRESETS,
  PROPERTY_KEY_LENGTH,
  PROPERTY_PREFIX,
  RAW_CLIP,
} from '../../core/vocabulary.js';
import { METRICS } from '../../core/metric-registry.js';
import { SEGMENT_PARAM } from '../../core/segments.js';

type Schema = object;

const integer: Schema = { type: 'integer' };
const string: Schema = { type: 'string' };

/** The error codes the read API can answer with (docs/api.md, Errors). */
export const V1_ERROR_CODES = [
  'UNAUTHORIZED',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'REQUEST_TIMEOUT',
  'INVALID_PARAMS',
  'INVALID_PERIOD',
  'INVALID_TIMEZONE',
  'RAW_WINDOW_EXCEEDED',
  'METRIC_NOT_FILTERABLE',
  'HOURLY_CONVERSIONS_UNSUPPORTED',
  'RATE_LIMITED',
  'HEADERS_TOO_LARGE',
  'INTERNAL',
  'QUERY_TIMEOUT',
  'QUERY_TOO_LARGE',
] as const satisfies readonly ErrorCode[];

/** The read API's refusal (docs/api.md, Errors), published beside the answers' schemas. */
export const errorSchema = object({ error: object({ code: stringEnum(V1_ERROR_CODES), message: Type.String() }) });

export interface ParameterDoc {
  name: string;
  in: 'query' | 'path';
  description: string;
  schema: Schema;
  required?: boolean;
  /** Repeatable query parameter. */
  repeat?: boolean;
}

const siteId: ParameterDoc = { name: 'siteId', in: 'path', required: true, description: "The site's public id", schema: string };
const periodParams: ParameterDoc[] = [
  { name: 'period', in: 'query', description: 'Preset in the site zone; default 30d; 12mo from the first day of the month eleven months back, all from the site\'s first day with data', schema: { type: 'string', enum: [...PRESETS] } },
  { name: 'from', in: 'query', description: `First day, inclusive, ${FIRST_DAY} to ${LAST_DAY}; with \`to\`, takes priority over \`period\``, schema: daySchema },
  { name: 'to', in: 'query', description: `Last day, inclusive, ${FIRST_DAY} to ${LAST_DAY}; with \`from\``, schema: daySchema },
];
const comparison: ParameterDoc = {
  name: 'comparison',
  in: 'query',
  description: 'What prev compares with: the previous period (default), the same days a year earlier, or nothing',
  schema: { type: 'string', enum: [...COMPARISONS] },
};
const filter: ParameterDoc = {
  name: 'filter',
  in: 'query',
  repeat: true,
  description: `<dimension>:<value> (is), <dimension>!:<value> (is not, (none) included) or <dimension>~:<text> (contains, case-insensitive, literal, 1 to ${CONTAINS_TEXT_LENGTH.max} characters); a value may list up to ${FILTER_VALUES_MAX} values separated by | (country:DE|AT: is any of them; !: none of them; ~: contains any of them), a literal | written \\| and a literal \\ as \\\\; repeatable, combined with AND, one per dimension whatever the operator; dimensions: ${DIMENSIONS.join(', ')}, or ${PROPERTY_PREFIX}<key> (a custom property; the key ends at the first ':', so a key containing ':' cannot be filtered); (none) matches absent values; ${GOAL_DIMENSION}:<goalId> (with raw=clip, is only, several ids with |) keeps the events completing the goals: visitors are then converters, and stats add conversionRate, breakdown rows conversions and conversionRate`,
  schema: string,
};

const segment: ParameterDoc = {
  name: SEGMENT_PARAM,
  in: 'query',
  description: "A shared segment's id (GET /v1/sites/{siteId}/segments): its filters join the request's, as if written out; a dimension in both is 400, an unknown segment 404",
  schema: integer,
};

const rawClip: ParameterDoc = {
  name: 'raw',
  in: 'query',
  description: `${RAW_CLIP}: where the read needs raw events and the period starts before the raw window, answer the part inside it (header Svc-Raw-Window) instead of 400 RAW_WINDOW_EXCEEDED`,
  schema: { type: 'string', enum: [RAW_CLIP] },
};

export interface RouteDoc {
  operationId: Operation;
  path: string;
  summary: string;
  parameters: ParameterDoc[];
}

export const ROUTES: RouteDoc[] = [
  { operationId: 'sites', path: '/v1/sites', summary: "Active sites of the key's organisation", parameters: [] },
  {
    operationId: 'stats',
    path: '/v1/sites/:siteId/stats',
    summary: 'KPIs with the previous period, or the one chosen by comparison',
    parameters: [
      siteId,
      comparison,
      { name: 'elapsed', in: 'query', description: 'true compares a period containing today with the same elapsed part of the compared period', schema: { type: 'string', enum: ['true', 'false'] } },
      ...periodParams,
      filter,
      segment,
      rawClip,
    ],
  },
  {
    operationId: 'timeseries',
    path: '/v1/sites/:siteId/timeseries',
    summary: 'One metric per bucket (hour, day, week or month by period length)',
    parameters: [
      siteId,
      { name: 'metric', in: 'query', description: 'Default visitors', schema: { type: 'string', enum: [...METRICS] } },
      { name: 'compare', in: 'query', description: 'true adds the compared period as `prev`', schema: { type: 'string', enum: ['true', 'false'] } },
      comparison,
      ...periodParams,
      filter,
      segment,
      rawClip,
    ],
  },
  {
    operationId: 'breakdown',
    path: '/v1/sites/:siteId/breakdown',
    summary: 'Ranking of the keys of one dimension',
    parameters: [
      siteId,
      { name: 'dimension', in: 'query', required: true, description: `Dimension to rank; ${PROPERTY_PREFIX}<key> ranks the values of a custom property over the events that carry it (views: those events)`, schema: dimensionSchema },
      { name: 'limit', in: 'query', description: `Default ${BREAKDOWN_LIMIT.default}`, schema: { type: 'integer', minimum: BREAKDOWN_LIMIT.min, maximum: BREAKDOWN_LIMIT.max } },
      { name: 'offset', in: 'query', description: 'Default 0', schema: { type: 'integer', minimum: 0, maximum: BREAKDOWN_OFFSET_MAX } },
      { name: 'search', in: 'query', description: 'Case-insensitive substring of the key', schema: { type: 'string', maxLength: SEARCH_MAX_LENGTH } },
      {
        name: 'include',
        in: 'query',
        description: 'What the rows add, comma-separated: bounceRate, avgDuration (each row as stats with the key as a filter), timeOnPage (dimension page, likewise), scrollDepth and vitals (dimension page, without filter)',
        schema: { type: 'string', pattern: `^(${Object.keys(BREAKDOWN_INCLUDES).join('|')})(,(${Object.keys(BREAKDOWN_INCLUDES).join('|')}))*$` },
      },
      ...periodParams,
      filter,
      segment,
      rawClip,
    ],
  },
  { operationId: 'segments', path: '/v1/sites/:siteId/segments', summary: "The site's shared segments", parameters: [siteId] },
  { operationId: 'annotations', path: '/v1/sites/:siteId/annotations', summary: 'The annotations whose day lies in the period, by date', parameters: [siteId, ...periodParams] },
  {
    operationId: 'journeys',
    path: '/v1/sites/:siteId/journeys',
    summary: "The most frequent paths through the sessions that start in the period (a raw read: within the site's raw window)",
    parameters: [
      siteId,
      { name: 'steps', in: 'query', description: `Pages per row at most; default ${JOURNEY_STEPS.default}`, schema: { type: 'integer', minimum: JOURNEY_STEPS.min, maximum: JOURNEY_STEPS.max } },
      {
        name: 'page',
        in: 'query',
        description: "A page (its path, literally): the rows start (next) or end (previous) at each of its visits; without it, the rows are the sessions' first pages",
        schema: { type: 'string', pattern: '^/', maxLength: JOURNEY_PAGE_MAX_LENGTH },
      },
      { name: 'direction', in: 'query', description: `Default ${JOURNEY_DIRECTIONS[0]}; read with page only (without one, the journeys' first paths)`, schema: { type: 'string', enum: [...JOURNEY_DIRECTIONS] } },
      { name: 'limit', in: 'query', description: `Default ${JOURNEY_LIMIT.default}`, schema: { type: 'integer', minimum: JOURNEY_LIMIT.min, maximum: JOURNEY_LIMIT.max } },
      ...periodParams,
      filter,
      rawClip,
    ],
  },
  { operationId: 'realtime', path: '/v1/sites/:siteId/realtime', summary: 'Last 5 and 30 minutes', parameters: [siteId] },
  { operationId: 'goals', path: '/v1/sites/:siteId/goals', summary: 'Conversions of each goal', parameters: [siteId, ...periodParams] },
  { operationId: 'funnels', path: '/v1/sites/:siteId/funnels', summary: 'Funnels of the site', parameters: [siteId] },
  {
    operationId: 'funnel',
    path: '/v1/sites/:siteId/funnels/:funnelId',
    summary: 'One funnel version over a period, with the previous period',
    parameters: [
      siteId,
      { name: 'funnelId', in: 'path', required: true, description: 'Funnel id', schema: integer },
      { name: 'version', in: 'query', description: 'Out of 1..current selects the current version', schema: integer },
      ...periodParams,
    ],
  },
];
