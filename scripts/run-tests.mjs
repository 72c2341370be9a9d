// Runs test files with Node's built-in runner (Node 20 has no glob for --test): the files named on
// the command line, or every file of a tier (`--tier lint|unit|full`, scripts/test-tiers.mjs; `full`
// when none is named). ClickHouse's tests run on Debian's 18.16 server (SVC_TEST_CLICKHOUSE=server,
// the default); a full run then runs every file that uses ClickHouse (clickHouseFiles) once more on the current
// engine (26.7, the chdb library behind support/clickhouse-chdb.ts). SVC_TEST_CLICKHOUSE=chdb runs
// any file on it.
import { spawnSync } from 'node:child_process';
import { clickHouseFiles, filesOfTier } from './test-tiers.mjs';

function run(files, env) {
  const concurrency = process.env.TEST_CONCURRENCY ?? '2';
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files],
    { stdio: 'inherit', env: { ...process.env, ...env } },
  );
  return result.status ?? 1;
}

const args = process.argv.slice(2);
const tierAt = args.indexOf('--tier');
const tier = tierAt >= 0 ? args[tierAt + 1] : 'full';
const named = args.filter((_, i) => tierAt < 0 || (i !== tierAt && i !== tierAt + 1));
const files = named.length > 0 ? named : filesOfTier(tier);
const first = run(files, {});
let second = 0;
if (named.length === 0 && tier === 'full' && process.env.SVC_TEST_CLICKHOUSE === undefined) {
  const current = clickHouseFiles();
  console.log(`\nThe ${current.length} files that use ClickHouse, again on the current engine (SVC_TEST_CLICKHOUSE=chdb):\n`);
  second = run(current, { SVC_TEST_CLICKHOUSE: 'chdb' });
}
process.exit(first || second);
