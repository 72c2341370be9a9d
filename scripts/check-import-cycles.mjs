// Fails when modules import each other in a cycle, at two levels: the top-level folders of src/
// (storage -> stats -> storage), and single files of src/ and web/ (a.ts -> b.ts -> a.ts, type-only
// imports included: a cycle through a type still ties the two files together for their reader).
// Files directly in src/ (the composition root, main, server, worker, config) sit above the folders
// and are not part of the folder graph. Prints both graphs' cycles, or the folder graph when there
// are none. Run by test/lint/import-graph.test.ts.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.(ts|tsx|mjs|js)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The relative imports of a file, as written. */
function importsOf(file) {
  return [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((m) => m[1] ?? m[2]);
}

/** The top-level folder of a path under src/, or null for a file directly in src/. */
function folderOf(path) {
  const parts = relative(SRC, path).split(sep);
  return parts.length > 1 ? parts[0] : null;
}

/** Edges between top-level folders: folder -> Map(folder -> an example "file -> import"). */
export function folderGraph() {
  const graph = new Map();
  for (const file of files(SRC)) {
    const from = folderOf(file);
    if (from === null) continue;
    if (!graph.has(from)) graph.set(from, new Map());
    for (const spec of importsOf(file)) {
      const to = folderOf(resolve(dirname(file), spec));
      if (to !== null && to !== from && !graph.get(from).has(to)) graph.get(from).set(to, `${relative(SRC, file)} -> ${spec}`);
    }
  }
  return graph;
}

/** The file an import names: TypeScript sources are imported by their `.js` names. */
function resolveImport(from, spec) {
  const path = resolve(dirname(from), spec);
  const candidates = [path, path.replace(/\.js$/, '.ts'), path.replace(/\.js$/, '.tsx'), `${path}.ts`, `${path}.tsx`, join(path, 'index.ts')];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? null;
}

/** Edges between the files of src/ and web/ (paths relative to the project): file -> Map(file -> import). */
export function fileGraph() {
  const graph = new Map();
  for (const file of [...files(SRC), ...files(join(ROOT, 'web'))]) {
    const edges = new Map();
    for (const spec of importsOf(file)) {
      const to = resolveImport(file, spec);
      if (to !== null) edges.set(relative(ROOT, to), spec);
    }
    graph.set(relative(ROOT, file), edges);
  }
  return graph;
}

/** A cycle of nodes (first node repeated at the end), or null. */
export function findCycle(graph) {
  const state = new Map(); // node -> 'open' | 'done'
  const path = [];
  const visit = (node) => {
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (state.get(next) === 'open') return [...path.slice(path.indexOf(next)), next];
      if (!state.has(next)) {
        const cycle = visit(next);
        if (cycle) return cycle;
      }
    }
    path.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of graph.keys()) {
    if (!state.has(node)) {
      const cycle = visit(node);
      if (cycle) return cycle;
    }
  }
  return null;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let failed = false;
  for (const [level, graph] of [['folders of src/', folderGraph()], ['files of src/ and web/', fileGraph()]]) {
    const cycle = findCycle(graph);
    if (!cycle) continue;
    failed = true;
    console.error(`import cycle between ${level}: ${cycle.join(' -> ')}`);
    for (let i = 0; i + 1 < cycle.length; i++) console.error(`  ${cycle[i]} imports ${graph.get(cycle[i]).get(cycle[i + 1])}`);
  }
  if (failed) process.exit(1);
  for (const [from, edges] of [...folderGraph()].sort()) console.log(`${from} -> ${[...edges.keys()].sort().join(', ') || '(nothing)'}`);
}
