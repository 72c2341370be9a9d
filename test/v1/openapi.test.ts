// docs/openapi.json is the generated document, byte for byte: regenerate with
//   UPDATE_OPENAPI=1 node scripts/run-tests.mjs test/v1/openapi.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { openApiDocument } from '../../src/http/openapi.js';
import { responses } from '../../src/core/answers.js';
import { ROUTES } from '../../src/http/v1/schemas.js';
import { keyReaches } from '../../src/http/auth/authorization.js';
import { startTestServer } from '../helpers/server.js';

const FILE = new URL('../../docs/openapi.json', import.meta.url);

test('docs/openapi.json is the document the server serves', () => {
  const text = JSON.stringify(openApiDocument(), null, 2) + '\n';
  if (process.env.UPDATE_OPENAPI === '1') writeFileSync(FILE, text);
  assert.equal(readFileSync(FILE, 'utf8'), text);
});

test('every route has a response schema and documented parameters', () => {
  const doc = openApiDocument() as { paths: Record<string, { get: { parameters: Array<{ name: string }>; responses: Record<string, unknown> } }> };
  for (const route of ROUTES) {
    const op = doc.paths[route.path.replace(/:(\w+)/g, '{$1}')]!.get;
    assert.deepEqual(op.parameters.map((p) => p.name), route.parameters.map((p) => p.name));
    assert.ok(responses[route.operationId]);
    for (const status of ['200', '400', '401', '404', '405', '429', '500']) assert.ok(op.responses[status], `${route.path} ${status}`);
  }
});

/** The routes of a printRoutes tree (fastify's), each `METHOD /path`, HEAD left out. */
function mountedRoutes(tree: string): string[] {
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^([│ ]*)[├└]── (\S+) \(([^)]+)\)/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    stack.push(`/${m[2]}`);
    const path = stack.join('').replace(/\/+/g, '/');
    for (const method of m[3]!.split(', ')) if (method !== 'HEAD') routes.push(`${method} ${path}`);
  }
  return routes;
}

test('/openapi.json describes every /app/v1/manage route a manage key reaches, and only those', async () => {
  const server = await startTestServer();
  try {
    const mounted = mountedRoutes(server.service.app.printRoutes({ commonPrefix: false }))
      .filter((route) => keyReaches(route.split(' ')[1]))
      .map((route) => route.replace(/:(\w+)/g, '{$1}'))
      .sort();
    const doc = openApiDocument() as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/app/v1/manage/'))
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    assert.ok(mounted.length >= 30, `found ${mounted.length} routes`);
    assert.deepEqual(mounted.filter((route) => !documented.includes(route)), [], 'mounted for keys, not described');
    // The printed tree leaves out some nested routes: the described ones are looked up one by one.
    for (const route of documented) {
      const [method, path] = route.split(' ') as [string, string];
      assert.ok(server.service.app.hasRoute({ method, url: path.replace(/\{(\w+)\}/g, ':$1') }), `${route} is described, not mounted`);
      assert.ok(keyReaches(path.replace(/\{(\w+)\}/g, ':$1')), `${route} is described, not reached by a key`);
    }
  } finally {
    await server.stop();
  }
});
