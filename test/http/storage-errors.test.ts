// The one table from storage errors to API errors (src/http/storage-errors.ts): every error class a
// storage port declares is in it, each answers its API error, and anything else stays an internal
// error (500, logged) for the error handler.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STORAGE_REFUSALS, storageRefusal } from '../../src/http/storage-errors.js';
import * as eventPort from '../../src/storage/events/types.js';
import * as accountPort from '../../src/storage/meta/account-types.js';
import * as alertPort from '../../src/storage/meta/alert-types.js';
import * as digestPort from '../../src/storage/meta/digest-types.js';
import * as importPort from '../../src/storage/meta/import-types.js';
import * as metaPort from '../../src/storage/meta/types.js';
import { ClickHouseError } from '../../src/storage/events/clickhouse-http.js';

/** The error classes the storage ports export: what a store throws for its callers to tell apart. */
const portErrors = [eventPort, accountPort, alertPort, digestPort, importPort, metaPort].flatMap((port) =>
  Object.values(port).filter((value): value is new (...args: never[]) => Error => typeof value === 'function' && value.prototype instanceof Error),
);

test('every error class of the storage ports is in the table', () => {
  assert.deepEqual(
    portErrors.map((error) => error.name).sort(),
    STORAGE_REFUSALS.map(({ error }) => error.name).sort(),
  );
});

test('each storage error answers its API error', () => {
  const answers = [
    new metaPort.DuplicateDomain('example.com'),
    new metaPort.DuplicateGoal(7),
    new accountPort.DuplicateEmail(),
    new metaPort.LimitReached('segments', 100),
    new metaPort.LimitReached('sites', 1000),
    new metaPort.LimitReached('sharedLinks', 100),
    new metaPort.LimitReached('reportWebhooks', 20),
    new metaPort.LimitReached('apiKeys', 100),
    new metaPort.LimitReached('funnelVersions', 100),
    new eventPort.StatementTimeout(15_000),
    new importPort.UploadNotStored('cut'),
  ].map((err) => {
    const refusal = storageRefusal(err);
    return refusal && { status: refusal.status, code: refusal.code, reason: refusal.reason, message: refusal.message };
  });
  assert.deepEqual(answers, [
    { status: 409, code: 'CONFLICT', reason: 'DOMAIN_CONFLICT', message: 'an active site of this organisation already uses the domain example.com' },
    { status: 409, code: 'CONFLICT', reason: 'GOAL_CONFLICT', message: 'a goal with this kind and pattern already exists on this site (goal 7)' },
    { status: 409, code: 'CONFLICT', reason: 'EMAIL_CONFLICT', message: 'a user with this email already exists' },
    { status: 409, code: 'CONFLICT', reason: 'SEGMENTS_CONFLICT', message: 'a site keeps at most 100 segments: delete one first' },
    { status: 409, code: 'CONFLICT', reason: 'SITES_CONFLICT', message: 'an organisation keeps at most 1000 active sites: archive one first' },
    { status: 409, code: 'CONFLICT', reason: 'SHARED_LINKS_CONFLICT', message: 'a site keeps at most 100 shared links: revoke one first' },
    { status: 409, code: 'CONFLICT', reason: 'REPORT_WEBHOOKS_CONFLICT', message: 'a site keeps at most 20 report webhooks: delete one first' },
    { status: 409, code: 'CONFLICT', reason: 'API_KEYS_CONFLICT', message: 'an organisation keeps at most 100 API keys in use: revoke one first' },
    { status: 409, code: 'CONFLICT', reason: 'FUNNEL_VERSIONS_CONFLICT', message: 'a funnel keeps at most 100 versions of its steps: make a new funnel' },
    {
      status: 503,
      code: 'QUERY_TIMEOUT',
      reason: 'DEADLINE_QUERY_TIMEOUT',
      message: 'the query ran longer than 15 s and was cancelled: choose a shorter period or fewer filters',
    },
    { status: 404, code: 'NOT_FOUND', reason: 'IMPORT_NOT_FOUND', message: 'import not found' },
  ]);
});

test('any other error is no storage refusal: the error handler answers it as an internal error', () => {
  assert.equal(storageRefusal(new Error('disk full')), undefined);
  assert.equal(storageRefusal(new ClickHouseError('241', 'DB::Exception: Memory limit (total) exceeded')), undefined);
  assert.equal(storageRefusal('a string thrown'), undefined);
});
