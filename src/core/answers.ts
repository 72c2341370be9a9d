// The read API's answers (/v1, and /app/v1 for the dashboard): stats, timeseries, breakdowns, goals,
// funnels, journeys, realtime, segments and annotations, declared once as JSON Schemas. The routes
// serialize with them, the OpenAPI document (src/http/openapi.ts) publishes them, and their types
// are derived from them (`Static`), which the read modules return and the dashboard and the CLI read.
// The dashboard imports this module with `import type` only: TypeBox stays out of its bundle (the
// constants it needs beside the answers are in ./answer-headers.ts).
import { Type, type Static, type TObject, type TOptional, type TProperties, type TSchema, type TUnsafe } from 'typebox';
import { METRICS, type Metric } from './metric-registry.js';
import { ANNOTATION_TEXT_LENGTH, SEGMENT_FILTERS, SEGMENT_NAME_LENGTH } from './segments.js';
import {
  CURRENCY_CODE,
  DIMENSIONS,
  PROPERTY_KEY_LENGTH,
  PROPERTY_PREFIX,
  VITAL_NAMES,
  type GoalProps,
  type Grain,
  type MatchKind,
  type QueryDimension,
  type WebVital,
} from './vocabulary.js';

/**
 * A closed object (a field the schema lacks is dropped from the answer), its keys listed type,
 * properties, required, additionalProperties, then the options, as the published document lists them.
 */
export function object<P extends TProperties>(properties: P, options: Record<string, unknown> = {}): TObject<P> {
  const schema = Type.Object(properties) as TObject<P> & { required?: string[] };
  const required = schema.required ?? [];
  delete schema.required;
  return Object.assign(schema, { required, additionalProperties: false }, options);
}

/** A value or null. */
export const orNull = <T extends 'number' | 'integer' | 'string'>(type: T, options: Record<string, unknown> = {}) =>
  Type.Unsafe<(T extends 'string' ? string : number) | null>({ type: [type, 'null'], ...options });

/** A string of one of `values`. */
export const stringEnum = <V extends string>(values: readonly V[], options: Record<string, unknown> = {}) =>
  Type.Unsafe<V>({ type: 'string', enum: [...values], ...options }) as TUnsafe<V> & { enum: readonly V[] };

/** One field per name, its schema made of the name. */
function fieldsOf<N extends string, S extends TSchema>(names: readonly N[], schema: (name: N) => S): Record<N, S> {
  return Object.fromEntries(names.map((name) => [name, schema(name)])) as Record<N, S>;
}

const GRAINS: readonly Grain[] = ['hour', 'day', 'week', 'month'];

export const daySchema = Type.String({ format: 'date', description: 'Site-local day YYYY-MM-DD' });

/** A dimension of the read API: one of DIMENSIONS, or a custom property `prop.<key>`. */
export const dimensionSchema = Type.Unsafe<QueryDimension>({
  type: 'string',
  pattern: `^(?:${DIMENSIONS.join('|')})$|^${PROPERTY_PREFIX.replace('.', '\\.')}[\\s\\S]{${PROPERTY_KEY_LENGTH.min},${PROPERTY_KEY_LENGTH.max}}$`,
  description: `One of ${DIMENSIONS.join(', ')}, or ${PROPERTY_PREFIX}<key>: a custom property (key of ${PROPERTY_KEY_LENGTH.min} to ${PROPERTY_KEY_LENGTH.max} characters)`,
});

/**
 * The revenue of a revenue goal's conversions in its currency (docs/api.md, Revenue): a goal's, or a
 * goal filter's revenue goals'.
 */
const revenueSchema = (options: Record<string, unknown> = {}) =>
  object(
    {
      currency: Type.String({ pattern: CURRENCY_CODE.source, description: "The goal's currency (ISO 4217)" }),
      total: Type.Number({ description: 'Revenue of the conversions in the currency, exact to the cent (at most 2 decimals)' }),
      average: orNull('number', { description: 'total over the conversions that carried revenue in the currency, rounded half up to the cent; null when none did' }),
      otherCurrency: Type.Integer({ description: 'Conversions whose revenue was in another currency: counted as conversions, their revenue left out' }),
    },
    options,
  );

