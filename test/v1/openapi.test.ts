// docs/openapi.json is the generated document, byte for byte: regenerate with
//   UPDATE_OPENAPI=1 node scripts/run-tests.mjs test/v1/openapi.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { openApiDocument } from '../../src/http/openapi.js';
import { ROUTES, responses } from '../../src/http/v1/schemas.js';

const FILE = new URL('../../docs/openapi.json', import.meta.url);

test('docs/openapi.json is the document the server serves', () => {
  const text = JSON.stringify(openApiDocument(), null, 2) + '\n';
  if (process.env.UPDATE_OPENAPI === '1') writeFileSync(FILE, text);
  assert.equal(readFileSync(FILE, 'utf8'), text);
});

test('every route has a response schema and documented parameters', () => {
  const doc = openApiDocument() as { paths: Record<string, { get: { parameters: Array<{ name: string }>; responses: Record<string, unknown> } }> };
  for (const route of ROUTES) {
    const op = doc.paths[route.path.replace(/:(\w+)/g, '{$1}')]!.get;
    assert.deepEqual(op.parameters.map((p) => p.name), route.parameters.map((p) => p.name));
    assert.ok(responses[route.operationId]);
    for (const status of ['200', '400', '401', '404', '405', '429', '500']) assert.ok(op.responses[status], `${route.path} ${status}`);
  }
});
