// `npm start` and `npm test` start from dist/ when it was built from the sources as they are
// (see build-inputs.mjs); otherwise they run `npm run build` first.
import { spawnSync } from 'node:child_process';
import { isUpToDate } from './build-inputs.mjs';

const root = process.cwd();
if (isUpToDate(root)) {
  console.error('dist/ is up to date with the sources: not rebuilding');
} else {
  console.error('sources changed since the last build (or no build yet): npm run build');
  const result = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
  process.exit(result.status ?? 1);
}
