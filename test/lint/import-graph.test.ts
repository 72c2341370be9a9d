// Modules import each other without a cycle, between the top-level folders of src/ and between
// single files of src/ and web/ (docs/architecture.md "Folders").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
// @ts-expect-error: a plain ES module of scripts/, without type declarations
import { fileGraph, findCycle, folderGraph } from '../../scripts/check-import-cycles.mjs';

type Graph = Map<string, Map<string, string>>;

test('no import cycle between the folders of src/', () => {
  const graph = folderGraph() as Graph;
  assert.equal(findCycle(graph), null);
  // The edges the ports are about, read from the real imports.
  assert.ok(graph.get('stats')?.has('storage'), 'the read side uses the storage ports');
  assert.ok(!graph.get('storage')?.has('stats'), 'storage knows nothing of the read side (rollups are its)');
  assert.deepEqual([...(graph.get('sql')?.keys() ?? [])], [], 'the SQL vocabulary imports nothing');
});

test('no import cycle between the files of src/ and web/, type-only imports included', () => {
  const graph = fileGraph() as Graph;
  assert.equal(findCycle(graph), null);
  // The graph is read from the real imports: TypeScript's .js names resolved to .ts and .tsx files.
  assert.ok(graph.get('src/stats/sql/goals.ts')?.has('src/entities/goals.ts'), 'a type-only import is an edge');
  assert.ok([...graph.keys()].some((file) => file.startsWith('web/') && file.endsWith('.tsx')), 'web/ is read');
  assert.ok([...graph.values()].some((edges) => [...edges.keys()].some((to) => to.endsWith('.tsx'))), 'imports of .tsx files resolve');
});

test('a cycle is found, however long, and named', () => {
  const graph = (edges: Array<[string, string]>): Graph => {
    const g: Graph = new Map();
    for (const [from, to] of edges) {
      if (!g.has(from)) g.set(from, new Map());
      if (!g.has(to)) g.set(to, new Map());
      g.get(from)!.set(to, `${from}/x.ts -> ../${to}/y.js`);
    }
    return g;
  };
  assert.deepEqual(findCycle(graph([['a', 'b'], ['b', 'c'], ['c', 'a'], ['c', 'd']])), ['a', 'b', 'c', 'a']);
  assert.deepEqual(findCycle(graph([['x', 'storage'], ['storage', 'stats'], ['stats', 'storage']])), ['storage', 'stats', 'storage']);
  assert.equal(findCycle(graph([['a', 'b'], ['a', 'c'], ['b', 'c']])), null);
});

/** Every import statement of web/ that names a module, with the file it is in. */
function dashboardImports(module: string): Array<{ file: string; statement: string }> {
  const statements = /(?:^|\n)(import[^;]*?from\s*'([^']+)');/g;
  return (readdirSync('web', { recursive: true }) as string[])
    .filter((file) => /\.tsx?$/.test(file))
    .flatMap((file) => [...readFileSync(join('web', file), 'utf8').matchAll(statements)].map((m) => ({ file, statement: m[1]!, from: m[2]! })))
    .filter((found) => found.from.endsWith(module));
}

test('the dashboard imports the answers\' and the bodies\' schemas for their types only, so that TypeBox stays out of its bundle', () => {
  const imports = dashboardImports('/src/core/answers.js');
  assert.ok(imports.length >= 10, `found ${imports.length} imports of the answers`);
  assert.deepEqual(imports.filter((found) => !found.statement.startsWith('import type ')), []);
  // The bodies reach the dashboard through the typed client's routes (src/http/app-v1/routes.ts).
  const routes = [...dashboardImports('/src/http/app-v1/routes.js'), ...dashboardImports('/src/http/bodies.js')];
  assert.ok(routes.length >= 1, 'the client imports the routes');
  assert.deepEqual(routes.filter((found) => !found.statement.startsWith('import type ')), []);
  assert.deepEqual(dashboardImports('typebox'), []);
});
