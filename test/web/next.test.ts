// Where sign-in may send the browser: paths of this origin only.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loginPath, safeNext } from '../../web/lib/next.js';

describe('safeNext', () => {
  it('keeps a path of this origin with its query and fragment', () => {
    assert.equal(safeNext('/sites/abc/settings'), '/sites/abc/settings');
    assert.equal(safeNext('/sites/abc?period=7d&filter=page:%2Fa#top'), '/sites/abc?period=7d&filter=page:%2Fa#top');
  });

  it('sends every address that could leave the origin to /', () => {
    for (const raw of [
      null,
      '',
      'https://evil.example/',
      '//evil.example/',
      '/\\evil.example/',
      '\\\\evil.example',
      'javascript:alert(1)',
      '/\t/evil.example',
      '/\n/evil.example',
      'evil.example',
      '/%5c%5cevil.example'.replace('%5c%5c', '\\\\'),
    ]) {
      assert.equal(safeNext(raw), '/', String(raw));
    }
  });

  it('keeps an encoded slash pair as a path of this origin', () => {
    assert.equal(safeNext('/%2F%2Fevil.example'), '/%2F%2Fevil.example');
  });
});

describe('loginPath', () => {
  it('carries the current address in next, encoded', () => {
    assert.equal(loginPath('/orgs/1/settings?x=1&y=2'), '/login?next=%2Forgs%2F1%2Fsettings%3Fx%3D1%26y%3D2');
    assert.equal(loginPath('/'), '/login');
  });
});
