// Runs every *.test.ts under test/ with Node's built-in runner (Node 20 has no glob for --test).
// The files whose imports reach support/clickhouse.ts run on the current ClickHouse (26.7, the chdb
// library) with the rest, then once more on Debian's ClickHouse 18.16 server: both are supported.
// SVC_TEST_CLICKHOUSE=chdb or =server runs them on that engine alone.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return find(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

const CLICKHOUSE = resolve('support/clickhouse.ts');
const reaching = new Map();

/** Whether `file`'s relative imports (static or dynamic), followed through, reach support/clickhouse.ts. */
function reachesClickHouse(file) {
  const path = resolve(file);
  if (path === CLICKHOUSE) return true;
  if (reaching.has(path)) return reaching.get(path);
  reaching.set(path, false); // an import cycle adds nothing
  const imports = readFileSync(path, 'utf8').matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g);
  const found = [...imports].some(([, spec]) => {
    const target = resolve(dirname(path), spec.replace(/\.js$/, '.ts'));
    return existsSync(target) && reachesClickHouse(target);
  });
  reaching.set(path, found);
  return found;
}

function run(files, env) {
  const concurrency = process.env.TEST_CONCURRENCY ?? '2';
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files],
    { stdio: 'inherit', env: { ...process.env, ...env } },
  );
  return result.status ?? 1;
}

const only = process.argv.slice(2);
const files = only.length > 0 ? only : find('test').sort();
const first = run(files, {});
const again = process.env.SVC_TEST_CLICKHOUSE === undefined ? files.filter(reachesClickHouse) : [];
let second = 0;
if (again.length > 0) {
  console.log(`\nThe ${again.length} test files that use ClickHouse, again on Debian's ClickHouse 18.16 (SVC_TEST_CLICKHOUSE=server):\n`);
  second = run(again, { SVC_TEST_CLICKHOUSE: 'server' });
}
process.exit(first || second);
