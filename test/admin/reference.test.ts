// docs/admin-api.md is the admin API's reference: every route the service registers under
// /admin/v1 is listed there with its method, and every route it lists exists.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { METHODS } from 'node:http';
import { startTestServer, type TestServer } from '../helpers/server.js';

const PREFIX = '/admin/v1';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(async () => {
  await server?.stop();
});

/** `METHOD /path` (below PREFIX) of every admin route, read from Fastify's route tree. */
function registeredRoutes(): string[] {
  const found: string[] = [];
  const parents: string[] = [];
  for (const line of server.service.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const node = /^([│ ]*)[├└]── (\S+) \(([^)]*)\)$/.exec(line);
    if (!node) continue;
    const depth = node[1]!.length / 4;
    const path = (parents[depth - 1] ?? '') + node[2]!;
    parents[depth] = path;
    parents.length = depth + 1;
    if (!path.startsWith(`${PREFIX}/`)) continue;
    const methods = node[3]!.split(', ');
    // The read API's routes (the operator's mount of them) take every method Node parses, to answer
    // 405 with `allow: GET` to all but GET: documented as the GET they answer.
    const readRoute = methods.length === METHODS.length;
    for (const method of readRoute ? ['GET'] : methods) if (method !== 'HEAD') found.push(`${method} ${path.slice(PREFIX.length)}`);
  }
  return found.sort();
}

/** `METHOD /path` of every route written in docs/admin-api.md (query strings left out). */
function documentedRoutes(): string[] {
  const doc = readFileSync('docs/admin-api.md', 'utf8');
  const routes = [...doc.matchAll(/`(GET|POST|PUT|PATCH|DELETE) (\/[^`\s?]*)/g)].map((m) => `${m[1]} ${m[2]}`);
  return [...new Set(routes)].filter((route) => !/ \/(v1|metrics|healthz)\b/.test(route)).sort();
}

test('docs/admin-api.md lists every admin route, and only those', () => {
  const registered = registeredRoutes();
  assert.ok(registered.length >= 25, registered.join('\n'));
  assert.deepEqual(documentedRoutes(), registered);
});
