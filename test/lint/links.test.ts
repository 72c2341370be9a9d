// The README and docs/ (with docs/decisions/) stand alone: every relative link reaches a file of the
// repository (and a heading of it when the link names one), every file cited by its path exists, and
// nothing sends the reader to documents a clone lacks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The Markdown files of a folder and of its subfolders (docs/decisions/). */
function markdownUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownUnder(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

const DOCUMENTS = ['README.md', ...markdownUnder('docs')];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(path: string): Set<string> {
  const headings = readFileSync(path, 'utf8').split('\n').filter((line) => /^#{1,6} /.test(line));
  return new Set(headings.map((line) => anchorOf(line.replace(/^#+ /, '').trim())));
}

test('every relative link in the README and docs/ reaches a file, and its heading', () => {
  const broken: string[] = [];
  for (const document of DOCUMENTS) {
    const text = readFileSync(document, 'utf8').replace(/```[\s\S]*?```/g, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target!)) continue;
      const [file, anchor] = target!.split('#');
      const path = file === '' ? document : join(dirname(document), file!);
      if (!existsSync(path)) broken.push(`${document}: ${target} (no such file)`);
      else if (anchor && statSync(path).isFile() && path.endsWith('.md') && !anchorsOf(path).has(anchor)) {
        broken.push(`${document}: ${target} (no such heading)`);
      }
    }
  }
  assert.deepEqual(broken, []);
});

// Files an operator writes, which a clone therefore lacks.
const WRITTEN_BY_THE_OPERATOR = new Set(['deploy/.env']);

test('every file of the repository the README and docs/ cite by its path exists', () => {
  const missing: string[] = [];
  for (const document of DOCUMENTS) {
    const text = readFileSync(document, 'utf8').replace(/```[\s\S]*?```/g, '');
    for (const [, cited] of text.matchAll(/`((?:src|test|web|scripts|bench|deploy|support)\/[^`\s]*)`/g)) {
      if (/[<*{]/.test(cited!) || WRITTEN_BY_THE_OPERATOR.has(cited!)) continue; // a pattern, not one file
      if (!existsSync(cited!.split(':')[0]!)) missing.push(`${document}: ${cited}`);
    }
  }
  assert.deepEqual(missing, []);
});

test('nothing in the repository points at documents outside it', () => {
  // The contracts svc is built to (kept beside the project, not in it), by name or as a file.
  const outside = /\b(SPEC|ADMIN_API|DESIGN|DASHBOARD|TEAMS|IMPORTS|EXPLORE|ANALYSIS|PROPERTIES)(\.md\b|'s\b)|\bSPEC\b|\bshared\//;
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(md|ts|tsx|mjs|js|json|sh)$/.test(name) && path !== join('test', 'lint', 'links.test.ts')) {
        readFileSync(path, 'utf8').split('\n').forEach((line, i) => {
          if (outside.test(line)) found.push(`${path}:${i + 1}`);
        });
      }
    }
  };
  for (const dir of ['docs', 'src', 'web', 'support', 'test', 'bench', 'scripts']) walk(dir);
  for (const file of ['README.md', 'package.json']) if (outside.test(readFileSync(file, 'utf8'))) found.push(file);
  assert.deepEqual(found, []);
});
