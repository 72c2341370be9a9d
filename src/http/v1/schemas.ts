// JSON Schemas of the /v1 responses and parameter descriptions. Routes serialize through these
// schemas and the OpenAPI document (src/http/openapi.ts) is generated from them, so the published
// contract and the bytes on the wire cannot drift apart.
import type { ErrorCode } from '../../core/errors.js';
import { FIRST_DAY, LAST_DAY } from '../../core/period.js';
import { BREAKDOWN_OFFSET_MAX, JOURNEY_PAGE_MAX_LENGTH, SEARCH_MAX_LENGTH } from '../../core/query.js';
import {
  BREAKDOWN_INCLUDES,
  BREAKDOWN_LIMIT,
  COMPARISONS,
  CONTAINS_TEXT_LENGTH,
  FILTER_VALUES_MAX,
  CURRENCY_CODE,
  DIMENSIONS,
  GOAL_DIMENSION,
  JOURNEY_DIRECTIONS,
  JOURNEY_LIMIT,
  JOURNEY_STEPS,
  PRESETS,
  PROPERTY_KEY_LENGTH,
  PROPERTY_PREFIX,
  RAW_CLIP,
  VITAL_NAMES,
} from '../../core/vocabulary.js';
import { METRICS } from '../../core/metric-registry.js';
import { ANNOTATION_TEXT_LENGTH, SEGMENT_FILTERS, SEGMENT_NAME_LENGTH, SEGMENT_PARAM } from '../../core/segments.js';

type Schema = Record<string, unknown>;

const integer: Schema = { type: 'integer' };
const number: Schema = { type: 'number' };
const string: Schema = { type: 'string' };
const nullable = (type: 'number' | 'integer' | 'string'): Schema => ({ type: [type, 'null'] });
const object = (properties: Record<string, Schema>, required = Object.keys(properties)): Schema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});
const array = (items: Schema): Schema => ({ type: 'array', items });
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

/** A dimension of the read API: one of DIMENSIONS, or a custom property `prop.<key>`. */
const dimension: Schema = {
  type: 'string',
  pattern: `^(?:${DIMENSIONS.join('|')})$|^${PROPERTY_PREFIX.replace('.', '\\.')}[\\s\\S]{${PROPERTY_KEY_LENGTH.min},${PROPERTY_KEY_LENGTH.max}}$`,
  description: `One of ${DIMENSIONS.join(', ')}, or ${PROPERTY_PREFIX}<key>: a custom property (key of ${PROPERTY_KEY_LENGTH.min} to ${PROPERTY_KEY_LENGTH.max} characters)`,
};

const day: Schema = { type: 'string', format: 'date', description: 'Site-local day YYYY-MM-DD' };

/** A revenue goal's revenue (docs/api.md, Revenue): a goal's, or a goal filter's revenue goals'. */
const revenue: Schema = object({
  currency: { type: 'string', pattern: CURRENCY_CODE.source, description: "The goal's currency (ISO 4217)" },
  total: { type: 'number', description: 'Revenue of the conversions in the currency, exact to the cent (at most 2 decimals)' },
  average: { ...nullable('number'), description: 'total over the conversions that carried revenue in the currency, rounded half up to the cent; null when none did' },
  otherCurrency: { type: 'integer', description: 'Conversions whose revenue was in another currency: counted as conversions, their revenue left out' },
});

