// Fails when the top-level folders of src/ import each other in a cycle (storage -> stats -> storage),
// and prints the folder graph. Files directly in src/ (the composition root, main, server, worker,
// config) sit above the folders and are not part of the graph. Run by test/core/folder-graph.test.ts.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src');
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.(ts|mjs|js)$/.test(name) ? [path] : [];
  });
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
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const to = folderOf(resolve(dirname(file), m[1] ?? m[2]));
      if (to !== null && to !== from && !graph.get(from).has(to)) graph.get(from).set(to, `${relative(SRC, file)} -> ${m[1] ?? m[2]}`);
    }
  }
  return graph;
}

/** A cycle of folders (first folder repeated at the end), or null. */
export function findCycle(graph) {
  const state = new Map(); // folder -> 'open' | 'done'
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
  const graph = folderGraph();
  for (const [from, edges] of [...graph].sort()) console.log(`${from} -> ${[...edges.keys()].sort().join(', ') || '(nothing)'}`);
  const cycle = findCycle(graph);
  if (cycle) {
    console.error(`import cycle between folders of src/: ${cycle.join(' -> ')}`);
    for (let i = 0; i + 1 < cycle.length; i++) console.error(`  ${graph.get(cycle[i]).get(cycle[i + 1])}`);
    process.exit(1);
  }
}
