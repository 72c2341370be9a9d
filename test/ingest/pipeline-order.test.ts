// The step order stated at the top of src/ingest/pipeline.ts is the order the live steps run in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { liveSteps, type LiveDeps } from '../../src/ingest/pipeline.js';

test('the header comment of the pipeline lists every live step, in order', () => {
  const source = readFileSync(new URL('../../src/ingest/pipeline.ts', import.meta.url), 'utf8');
  const header = source.slice(0, source.indexOf('\nimport ')).replace(/\n\/\/ ?/g, ' ');
  const stated = /Order of the live steps: (.*?)\. /.exec(header)?.[1];
  assert.ok(stated, header);
  const names = stated.split('→').map((part) => part.trim().split(' ')[0]);
  // Building the steps only captures their dependencies; nothing runs.
  assert.deepEqual(names, liveSteps({} as LiveDeps).map((s) => s.name));
});
