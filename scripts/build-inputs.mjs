// What `npm run build` turns into dist/: a hash of every input (sources, build scripts, TypeScript
// and package settings), kept in dist/.build-inputs after a build. Run directly (the last step of
// `npm run build`), it records the hash of the inputs as they are now.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Folders and files, relative to the project root, that the build reads. */
export const BUILD_INPUTS = ['src', 'web', 'scripts', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'];

export const STAMP_FILE = join('dist', '.build-inputs');

function files(root, path) {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full)
    .sort()
    .flatMap((name) => files(root, join(path, name)));
}

/** SHA-256 over every input's path and content: any edit, addition or removal changes it. */
export function inputsHash(root) {
  const hash = createHash('sha256');
  for (const path of BUILD_INPUTS.flatMap((input) => files(root, input))) {
    hash.update(path + '\0');
    hash.update(readFileSync(join(root, path)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Whether dist/ was built from the inputs as they are now. */
export function isUpToDate(root) {
  const stamp = join(root, STAMP_FILE);
  return existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === inputsHash(root);
}

export function writeStamp(root) {
  mkdirSync(join(root, 'dist'), { recursive: true });
  writeFileSync(join(root, STAMP_FILE), inputsHash(root) + '\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) writeStamp(process.cwd());
