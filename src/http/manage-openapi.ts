// The routes of /app/v1/manage a `manage` API key reaches (docs/api.md, "Managing sites from code"),
// as /openapi.json describes them: each one's method, path, request body fields and answer. Their
// bodies and answers are the admin API's (docs/admin-api.md); a test holds this table to the routes
// the server mounts for keys.
import type { TObject } from 'typebox';
import * as bodies from './bodies.js';

interface ManageRoute {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  summary: string;
  /** The JSON body's schema, when the route takes one. */
  body?: TObject;
  /** The success status and what it answers. */
  answer: [status: number, description: string];
}

export const MANAGE_ROUTES: readonly ManageRoute[] = [
  { method: 'get', path: '/orgs/{orgId}/sites', summary: 'The organisation\'s sites', answer: [200, '{sites: [site]}'] },
  { method: 'post', path: '/orgs/{orgId}/sites', summary: 'Add a site', body: bodies.NEW_SITE, answer: [201, 'the site'] },
  { method: 'get', path: '/sites/{siteId}', summary: 'A site', answer: [200, 'the site'] },
  { method: 'patch', path: '/sites/{siteId}', summary: 'Change a site; `status: archived` archives it', body: bodies.SITE_CHANGE, answer: [200, 'the site'] },
  { method: 'get', path: '/sites/{siteId}/snippet', summary: 'The tracker tag', answer: [200, '{siteId, scriptUrl, snippet, publicUrlSet, dashboardUrl}'] },
  { method: 'get', path: '/sites/{siteId}/recent-events', summary: 'The site\'s last collection outcomes', answer: [200, '{events, …}'] },
  { method: 'get', path: '/sites/{siteId}/goals', summary: 'The site\'s goals', answer: [200, '{goals: [goal]}'] },
  { method: 'post', path: '/sites/{siteId}/goals', summary: 'Add a goal', body: bodies.NEW_GOAL, answer: [201, 'the goal'] },
  { method: 'delete', path: '/sites/{siteId}/goals/{goalId}', summary: 'Delete a goal', answer: [204, 'deleted'] },
  { method: 'get', path: '/sites/{siteId}/funnels', summary: 'The site\'s funnels', answer: [200, '{funnels: [funnel]}'] },
  { method: 'post', path: '/sites/{siteId}/funnels', summary: 'Add a funnel', body: bodies.NEW_FUNNEL, answer: [201, 'the funnel'] },
  { method: 'get', path: '/sites/{siteId}/funnels/{funnelId}', summary: 'A funnel with every version', answer: [200, 'the funnel'] },
  { method: 'delete', path: '/sites/{siteId}/funnels/{funnelId}', summary: 'Delete a funnel', answer: [204, 'deleted'] },
  { method: 'put', path: '/sites/{siteId}/funnels/{funnelId}/steps', summary: 'New steps: a new version', body: bodies.FUNNEL_STEPS_CHANGE, answer: [200, 'the funnel'] },
  { method: 'get', path: '/sites/{siteId}/alerts', summary: 'The site\'s alert rules', answer: [200, '{alerts: [rule]}'] },
  { method: 'post', path: '/sites/{siteId}/alerts', summary: 'Add an alert rule', body: bodies.NEW_ALERT_RULE, answer: [201, 'the rule'] },
  { method: 'patch', path: '/alerts/{ruleId}', summary: 'Change an alert rule', body: bodies.ALERT_RULE_CHANGE, answer: [200, 'the rule'] },
  { method: 'delete', path: '/alerts/{ruleId}', summary: 'Delete an alert rule', answer: [204, 'deleted'] },
  { method: 'post', path: '/alerts/{ruleId}/test', summary: 'Send a test delivery', answer: [202, 'queued'] },
  { method: 'get', path: '/alerts/{ruleId}/history', summary: 'The rule\'s deliveries', answer: [200, '{deliveries: [delivery]}'] },
  { method: 'get', path: '/sites/{siteId}/shared-links', summary: 'The site\'s shared links', answer: [200, '{links: [link]}'] },
  { method: 'post', path: '/sites/{siteId}/shared-links', summary: 'Add a shared link (its address shown once)', body: bodies.NEW_SHARED_LINK, answer: [201, 'the link and its url'] },
  { method: 'delete', path: '/sites/{siteId}/shared-links/{linkId}', summary: 'Revoke a shared link', answer: [204, 'revoked'] },
  { method: 'get', path: '/sites/{siteId}/segments', summary: 'The site\'s shared segments', answer: [200, '{segments: [segment]}'] },
  { method: 'post', path: '/sites/{siteId}/segments', summary: 'Add a shared segment', body: bodies.NEW_SEGMENT, answer: [201, 'the segment'] },
  { method: 'patch', path: '/sites/{siteId}/segments/{segmentId}', summary: 'Change a shared segment', body: bodies.SEGMENT_CHANGE, answer: [200, 'the segment'] },
  { method: 'delete', path: '/sites/{siteId}/segments/{segmentId}', summary: 'Delete a shared segment', answer: [204, 'deleted'] },
  { method: 'get', path: '/sites/{siteId}/annotations', summary: 'The site\'s annotations', answer: [200, '{annotations: [annotation]}'] },
  { method: 'post', path: '/sites/{siteId}/annotations', summary: 'Add an annotation', body: bodies.NEW_ANNOTATION, answer: [201, 'the annotation'] },
  { method: 'patch', path: '/sites/{siteId}/annotations/{annotationId}', summary: 'Change an annotation', body: bodies.ANNOTATION_CHANGE, answer: [200, 'the annotation'] },
  { method: 'delete', path: '/sites/{siteId}/annotations/{annotationId}', summary: 'Delete an annotation', answer: [204, 'deleted'] },
  { method: 'get', path: '/sites/{siteId}/digests', summary: 'The site\'s email reports', answer: [200, 'the reports\' state'] },
  { method: 'get', path: '/sites/{siteId}/digest-webhooks', summary: 'The site\'s report webhooks', answer: [200, '{webhooks: [webhook]}'] },
  { method: 'post', path: '/sites/{siteId}/digest-webhooks', summary: 'Add a report webhook', body: bodies.NEW_REPORT_WEBHOOK, answer: [201, 'the webhook'] },
  { method: 'delete', path: '/sites/{siteId}/digest-webhooks/{webhookId}', summary: 'Delete a report webhook', answer: [204, 'deleted'] },
  { method: 'get', path: '/sites/{siteId}/imports', summary: 'The site\'s imports', answer: [200, '{imports: [import]}'] },
  { method: 'post', path: '/sites/{siteId}/imports', summary: 'Upload an export of another tool (the file as the body; `source` and `name` in the query)', answer: [202, 'the import job'] },
  { method: 'post', path: '/sites/{siteId}/imports/ga4', summary: 'Import a GA4 property through Google\'s Data API (its key used for the job, never stored)', body: bodies.GA4_IMPORT, answer: [202, 'the import job'] },
  { method: 'delete', path: '/sites/{siteId}/imports/{importId}', summary: 'Delete an import and its days', answer: [204, 'deleted'] },
  { method: 'get', path: '/sites/{siteId}/export', summary: 'The site\'s events as CSV files in a zip (`from`, `to` in the query)', answer: [200, 'application/zip'] },
];

