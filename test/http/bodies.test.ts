// readBody alone (src/http/validate.ts) over the bodies as declared (src/http/bodies.ts): each kind of
// field is checked with the catalogue's message, texts are trimmed unless verbatim, an unknown field
// is refused by name, a field its reader checks arrives as sent.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as bodies from '../../src/http/bodies.js';
import { readBody } from '../../src/http/validate.js';
import { ApiError } from '../../src/core/errors.js';

/** The message readBody refuses `value` with (or `accepted`), and the reason. */
function outcome(schema: Parameters<typeof readBody>[0], value: unknown): string {
  try {
    readBody(schema, value);
    return 'accepted';
  } catch (err) {
    assert.ok(err instanceof ApiError, String(err));
    assert.equal(err.code, 'INVALID_PARAMS');
    return err.message;
  }
}

test('every kind of field, with the catalogue\'s message for each fault', () => {
  const site = { domain: 'example.com', name: 'Example', timezone: 'UTC' };
  const cases: Array<[string, Parameters<typeof readBody>[0], unknown, string]> = [
    ['no body', bodies.NEW_SITE, undefined, 'domain is required and must be a non-empty string'],
    ['a list as body', bodies.NEW_SITE, [], 'body must be a JSON object'],
    ['unknown field', bodies.NEW_SITE, { ...site, colour: 'red' }, 'unknown field "colour"; allowed: domain, name, timezone, retentionMonths, rawDays, honorGpc'],
    ['a field on a bodiless action', bodies.NO_BODY, { force: true }, 'unknown field "force"; this request takes no body'],
    ['blank text', bodies.NEW_SITE, { ...site, name: '   ' }, 'name is required and must be a non-empty string'],
    ['text too long', bodies.NEW_SITE, { ...site, name: 'x'.repeat(201) }, 'name must be at most 200 characters'],
    ['integer out of range', bodies.NEW_SITE, { ...site, rawDays: 10 }, 'rawDays must be an integer from 30 to 800'],
    ['integer as text', bodies.NEW_SITE, { ...site, rawDays: '30' }, 'rawDays must be an integer from 30 to 800'],
    ['nullable integer: null', bodies.NEW_SITE, { ...site, retentionMonths: null }, 'accepted'],
    ['nullable integer: a fraction', bodies.NEW_SITE, { ...site, retentionMonths: 1.5 }, 'retentionMonths must be an integer from 1 to 1200'],
    ['flag', bodies.NEW_SITE, { ...site, honorGpc: 'yes' }, 'honorGpc must be true or false'],
    ['one of a list', bodies.SITE_CHANGE, { status: 'gone' }, 'status must be one of active, archived'],
    ['missing flag', bodies.TWO_FACTOR_REQUIREMENT, {}, 'required must be true or false'],
    ['unbounded integer', bodies.NEW_SHARED_LINK, { segment: 'one' }, 'segment must be an integer'],
    ['day', bodies.NEW_ANNOTATION, { date: '2026-02-30', text: 'x' }, 'date must be a day YYYY-MM-DD from 1970-01-01 to 9999-12-30'],
    ['list of texts: too many', bodies.NEW_SHARED_LINK, { embedDomains: Array(17).fill('a.example') }, 'embedDomains must be an array of at most 16 host names such as example.com'],
    ['list of texts: an empty one', bodies.SIGN_IN_SETTINGS, { domains: [''] }, 'domains must be an array of at most 20 email domains such as example.com'],
    ['list of objects: too few', bodies.NEW_FUNNEL, { name: 'f', windowMinutes: 60, steps: [{ kind: 'page', pattern: '/' }] }, 'steps must be an array of 2 to 8 steps'],
    ['list of objects: a field of an item', bodies.FUNNEL_STEPS_CHANGE, { steps: [{ kind: 'page', pattern: '/' }, { kind: 'click', pattern: '/' }] }, 'kind must be one of page, event'],
    ['list of objects: an unknown field of an item', bodies.FUNNEL_STEPS_CHANGE, { steps: [{ kind: 'page', pattern: '/', x: 1 }, { kind: 'page', pattern: '/' }] }, 'unknown field "x"; allowed: kind, pattern'],
    ['verbatim: empty password', bodies.SIGN_IN, { email: 'a@example.com', password: '' }, 'password is required and must be a string of at most 1024 characters'],
    ['verbatim: another field', bodies.CURRENT_PASSWORD, { currentPassword: 7 }, 'currentPassword must be a string of 1 to 1024 characters'],
    ['verbatim: a code of spaces', bodies.TWO_FACTOR_CODE, { code: '   ' }, 'code must be the 6 digits of the authenticator app or a recovery code'],
    ['verbatim: a password of spaces', bodies.CURRENT_PASSWORD, { currentPassword: '   ' }, 'accepted'],
    ['own check: anything arrives', bodies.NEW_USER, { email: 42, password: [] }, 'accepted'],
  ];
  const messages = cases.map(([, schema, value]) => outcome(schema, value));
  assert.deepEqual(
    messages.map((message, i) => `${cases[i]![0]}: ${message}`),
    cases.map(([name, , , expected]) => `${name}: ${expected}`),
  );
});

test('texts are trimmed, verbatim ones and own-checked fields are not; absent optional fields stay absent', () => {
  assert.deepEqual(readBody(bodies.NEW_SITE, { domain: ' example.com ', name: ' Shop\t', timezone: 'UTC' }), { domain: 'example.com', name: 'Shop', timezone: 'UTC' });
  assert.deepEqual(readBody(bodies.SIGN_IN, { email: ' a@example.com ', password: ' secret ' }), { email: 'a@example.com', password: ' secret ' });
  assert.deepEqual(readBody(bodies.NEW_USER, { email: ' a@example.com ', password: ' p ' }), { email: ' a@example.com ', password: ' p ' });
  assert.deepEqual(readBody(bodies.NO_BODY, null), {});
  // A list's texts are its reader's to parse: a filter's trailing space is part of its value.
  assert.deepEqual(readBody(bodies.NEW_SHARED_LINK, { filters: ['page~:/blog ', ' x'] }), { filters: ['page~:/blog ', ' x'] });
});

test('the first fault in the schema\'s order is the one answered', () => {
  assert.equal(outcome(bodies.NEW_GOAL, { name: '', kind: 'x', pattern: '' }), 'name is required and must be a non-empty string');
  assert.equal(outcome(bodies.NEW_GOAL, { name: 'g', kind: 'x', pattern: '' }), 'kind must be one of page, event');
});