const vitalsSchema = object(
  {
    ...fieldsOf(VITAL_NAMES, (vital: WebVital) =>
      orNull('integer', { description: `75th percentile by nearest rank of the page's ${vital} reports (${vital === 'cls' ? 'thousandths' : 'ms'}); null without one` }),
    ),
    reports: Type.Integer({ description: "The page's engage events that reported any web vital" }),
  },
  { description: "With include=vitals: the page's web vitals over the period" },
);

const kpiSchema = object({
  value: orNull('number'),
  prev: orNull('number', { description: 'Value over the previous period of the same length; null when not computable' }),
  deltaPct: orNull('number', { description: 'Percent change, 1 decimal; 0 when either side is null; null only under raw=clip when the compared period lies outside the raw window' }),
});

const funnelTotals = { entered: Type.Integer(), completed: Type.Integer(), conversionRate: Type.Number() };

/** The schemas the answers share, published as the OpenAPI document's components. */
export const schemas = {
  Site: object({
    id: Type.String({ description: "The site's public id" }),
    domain: Type.String(),
    name: Type.String(),
    timezone: Type.String({ description: 'IANA time zone defining the local days' }),
    retentionMonths: orNull('integer', { description: 'Months of statistics kept; null is unlimited' }),
  }),
  Period: object({ from: daySchema, to: daySchema, grain: stringEnum(GRAINS), tz: Type.String() }),
  DayRange: object({ from: daySchema, to: daySchema }),
  Kpi: kpiSchema,
  Point: object({ t: Type.Integer({ description: 'Bucket start, epoch ms' }), value: orNull('number') }),
  BreakdownRow: object({
    key: Type.String(),
    visitors: Type.Integer(),
    views: Type.Integer({ description: 'Pageviews of the key (occurrences for event and property breakdowns); 0 with viewsUnknown where every day read lacks them' }),
    viewsUnknown: Type.Optional(
      Type.Unsafe<true>({ type: 'boolean', enum: [true], description: 'Present where no day read knows the views (days imported from a table without pageviews): views is then 0, not a count' }),
    ),
    pct: Type.Number(),
    bounceRate: Type.Optional(
      orNull('number', {
        description: "With include=bounceRate: the key's bounce rate as stats answers it with filter=<dimension>:<key> added (null where it is: a dimension or filter of single events)",
      }),
    ),
    avgDuration: Type.Optional(
      orNull('number', { description: "With include=avgDuration: the key's visit duration in seconds as stats answers it with filter=<dimension>:<key> added (null where it is)" }),
    ),
    timeOnPage: Type.Optional(
      orNull('number', {
        description: "With include=timeOnPage (dimension page): the page's mean engaged time in seconds as stats answers it with filter=page:<key> added under raw=clip (null without raw=clip)",
      }),
    ),
    scrollDepth: Type.Optional(
      orNull('integer', {
        description: "With include=scrollDepth: the mean over the page's visitors, per day, of their deepest scroll, in whole percent (rounded half up); null when none reported one",
      }),
    ),
    vitals: Type.Optional(vitalsSchema),
    conversions: Type.Optional(Type.Integer({ description: "Under a goal filter (visitors are then the key's converters): the completions of the filter's goals on the key" })),
    conversionRate: Type.Optional(orNull('number', { description: "Under a goal filter: the key's converters over its visitors without the goal filter (0..1); null without any" })),
  }),
  RealtimeRow: object({ key: Type.String(), visitors: Type.Integer(), views: Type.Integer() }),
  FeedEntry: object({
    ts: Type.Integer(),
    event: Type.String(),
    path: Type.String(),
    referrer: Type.String(),
    country: Type.String(),
    city: Type.String(),
    browser: Type.String(),
    os: Type.String(),
    device: Type.String(),
  }),
  Goal: object({
    goalId: Type.Integer(),
    name: Type.String(),
    kind: stringEnum<MatchKind>(['page', 'event']),
    pattern: Type.String(),
    props: Type.Optional(
      Type.Unsafe<GoalProps>({
        type: 'object',
        additionalProperties: { type: 'string' },
        description: 'Present on an event goal that also requires custom property values (all must match)',
      }),
    ),
    conversions: Type.Integer(),
    uniqueConversions: Type.Integer(),
    conversionRate: Type.Number(),
    delta: orNull('number'),
    revenue: Type.Optional(revenueSchema({ description: 'Revenue goals (a goal with a currency) only' })),
  }),
  Segment: object({
    id: Type.Integer(),
    name: Type.String({ minLength: SEGMENT_NAME_LENGTH.min, maxLength: SEGMENT_NAME_LENGTH.max }),
    filters: Type.Array(Type.String(), { minItems: SEGMENT_FILTERS.min, maxItems: SEGMENT_FILTERS.max, description: 'Filter parameters, as `filter` takes them' }),
  }),
  Annotation: object({
    id: Type.Integer(),
    date: daySchema,
    text: Type.String({ minLength: ANNOTATION_TEXT_LENGTH.min, maxLength: ANNOTATION_TEXT_LENGTH.max }),
    createdAt: Type.Integer({ description: 'Epoch ms' }),
  }),
  JourneyRow: object({
    path: Type.Array(Type.String(), { description: 'The pages of the row in the order visited, consecutive repeats once: at most steps of them' }),
    sessions: Type.Integer({ description: 'The sessions holding the row (each once, however often it holds it)' }),
    visitors: Type.Integer({ description: "Those sessions' visitors (a visitor counted once a day)" }),
  }),
  FunnelSummary: object({
    id: Type.Integer(),
    name: Type.String(),
    stepCount: Type.Integer(),
    windowMinutes: Type.Integer(),
    version: Type.Integer(),
    createdAt: Type.Integer(),
  }),
};