export const schemas = {
  Site: object({
    id: { type: 'string', description: "The site's public id" },
    domain: string,
    name: string,
    timezone: { type: 'string', description: 'IANA time zone defining the local days' },
    retentionMonths: { ...nullable('integer'), description: 'Months of statistics kept; null is unlimited' },
  }),
  Period: object({
    from: day,
    to: day,
    grain: { type: 'string', enum: ['hour', 'day', 'week', 'month'] },
    tz: string,
  }),
  DayRange: object({ from: day, to: day }),
  Kpi: object({
    value: nullable('number'),
    prev: { ...nullable('number'), description: 'Value over the previous period of the same length; null when not computable' },
    deltaPct: { ...nullable('number'), description: 'Percent change, 1 decimal; 0 when either side is null; null only under raw=clip when the compared period lies outside the raw window' },
  }),
  Point: object({ t: { type: 'integer', description: 'Bucket start, epoch ms' }, value: nullable('number') }),
  BreakdownRow: object(
    {
      key: string,
      visitors: integer,
      views: { ...integer, description: 'Pageviews of the key (occurrences for event and property breakdowns); 0 with viewsUnknown where every day read lacks them' },
      viewsUnknown: { type: 'boolean', enum: [true], description: 'Present where no day read knows the views (days imported from a table without pageviews): views is then 0, not a count' },
      pct: number,
      bounceRate: {
        ...nullable('number'),
        description: "With include=bounceRate: the key's bounce rate as stats answers it with filter=<dimension>:<key> added (null where it is: a dimension or filter of single events)",
      },
      avgDuration: {
        ...nullable('number'),
        description: "With include=avgDuration: the key's visit duration in seconds as stats answers it with filter=<dimension>:<key> added (null where it is)",
      },
      timeOnPage: {
        ...nullable('number'),
        description: "With include=timeOnPage (dimension page): the page's mean engaged time in seconds as stats answers it with filter=page:<key> added under raw=clip (null without raw=clip)",
      },
      scrollDepth: {
        ...nullable('integer'),
        description:
          'With include=scrollDepth: the mean over the page\'s visitors, per day, of their deepest scroll, in whole percent (rounded half up); null when none reported one',
      },
      vitals: {
        ...object(
          {
            ...Object.fromEntries(
              VITAL_NAMES.map((vital) => [vital, { ...nullable('integer'), description: `75th percentile by nearest rank of the page's ${vital} reports (${vital === 'cls' ? 'thousandths' : 'ms'}); null without one` }]),
            ),
            reports: { ...integer, description: "The page's engage events that reported any web vital" },
          },
          [...VITAL_NAMES, 'reports'],
        ),
        description: 'With include=vitals: the page\'s web vitals over the period',
      },
      conversions: { ...integer, description: "Under a goal filter (visitors are then the key's converters): the completions of the filter's goals on the key" },
      conversionRate: { ...nullable('number'), description: "Under a goal filter: the key's converters over its visitors without the goal filter (0..1); null without any" },
    },
    ['key', 'visitors', 'views', 'pct'],
  ),
  RealtimeRow: object({ key: string, visitors: integer, views: integer }),
  FeedEntry: object({
    ts: integer,
    event: string,
    path: string,
    referrer: string,
    country: string,
    city: string,
    browser: string,
    os: string,
    device: string,
  }),
  Goal: object({
    goalId: integer,
    name: string,
    kind: { type: 'string', enum: ['page', 'event'] },
    pattern: string,
    props: {
      type: 'object',
      additionalProperties: string,
      description: 'Present on an event goal that also requires custom property values (all must match)',
    },
    conversions: integer,
    uniqueConversions: integer,
    conversionRate: number,
    delta: nullable('number'),
    revenue: { ...revenue, description: 'Revenue goals (a goal with a currency) only' },
  }, ['goalId', 'name', 'kind', 'pattern', 'conversions', 'uniqueConversions', 'conversionRate', 'delta']),
  Segment: object({
    id: integer,
    name: { type: 'string', minLength: SEGMENT_NAME_LENGTH.min, maxLength: SEGMENT_NAME_LENGTH.max },
    filters: { ...array(string), minItems: SEGMENT_FILTERS.min, maxItems: SEGMENT_FILTERS.max, description: 'Filter parameters, as `filter` takes them' },
  }),
  Annotation: object({
    id: integer,
    date: day,
    text: { type: 'string', minLength: ANNOTATION_TEXT_LENGTH.min, maxLength: ANNOTATION_TEXT_LENGTH.max },
    createdAt: { type: 'integer', description: 'Epoch ms' },
  }),
  JourneyRow: object({
    path: { ...array(string), description: 'The pages of the row in the order visited, consecutive repeats once: at most steps of them' },
    sessions: { type: 'integer', description: 'The sessions holding the row (each once, however often it holds it)' },
    visitors: { type: 'integer', description: "Those sessions' visitors (a visitor counted once a day)" },
  }),
  FunnelSummary: object({ id: integer, name: string, stepCount: integer, windowMinutes: integer, version: integer, createdAt: integer }),
  Error: object({
    error: object({
      code: { type: 'string', enum: [...V1_ERROR_CODES] },
      message: string,
    }),
  }),
} as const;

