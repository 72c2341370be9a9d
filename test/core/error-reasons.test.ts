// The reasons of the error catalogue: one per template, each a distinct name in capitals, spelled
// alike by the type the dashboard checks its branches with (ReasonOf, ErrorReason) and by the
// function the server answers with (reasonOf), and carried by every error apiError builds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiError, ERRORS, reasonOf, type ErrorCode, type ErrorReason, type MessageName, type ReasonOf } from '../../src/core/errors.js';

const templates = Object.entries(ERRORS).flatMap(([code, { messages }]) =>
  Object.keys(messages).map((name) => ({ code: code as ErrorCode, name: name as MessageName<ErrorCode> })),
);

test('every template of the catalogue has a reason of its own', () => {
  const reasons = templates.map(({ code, name }) => reasonOf(code, name));
  const repeated = reasons.filter((reason, i) => reasons.indexOf(reason) !== i);
  assert.deepEqual(repeated, []);
  for (const reason of reasons) assert.match(reason, /^[A-Z]+(?:_[A-Z]+)*$/);
  assert.equal(reasons.length, templates.length);
});

test("a reason is the template's name then its code, or the code alone when the name only repeats it", () => {
  // Each line is checked twice: tsc holds the literal to the type, the assertion to the function.
  const siteNotFound: ReasonOf<'NOT_FOUND', 'site'> = 'SITE_NOT_FOUND';
  const wrongPassword: ReasonOf<'UNAUTHORIZED', 'wrongPassword'> = 'WRONG_PASSWORD_UNAUTHORIZED';
  const bodyTimeout: ReasonOf<'REQUEST_TIMEOUT', 'body'> = 'BODY_REQUEST_TIMEOUT';
  const requestTimeout: ReasonOf<'REQUEST_TIMEOUT', 'request'> = 'REQUEST_TIMEOUT';
  const internal: ReasonOf<'INTERNAL', 'internal'> = 'INTERNAL';
  const notFilterable: ReasonOf<'METRIC_NOT_FILTERABLE', 'metric'> = 'METRIC_NOT_FILTERABLE';
  assert.equal(reasonOf('NOT_FOUND', 'site'), siteNotFound);
  assert.equal(reasonOf('UNAUTHORIZED', 'wrongPassword'), wrongPassword);
  assert.equal(reasonOf('REQUEST_TIMEOUT', 'body'), bodyTimeout);
  assert.equal(reasonOf('REQUEST_TIMEOUT', 'request'), requestTimeout);
  assert.equal(reasonOf('INTERNAL', 'internal'), internal);
  assert.equal(reasonOf('METRIC_NOT_FILTERABLE', 'metric'), notFilterable);
});

test('an error built from the catalogue carries its reason, with its code, status and message', () => {
  const refusal = apiError('CONFLICT', 'domain', { domain: 'example.com' });
  const reason: ErrorReason = 'DOMAIN_CONFLICT';
  assert.deepEqual(
    { code: refusal.code, reason: refusal.reason, status: refusal.status, message: refusal.message },
    { code: 'CONFLICT', reason, status: 409, message: 'an active site of this organisation already uses the domain example.com' },
  );
});