const MANAGE_ERRORS: Record<number, string> = {
  400: 'INVALID_PARAMS',
  401: 'UNAUTHORIZED: a missing, unknown, revoked or read key',
  403: 'FORBIDDEN: a route of the organisation itself (members, invitations, keys, settings)',
  404: 'NOT_FOUND: a site, rule or organisation of another organisation, or none',
  409: 'CONFLICT',
  429: 'RATE_LIMITED: the key\'s SVC_API_RATE_LIMIT, shared with its /v1 reads',
};

/** A body's schema as published: its fields' names, with what they may hold left to docs/admin-api.md. */
const publishedBody = (schema: TObject) => ({ type: 'object', properties: Object.fromEntries(Object.keys(schema.properties).map((f) => [f, {}])), additionalProperties: false });

/** The OpenAPI paths of MANAGE_ROUTES, under /app/v1/manage. */
export function manageOpenApiPaths(): Record<string, Record<string, unknown>> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of MANAGE_ROUTES) {
    const [status, description] = route.answer;
    const errors = Object.fromEntries(
      Object.entries(MANAGE_ERRORS).map(([code, text]) => [code, { description: text, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }]),
    );
    (paths[`/app/v1/manage${route.path}`] ??= {})[route.method] = {
      operationId: `manage ${route.method.toUpperCase()} ${route.path}`,
      summary: route.summary,
      tags: ['manage'],
      parameters: [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } })),
      ...(route.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: publishedBody(route.body) } } } }
        : {}),
      responses: { [status]: { description }, ...errors },
    };
  }
  return paths;
}