/** The KPIs the dashboard's reads add (`raw=clip`, a goal filter): the base API's `stats` keeps its six. */
type AddedKpi = 'timeOnPage' | 'conversionRate';
const ADDED_KPIS: readonly Metric[] = ['timeOnPage', 'conversionRate'] satisfies AddedKpi[];
type KpiFields = Record<Exclude<Metric, AddedKpi>, typeof kpiSchema> & Record<AddedKpi, TOptional<typeof kpiSchema>>;

const statsSchema = object({
  ...(fieldsOf(METRICS, (metric) => (ADDED_KPIS.includes(metric) ? Type.Optional(kpiSchema) : kpiSchema)) as KpiFields),
  revenue: Type.Optional(
    Type.Unsafe<Static<ReturnType<typeof revenueSchema>> | null>({
      ...revenueSchema(),
      type: ['object', 'null'],
      description: "Under a goal filter naming revenue goals: their conversions' revenue; null where they count in several currencies",
    }),
  ),
});

const funnelTotalsSchema = object(funnelTotals);

/** The answer of each read API operation, as its route serializes it. */
export const responses = {
  sites: object({ sites: Type.Array(schemas.Site) }),
  stats: object({ period: schemas.Period, stats: statsSchema }),
  timeseries: object({
    period: schemas.Period,
    grain: stringEnum(GRAINS),
    tz: Type.String(),
    points: Type.Array(schemas.Point),
    prev: Type.Optional(Type.Array(schemas.Point, { description: 'Present when compare=true' })),
  }),
  breakdown: object({
    period: schemas.Period,
    dimension: dimensionSchema,
    rows: Type.Array(schemas.BreakdownRow),
    totalKeys: Type.Integer(),
    totalVisitors: Type.Integer(),
  }),
  realtime: object({
    generatedAt: Type.Integer(),
    currentVisitors: Type.Integer(),
    pageviewsPerMinute: Type.Array(
      object({ t: Type.Integer({ description: 'Minute start, epoch ms' }), value: Type.Integer({ description: 'Pageviews of the minute (never null)' }) }),
    ),
    topPages: Type.Array(schemas.RealtimeRow),
    topReferrers: Type.Array(schemas.RealtimeRow),
    topCountries: Type.Array(schemas.RealtimeRow),
    feed: Type.Array(schemas.FeedEntry),
  }),
  goals: object({ period: schemas.DayRange, goals: Type.Array(schemas.Goal) }),
  journeys: object({
    period: schemas.DayRange,
    steps: Type.Integer(),
    rows: Type.Array(schemas.JourneyRow),
    totalSessions: Type.Integer({ description: 'The sessions that hold at least one row (of this page of rows or not)' }),
  }),
  funnels: object({ funnels: Type.Array(schemas.FunnelSummary) }),
  segments: object({ segments: Type.Array(schemas.Segment) }),
  annotations: object({ period: schemas.DayRange, annotations: Type.Array(schemas.Annotation) }),
  funnel: object({
    period: schemas.DayRange,
    funnel: object({ id: Type.Integer(), name: Type.String(), version: Type.Integer(), windowMinutes: Type.Integer() }),
    steps: Type.Array(object({ step: Type.Integer(), visitors: Type.Integer(), rateFromPrevious: orNull('number') })),
    ...funnelTotals,
    previous: funnelTotalsSchema,
    delta: Type.Number(),
  }),
};

