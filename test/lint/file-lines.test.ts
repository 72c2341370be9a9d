// The project's rule for its next reader: no file of code over 600 lines (a file that grows past it
// does more than one job, and is split by concern).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const MAX_LINES = 600;
const FOLDERS = ['src', 'web', 'test', 'bench', 'scripts', 'support'];
const CODE = /\.(ts|tsx|mts|mjs|js|css)$/;

function* codeFiles(folder: string): Generator<string> {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* codeFiles(path);
    else if (CODE.test(entry.name)) yield path;
  }
}

test(`no file of code is over ${MAX_LINES} lines`, () => {
  const counted = FOLDERS.flatMap((folder) => [...codeFiles(folder)]).map((path) => ({ path, lines: readFileSync(path, 'utf8').split('\n').length - 1 }));
  assert.ok(counted.length > 500, `only ${counted.length} files found: the test reads the wrong folders`);
  assert.deepEqual(counted.filter((f) => f.lines > MAX_LINES), []);
});
