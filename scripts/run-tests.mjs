// Runs test files with Node's built-in runner (Node 20 has no glob for --test): the files named on
// the command line, or every file of a tier (`--tier lint|unit|full`, scripts/test-tiers.mjs; `full`
// when none is named).
import { spawnSync } from 'node:child_process';
import { filesOfTier } from './test-tiers.mjs';

const args = process.argv.slice(2);
const tierAt = args.indexOf('--tier');
const tier = tierAt >= 0 ? args[tierAt + 1] : 'full';
const named = args.filter((_, i) => tierAt < 0 || (i !== tierAt && i !== tierAt + 1));
const files = named.length > 0 ? named : filesOfTier(tier);
const concurrency = process.env.TEST_CONCURRENCY ?? '2';
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
