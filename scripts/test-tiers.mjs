// Sorts the test files into tiers by what they need, read from their imports (followed through the
// project's own files): `lint` (test/lint/: checks that read the code as text), `unit` (no server,
// no browser, no built service: runs on a bare checkout in a couple of minutes) and `full` (every
// file). A test joins the servers' side by importing what starts or reaches one; nothing is listed
// by hand, so a new test lands in the right tier by itself.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export const TIERS = ['lint', 'unit', 'full'];

/**
 * The files a full run runs once more on the current ClickHouse (26.7 through chdb, which runs one
 * statement at a time and so takes 1.6 - 1.8x the time of Debian's server): the event store's
 * contract and statements, and the rollups, imports and session rows whose partition replacements
 * 26.6 changed. Every other ClickHouse test runs on it with SVC_TEST_CLICKHOUSE=chdb; all of them at
 * once on both engines would not fit CI's time on 2 cores.
 */
export const CURRENT_CLICKHOUSE_FILES = [
  'test/storage/clickhouse-event-store.test.ts',
  'test/storage/clickhouse-http.test.ts',
  'test/storage/clickhouse-kept-folder.test.ts',
  'test/storage/clickhouse-literal.test.ts',
  'test/storage/event-columns.test.ts',
  'test/storage/event-store.contract.test.ts',
  'test/storage/page-pattern-sql.test.ts',
  'test/stats/rollups.test.ts',
  'test/imports/umami.test.ts',
  'test/imports/raw-reimport.test.ts',
  'test/imports/plausible-import.test.ts',
];

// What makes a file need more than Node: a server of the machine's, Chromium, or the built service.
const NEEDS_SERVER = [
  /from '(playwright-core|ioredis|pg)'/,
  /support\/(clickhouse|postgres|counters)\.js'/,
  /helpers\/(nginx|child|deployment|compose|meta-adapters|event-stores)\.js'/,
  /['"`]dist\//,
];
const LOCAL_IMPORT = /(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g;

function testFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The project file an import names: TypeScript sources are imported by their `.js` name. */
function resolveImport(from, specifier) {
  const path = resolve(dirname(from), specifier);
  for (const candidate of [path, path.replace(/\.js$/, '.ts'), path.replace(/\.js$/, '.tsx'), `${path}.ts`]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Whether `file`, or a project file it imports at any depth, needs a server. */
function needsServer(file, memo, visiting = new Set()) {
  if (memo.has(file)) return memo.get(file);
  if (visiting.has(file)) return false;
  visiting.add(file);
  const text = readFileSync(file, 'utf8');
  let needs = NEEDS_SERVER.some((marker) => marker.test(text));
  for (const match of needs ? [] : text.matchAll(LOCAL_IMPORT)) {
    const imported = resolveImport(file, match[1]);
    if (imported && needsServer(imported, memo, visiting)) {
      needs = true;
      break;
    }
  }
  visiting.delete(file);
  memo.set(file, needs);
  return needs;
}

/** The test files of `tier`, relative to `root`, sorted. */
export function filesOfTier(tier, root = process.cwd()) {
  if (!TIERS.includes(tier)) throw new Error(`unknown test tier "${tier}" (one of ${TIERS.join(', ')})`);
  const all = testFiles(join(root, 'test')).sort();
  const lint = all.filter((file) => relative(root, file).startsWith(join('test', 'lint')));
  const memo = new Map();
  const picked = tier === 'full' ? all : tier === 'lint' ? lint : all.filter((file) => !lint.includes(file) && !needsServer(file, memo));
  return picked.map((file) => relative(root, file));
}