/** The dashboard's list of the custom property keys a site's events carry over a period, most events first (/app/v1 only). */
export const propertyKeysResponse = object({
  period: schemas.DayRange,
  keys: Type.Array(object({ key: Type.String(), events: Type.Integer() })),
});

export type Operation = keyof typeof responses;
export type OperationAnswer<O extends Operation> = Static<(typeof responses)[O]>;

/** The period of an answer: site-local days, inclusive. */
export type AnswerDays = Static<typeof schemas.DayRange>;
/** The period of a stats, timeseries or breakdown answer, with its grain and the site's zone. */
export type AnswerPeriod = Static<typeof schemas.Period>;
export type Kpi = Static<typeof kpiSchema>;
/**
 * The KPIs; `timeOnPage` only on the dashboard's reads (`raw=clip`). Under a goal filter,
 * `conversionRate` (its converters over the visitors without it), and `revenue` where the filter's
 * goals are revenue goals (null when they count in several currencies).
 */
export type Stats = Static<typeof statsSchema>;
export type StatsAnswer = OperationAnswer<'stats'>;
export type Point = Static<typeof schemas.Point>;
export type TimeseriesAnswer = OperationAnswer<'timeseries'>;
export type BreakdownRow = Static<typeof schemas.BreakdownRow>;
/**
 * Per web vital, the 75th percentile by nearest rank of the page's reports that carry it (null when
 * none does; `cls` in thousandths), and how many `engage` events of the page reported any vital.
 */
export type VitalsFigures = Static<typeof vitalsSchema>;
export type BreakdownAnswer = OperationAnswer<'breakdown'>;
export type PropertyKeysAnswer = Static<typeof propertyKeysResponse>;
export type GoalResult = Static<typeof schemas.Goal>;
/**
 * The revenue of a revenue goal's conversions in its currency: `total` and `average` (over the
 * conversions that carried revenue in it) in major units, exact to the cent; `otherCurrency` counts
 * the conversions whose revenue was in another currency (counted as conversions, their revenue left out).
 */
export type GoalRevenue = Static<ReturnType<typeof revenueSchema>>;
export type GoalsAnswer = OperationAnswer<'goals'>;
/** How many visitors entered a funnel and completed it, and the rate between. */
export type FunnelTotals = Static<typeof funnelTotalsSchema>;
export type FunnelAnswer = OperationAnswer<'funnel'>;
/** A funnel's figures over a period, without the period and the funnel they are of. */
export type FunnelReading = Omit<FunnelAnswer, 'period' | 'funnel'>;
/** One row of a journeys answer: a sequence of pages, and the sessions (and their visitors) that went through it. */
export type JourneyRow = Static<typeof schemas.JourneyRow>;
export type JourneysAnswer = OperationAnswer<'journeys'>;
export type RealtimeRow = Static<typeof schemas.RealtimeRow>;
export type FeedEntry = Static<typeof schemas.FeedEntry>;
export type Realtime = OperationAnswer<'realtime'>;
/** A funnel as the read API lists it and as creating it or replacing its steps answers. */
export type FunnelSummary = Static<typeof schemas.FunnelSummary>;
/** A segment as the read API lists it (`GET /v1/sites/:siteId/segments`: the shared ones). */
export type SegmentView = Static<typeof schemas.Segment>;
/** A segment as the management APIs answer it: whether the site's members share it. */
export type ManagedSegment = SegmentView & { shared: boolean };
/** A note on a day of a site's chart. */
export type Annotation = Static<typeof schemas.Annotation>;
/** `GET /v1/sites/:siteId/annotations`: the annotations whose day lies in the period, by date. */
export type AnnotationsAnswer = OperationAnswer<'annotations'>;