export type SchemaName = keyof typeof schemas;
const ref = (name: SchemaName): Schema => schemas[name];

// timeOnPage only with raw=clip (the dashboard's reads), conversionRate and revenue under a goal
// filter: the base API's stats keep their six KPIs.
const kpis = object(
  {
    ...Object.fromEntries(METRICS.map((k) => [k, ref('Kpi')])),
    revenue: { ...revenue, type: ['object', 'null'], description: "Under a goal filter naming revenue goals: their conversions' revenue; null where they count in several currencies" },
  },
  METRICS.filter((k) => k !== 'timeOnPage' && k !== 'conversionRate'),
);

export const responses = {
  sites: object({ sites: array(ref('Site')) }),
  stats: object({ period: ref('Period'), stats: kpis }),
  timeseries: object(
    {
      period: ref('Period'),
      grain: { type: 'string', enum: ['hour', 'day', 'week', 'month'] },
      tz: string,
      points: array(ref('Point')),
      prev: { ...array(ref('Point')), description: 'Present when compare=true' },
    },
    ['period', 'grain', 'tz', 'points'],
  ),
  breakdown: object({
    period: ref('Period'),
    dimension,
    rows: array(ref('BreakdownRow')),
    totalKeys: integer,
    totalVisitors: integer,
  }),
  realtime: object({
    generatedAt: integer,
    currentVisitors: integer,
    pageviewsPerMinute: array(object({ t: { type: 'integer', description: 'Minute start, epoch ms' }, value: { type: 'integer', description: 'Pageviews of the minute (never null)' } })),
    topPages: array(ref('RealtimeRow')),
    topReferrers: array(ref('RealtimeRow')),
    topCountries: array(ref('RealtimeRow')),
    feed: array(ref('FeedEntry')),
  }),
  goals: object({ period: ref('DayRange'), goals: array(ref('Goal')) }),
  journeys: object({
    period: ref('DayRange'),
    steps: integer,
    rows: array(ref('JourneyRow')),
    totalSessions: { type: 'integer', description: 'The sessions that hold at least one row (of this page of rows or not)' },
  }),
  funnels: object({ funnels: array(ref('FunnelSummary')) }),
  segments: object({ segments: array(ref('Segment')) }),
  annotations: object({ period: ref('DayRange'), annotations: array(ref('Annotation')) }),
  funnel: object({
    period: ref('DayRange'),
    funnel: object({ id: integer, name: string, version: integer, windowMinutes: integer }),
    steps: array(object({ step: integer, visitors: integer, rateFromPrevious: nullable('number') })),
    entered: integer,
    completed: integer,
    conversionRate: number,
    previous: object({ entered: integer, completed: integer, conversionRate: number }),
    delta: number,
  }),
} as const;

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
  { name: 'from', in: 'query', description: `First day, inclusive, ${FIRST_DAY} to ${LAST_DAY}; with \`to\`, takes priority over \`period\``, schema: day },
  { name: 'to', in: 'query', description: `Last day, inclusive, ${FIRST_DAY} to ${LAST_DAY}; with \`from\``, schema: day },
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
  operationId: keyof typeof responses;
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
      { name: 'dimension', in: 'query', required: true, description: `Dimension to rank; ${PROPERTY_PREFIX}<key> ranks the values of a custom property over the events that carry it (views: those events)`, schema: dimension },
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
