// The /v1 route table: each operation's path, summary and parameters, and the read API's error
// envelope. The routes serialize their answers with the schemas of src/core/answers.ts, and the
// OpenAPI document (src/http/openapi.ts) is generated from both, so the published contract and the
// bytes on the wire cannot drift apart.
import { Type } from 'typebox';
import type { ErrorCode } from '../../core/errors.js';
import { object, stringEnum, type Operation } from '../../core/answers.js';
import { PERIOD_PARAMS, QUERY_PARAMS, type QueryParam } from '../../core/query-params.js';

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

/** A path parameter, or a query parameter of the read API (src/core/query-params.ts). */
export type ParameterDoc = QueryParam | (Omit<QueryParam, 'in'> & { in: 'path' });

const siteId: ParameterDoc = { name: 'siteId', in: 'path', required: true, description: "The site's public id", schema: Type.String() };
const { comparison, filter, segment, raw } = QUERY_PARAMS;

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
      QUERY_PARAMS.elapsed,
      ...PERIOD_PARAMS,
      filter,
      segment,
      raw,
    ],
  },
  {
    operationId: 'timeseries',
    path: '/v1/sites/:siteId/timeseries',
    summary: 'One metric per bucket (hour, day, week or month by period length)',
    parameters: [
      siteId,
      QUERY_PARAMS.metric,
      QUERY_PARAMS.compare,
      comparison,
      ...PERIOD_PARAMS,
      filter,
      segment,
      raw,
    ],
  },
  {
    operationId: 'breakdown',
    path: '/v1/sites/:siteId/breakdown',
    summary: 'Ranking of the keys of one dimension',
    parameters: [
      siteId,
      QUERY_PARAMS.dimension,
      QUERY_PARAMS.breakdownLimit,
      QUERY_PARAMS.offset,
      QUERY_PARAMS.search,
      QUERY_PARAMS.include,
      ...PERIOD_PARAMS,
      filter,
      segment,
      raw,
    ],
  },
  { operationId: 'segments', path: '/v1/sites/:siteId/segments', summary: "The site's shared segments", parameters: [siteId] },
  { operationId: 'annotations', path: '/v1/sites/:siteId/annotations', summary: 'The annotations whose day lies in the period, by date', parameters: [siteId, ...PERIOD_PARAMS] },
  {
    operationId: 'journeys',
    path: '/v1/sites/:siteId/journeys',
    summary: "The most frequent paths through the sessions that start in the period (a raw read: within the site's raw window)",
    parameters: [
      siteId,
      QUERY_PARAMS.steps,
      QUERY_PARAMS.page,
      QUERY_PARAMS.direction,
      QUERY_PARAMS.journeyLimit,
      ...PERIOD_PARAMS,
      filter,
      raw,
    ],
  },
  { operationId: 'realtime', path: '/v1/sites/:siteId/realtime', summary: 'Last 5 and 30 minutes', parameters: [siteId] },
  { operationId: 'goals', path: '/v1/sites/:siteId/goals', summary: 'Conversions of each goal', parameters: [siteId, ...PERIOD_PARAMS] },
  { operationId: 'funnels', path: '/v1/sites/:siteId/funnels', summary: 'Funnels of the site', parameters: [siteId] },
  {
    operationId: 'funnel',
    path: '/v1/sites/:siteId/funnels/:funnelId',
    summary: 'One funnel version over a period, with the previous period',
    parameters: [
      siteId,
      { name: 'funnelId', in: 'path', required: true, description: 'Funnel id', schema: Type.Integer() },
      QUERY_PARAMS.version,
      ...PERIOD_PARAMS,
    ],
  },
];
