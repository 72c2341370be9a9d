// Docs and comments say what is, not how it came to be: no rounds of work, reviews or "Bug fix:"
// notes in the README, docs/, the sources, the tests or the benches.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const NARRATIVE = /\b(bug ?fix|review (found|showed)|(second|third|fourth|fifth|sixth|seventh|eighth|previous) (session|round)|session [0-9]|round [0-9])\b/i;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.(md|ts|mjs|js)$/.test(name) ? [path] : [];
  });
}

test('no narrative of past work in the README, docs, sources, tests or benches', () => {
  const found: string[] = [];
  for (const path of ['README.md', ...['docs', 'src', 'test', 'bench', 'scripts'].flatMap(files)]) {
    if (path === join('test', 'lint', 'narrative.test.ts')) continue;
    readFileSync(path, 'utf8').split('\n').forEach((line, i) => {
      if (NARRATIVE.test(line)) found.push(`${path}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(found, []);
});
