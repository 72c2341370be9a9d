// The test tiers (scripts/test-tiers.mjs): `npm run lint` runs test/lint/ alone, `npm run test:unit`
// leaves out every file that reaches a server, a browser or the built service through its imports,
// and `npm test` runs every file once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { clickHouseFiles, filesOfTier } from '../../scripts/test-tiers.mjs';

/** A project of `files` (path → text) in a folder of its own. */
function project(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'svc-tiers-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

test('a file reaching a server through helpers at any depth is left out of the unit tier; lint is test/lint alone', () => {
  const root = project({
    'support/clickhouse.ts': 'export const start = 1;\n',
    'test/helpers/stores.ts': "export { start } from '../../support/clickhouse.js';\n",
    'test/helpers/deep.ts': "import { start } from './stores.js';\nexport const s = start;\n",
    'test/a/plain.test.ts': "import { x } from '../../src/x.js';\n",
    'src/x.ts': 'export const x = 1;\n',
    'test/a/deep.test.ts': "import { s } from '../helpers/deep.js';\n",
    'test/a/browser.test.ts': "import { chromium } from 'playwright-core';\n",
    'test/a/cycle.test.ts': "import '../helpers/one.js';\n",
    'test/helpers/one.ts': "import './two.js';\n",
    'test/helpers/two.ts': "import './one.js';\n",
    'test/lint/sizes.test.ts': '// reads files\n',
  });
  try {
    assert.deepEqual(filesOfTier('lint', root), ['test/lint/sizes.test.ts']);
    assert.deepEqual(filesOfTier('unit', root), ['test/a/cycle.test.ts', 'test/a/plain.test.ts']);
    assert.equal(filesOfTier('full', root).length, 5);
    assert.throws(() => filesOfTier('fast', root), /unknown test tier "fast"/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("this project's tiers: every lint and unit file is also in the full run, and the unit tier holds no server test", () => {
  const full = new Set(filesOfTier('full'));
  const unit = filesOfTier('unit');
  const lint = filesOfTier('lint');
  for (const file of [...unit, ...lint]) assert.ok(full.has(file), file);
  assert.ok(lint.includes('test/lint/file-lines.test.ts') && lint.includes('test/lint/import-graph.test.ts'));
  assert.ok(unit.includes('test/core/patterns.test.ts'));
  for (const serverTest of ['test/tracker/e2e.test.ts', 'test/scaleout/compose.test.ts']) assert.ok(!unit.includes(serverTest), serverTest);
  assert.ok(unit.every((file) => !file.startsWith('test/lint/')));
});

test('the files run again on the current ClickHouse: every test that reaches support/clickhouse through its imports, but through a whole deployment', () => {
  const root = project({
    'support/clickhouse.ts': 'export const start = 1;\n',
    'test/helpers/event-stores.ts': "export { start } from '../../support/clickhouse.js';\n",
    'test/helpers/deployment.ts': "import { start } from '../../support/clickhouse.js';\nexport const d = start;\n",
    'test/stats/engine.test.ts': "import { start } from '../helpers/event-stores.js';\n",
    'test/storage/direct.test.ts': "import { start } from '../../support/clickhouse.js';\n",
    'test/scaleout/processes.test.ts': "import { d } from '../helpers/deployment.js';\n",
    'test/core/plain.test.ts': "import { x } from '../../src/x.js';\n",
    'src/x.ts': 'export const x = 1;\n',
  });
  try {
    assert.deepEqual(clickHouseFiles(root), ['test/stats/engine.test.ts', 'test/storage/direct.test.ts']);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const own = clickHouseFiles();
  for (const file of ['test/stats/equivalence.test.ts', 'test/storage/event-store.contract.test.ts', 'test/scaleout/same-answers.test.ts']) assert.ok(own.includes(file), file);
  assert.ok(!own.includes('test/scaleout/compose.test.ts'));
  assert.ok(!own.includes('test/v1/fair-reads.test.ts'), 'readers side by side: the stand-in runs one statement at a time');
});
