// The error catalogue and its documents agree: docs/api.md's error table lists every code with its
// status, the OpenAPI document lists the codes that table marks as the read API's, the admin API's
// table names only codes of the catalogue, with their statuses, and its reasons table lists every
// reason of the catalogue (those of /admin/v1 and /app/v1), with its code and message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ERRORS, reasonOf, type ErrorCode, type MessageName } from '../../src/core/errors.js';

interface Row {
  code: string;
  status: number;
  readApi: boolean;
}

/** The rows of the first table after `heading` whose first column is a code. */
function errorTable(path: string, heading: string): Row[] {
  const text = readFileSync(path, 'utf8');
  const start = text.indexOf(heading);
  assert.ok(start >= 0, `${path} has ${heading}`);
  const lines = text.slice(start).split('\n');
  const first = lines.findIndex((line) => line.startsWith('| Code |'));
  const columns = lines[first]!.split('|').map((cell) => cell.trim());
  const rows: Row[] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    const cells = line.split('|').map((cell) => cell.trim());
    rows.push({
      code: cells[columns.indexOf('Code')]!.replace(/`/g, ''),
      status: Number(cells[columns.indexOf('Status')]),
      readApi: cells[columns.indexOf('`/v1`')] === 'yes',
    });
  }
  return rows;
}

const catalogue = Object.entries(ERRORS).map(([code, { status }]) => ({ code, status }));

test("docs/api.md's error table lists every code of the catalogue, with its status", () => {
  const rows = errorTable('docs/api.md', '## Errors');
  assert.deepEqual(
    rows.map(({ code, status }) => ({ code, status })).sort((a, b) => a.code.localeCompare(b.code)),
    catalogue.sort((a, b) => a.code.localeCompare(b.code)),
  );
});

test('the OpenAPI document lists the codes docs/api.md marks as the read API’s, with their statuses', () => {
  const document = JSON.parse(readFileSync('docs/openapi.json', 'utf8')) as {
    paths: Record<string, { get: { responses: Record<string, { description: string }> } }>;
    components: { schemas: { Error: { properties: { error: { properties: { code: { enum: string[] } } } } } } };
  };
  const readApi = errorTable('docs/api.md', '## Errors')
    .filter((row) => row.readApi)
    .map(({ code, status }) => ({ code, status }))
    .sort((a, b) => a.code.localeCompare(b.code));
  // The read API's paths; those of /app/v1/manage a manage key reaches list the admin API's codes (test/v1/openapi.test.ts).
  for (const [path, { get }] of Object.entries(document.paths).filter(([path]) => path.startsWith('/v1/'))) {
    const listed = Object.entries(get.responses)
      .filter(([status]) => Number(status) >= 400)
      .flatMap(([status, { description }]) => description.split(', ').map((code) => ({ code, status: Number(status) })));
    assert.deepEqual(listed.sort((a, b) => a.code.localeCompare(b.code)), readApi, path);
  }
  assert.deepEqual(
    [...document.components.schemas.Error.properties.error.properties.code.enum].sort(),
    readApi.map((row) => row.code),
  );
});

test("docs/admin-api.md's error table names codes of the catalogue, with their statuses", () => {
  for (const { code, status } of errorTable('docs/admin-api.md', '## Conventions')) {
    assert.equal(ERRORS[code as keyof typeof ERRORS]?.status, status, code);
  }
});

test("docs/admin-api.md's reasons table lists every reason of the catalogue, with its code and message", () => {
  const text = readFileSync('docs/admin-api.md', 'utf8');
  const lines = text.slice(text.indexOf('### Reasons')).split('\n');
  const first = lines.findIndex((line) => line.startsWith('| Reason |'));
  assert.ok(first > 0, 'docs/admin-api.md has a reasons table');
  const documented: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    documented.push(line.split(' | ').map((cell) => cell.replace(/^\|? ?`|` ?\|?$/g, '')));
  }
  const catalogue = Object.entries(ERRORS).flatMap(([code, { messages }]) =>
    Object.entries(messages).map(([name, message]) => [reasonOf(code as ErrorCode, name as MessageName<ErrorCode>), code, message]),
  );
  const sorted = (rows: string[][]) => rows.sort((a, b) => a[0]!.localeCompare(b[0]!));
  assert.deepEqual(sorted(documented), sorted(catalogue));
});
