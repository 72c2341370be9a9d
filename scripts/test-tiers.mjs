// Sorts the test files into tiers by what they need, read from their imports (followed through the
// project's own files): `lint` (test/lint/: checks that read the code as text), `unit` (no server,
// no browser, no built service: runs on a bare checkout in a couple of minutes) and `full` (every
// file). A test joins the servers' side by importing what starts or reaches one; nothing is listed
// by hand, so a new test lands in the right tier by itself.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export const TIERS = ['lint', 'unit', 'full'];

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

/** What makes a file use ClickHouse: the support module that starts one. */
const USES_CLICKHOUSE = [/support\/clickhouse\.js'/];
/**
 * Whole deployments (test/helpers/deployment.ts: several svc processes, PostgreSQL, Redis, ClickHouse)
 * test svc's processes, not the engine's statements, which the engine's own tests run: they run on
 * Debian's server alone.
 */
const DEPLOYMENT = /test\/helpers\/deployment\.ts$/;
/**
 * Tests of statements side by side (readers sharing the server's connections), which the current
 * engine's stand-in cannot show: it runs one statement at a time, so a read waits behind any other.
 */
const SIDE_BY_SIDE = ['test/v1/fair-reads.test.ts'];

/** Whether `file`, or a project file it imports at any depth (but `unfollowed`), holds one of `markers`. */
function reaches(file, markers, memo, unfollowed = null, visiting = new Set()) {
  if (memo.has(file)) return memo.get(file);
  if (visiting.has(file)) return false;
  visiting.add(file);
  const text = readFileSync(file, 'utf8');
  let found = markers.some((marker) => marker.test(text));
  for (const match of found ? [] : text.matchAll(LOCAL_IMPORT)) {
    const imported = resolveImport(file, match[1]);
    if (imported && !unfollowed?.test(imported) && reaches(imported, markers, memo, unfollowed, visiting)) {
      found = true;
      break;
    }
  }
  visiting.delete(file);
  memo.set(file, found);
  return found;
}

/** The test files of `tier`, relative to `root`, sorted. */
export function filesOfTier(tier, root = process.cwd()) {
  if (!TIERS.includes(tier)) throw new Error(`unknown test tier "${tier}" (one of ${TIERS.join(', ')})`);
  const all = testFiles(join(root, 'test')).sort();
  const lint = all.filter((file) => relative(root, file).startsWith(join('test', 'lint')));
  const memo = new Map();
  const picked = tier === 'full' ? all : tier === 'lint' ? lint : all.filter((file) => !lint.includes(file) && !reaches(file, NEEDS_SERVER, memo));
  return picked.map((file) => relative(root, file));
}

/**
 * The test files that use ClickHouse's engine, relative to `root`, sorted: a full run runs them on
 * Debian's 18.16 server, then once more on the current engine (26.7 through chdb), but those of
 * statements side by side.
 */
export function clickHouseFiles(root = process.cwd()) {
  const memo = new Map();
  return testFiles(join(root, 'test'))
    .sort()
    .filter((file) => reaches(file, USES_CLICKHOUSE, memo, DEPLOYMENT))
    .map((file) => relative(root, file))
    .filter((file) => !SIDE_BY_SIDE.includes(file));
}
