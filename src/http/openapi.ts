// The OpenAPI 3.1 document of /v1, generated from the route table (src/http/v1/schemas.ts) and the
// answers' schemas the routes serialize with (src/core/answers.ts), and of the /app/v1/manage routes a manage key
// reaches (./manage-openapi.ts). docs/openapi.json is this output, checked by a test.
import { IMPORTED_ANSWERS, IMPORTED_HEADER } from '../core/answer-headers.js';
import { responses, schemas } from '../core/answers.js';
import { ERRORS } from '../core/errors.js';
import { errorSchema, ROUTES, V1_ERROR_CODES } from './v1/schemas.js';
import { manageOpenApiPaths } from './manage-openapi.js';

/** The routes whose answers are planned, and say what they did with imported days (docs/api.md). */
const PLANNED = new Set(['stats', 'timeseries', 'breakdown', 'journeys', 'goals', 'funnel']);
const IMPORTED_HEADER_DOC = {
  description: 'What the answer did with days imported from another tool: included, excluded (this read cannot use them), or none (no day read holds any).',
  schema: { type: 'string', enum: [...IMPORTED_ANSWERS] },
};

const ERRORS_BY_STATUS: Record<string, string[]> = {};
for (const code of V1_ERROR_CODES) (ERRORS_BY_STATUS[String(ERRORS[code].status)] ??= []).push(code);

export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const route of ROUTES) {
    const errors = Object.fromEntries(
      Object.entries(ERRORS_BY_STATUS).map(([status, codes]) => [
        status,
        {
          description: codes.join(', '),
          headers:
            status === '429'
              ? { 'retry-after': { schema: { type: 'integer', const: 60 } } }
              : status === '405'
                ? { allow: { schema: { type: 'string', const: 'GET' } } }
                : undefined,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      ]),
    );
    paths[route.path.replace(/:(\w+)/g, '{$1}')] = {
      get: {
        operationId: route.operationId,
        summary: route.summary,
        parameters: route.parameters.map((p) => ({
          name: p.name,
          in: p.in,
          required: p.required ?? false,
          description: p.description,
          schema: p.repeat ? { type: 'array', items: p.schema } : p.schema,
          ...(p.repeat ? { style: 'form', explode: true } : {}),
        })),
        responses: {
          200: {
            description: 'OK',
            headers: {
              'cache-control': { schema: { type: 'string', const: 'no-store' } },
              ...(PLANNED.has(route.operationId) ? { [IMPORTED_HEADER]: IMPORTED_HEADER_DOC } : {}),
            },
            content: { 'application/json': { schema: responses[route.operationId] } },
          },
          ...errors,
        },
      },
    };
  }
  return JSON.parse(
    JSON.stringify({
      openapi: '3.1.0',
      info: {
        title: 'svc statistics read API',
        version: '1',
        description:
          'Read-only, server-to-server statistics API. Every request carries `Authorization: Bearer svc_<32 characters>`. ' +
          'Responses are application/json; charset=utf-8 with cache-control: no-store; no CORS headers are sent. ' +
          'Other methods than GET answer 405 METHOD_NOT_ALLOWED with allow: GET. See docs/api.md. ' +
          'The /app/v1/manage paths take a key of scope manage: they manage the key\'s organisation\'s sites (docs/api.md, Managing sites from code).',
      },
      servers: [{ url: '/' }],
      security: [{ bearer: [] }],
      paths: { ...paths, ...manageOpenApiPaths() },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'svc_ followed by 32 characters' } },
        schemas: { ...schemas, Error: errorSchema },
      },
    }),
  );
}
