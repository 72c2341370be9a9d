// The routes the dashboard's client calls (src/http/app-v1/routes.ts, a table of types read here by
// the TypeScript compiler) are routes the app mounts under /app/v1, method and path: a route moved
// or removed on the server fails here, not in a page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { startTestServer } from '../helpers/server.js';
import { mountedRoutes } from '../helpers/mounted-routes.js';

const TABLE = 'src/http/app-v1/routes.ts';

/** The property names of the table's `AppRoutes` interface. */
function tableRoutes(): string[] {
  const source = ts.createSourceFile(TABLE, readFileSync(TABLE, 'utf8'), ts.ScriptTarget.Latest);
  const table = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'AppRoutes');
  assert.ok(table, `AppRoutes in ${TABLE}`);
  return table.members.flatMap((member) => (member.name && ts.isStringLiteral(member.name) ? [member.name.text] : []));
}

test("every route of the dashboard's client is mounted under /app/v1", async () => {
  const server = await startTestServer();
  try {
    const mounted = new Set(mountedRoutes(server.service.app, '/app/v1'));
    const routes = tableRoutes();
    assert.ok(routes.length > 50, `the table's routes are read (${routes.length})`);
    assert.deepEqual(
      routes.filter((route) => !mounted.has(route)),
      [],
    );
    // The reader sees a route the app does not mount as such.
    assert.ok(!mounted.has('GET /manage/orgs'), 'an operator-only route is not mounted here');
  } finally {
    await server.stop();
  }
});
