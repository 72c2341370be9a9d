// Where sign-in may send the browser: paths of the service's own origin only, decided on the URL as
// the browser normalises it (the server's redirect to /login and the sign-in page share safeNext).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loginPath, safeNext } from '../../src/core/next-path.js';

const ORIGIN = 'https://stats.example.com';

describe('safeNext', () => {
  it('keeps a path of this origin with its query and fragment, normalised', () => {
    for (const [raw, path] of [
      ['/sites/abc/settings', '/sites/abc/settings'],
      ['/sites/abc?period=7d&filter=page:%2Fa#top', '/sites/abc?period=7d&filter=page:%2Fa#top'],
      ['/ok?x=1#y', '/ok?x=1#y'],
      ['/a/../b/./c', '/b/c'],
      ['https://stats.example.com/sites/abc', '/sites/abc'],
      ['HTTPS://STATS.example.com:443/x', '/x'],
      ['sites/abc', '/sites/abc'],
      ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
      ['/%09/host', '/%09/host'],
      ['/a\tb', '/ab'],
      ['/?//evil.example', '/?//evil.example'],
      ['/#//evil.example', '/#//evil.example'],
    ] as const) {
      assert.equal(safeNext(raw, ORIGIN), path, JSON.stringify(raw));
    }
  });

  it('sends every address that leaves the origin, now or once normalised, to /', () => {
    for (const raw of [
      null,
      undefined,
      '',
      '/.//evil.example/',
      '/..//host',
      '/%2e//host',
      '/%2E%2E//host',
      '/a/..//host',
      '/a/%2e%2e//host',
      '//host',
      '/\\host',
      '\\/host',
      '\\\\host',
      'https://evil.example',
      'http://stats.example.com/',
      'https://stats.example.com.evil.example/',
      'https://stats.example.com@evil.example/',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      '/\t/evil.example',
      '/\n/evil.example',
      '\t//evil.example',
      'http://[::1',
    ]) {
      assert.equal(safeNext(raw, ORIGIN), '/', JSON.stringify(raw));
    }
  });

  it('compares origins as browsers serialise them, and refuses everything for an unusable origin', () => {
    assert.equal(safeNext('/x', 'HTTP://Stats.Example.com:80'), '/x');
    assert.equal(safeNext('/x', 'not an origin'), '/');
  });
});

describe('loginPath', () => {
  it('carries the current address in next, encoded; an address that leaves the origin is dropped', () => {
    assert.equal(loginPath('/orgs/1/settings?x=1&y=2', ORIGIN), '/login?next=%2Forgs%2F1%2Fsettings%3Fx%3D1%26y%3D2');
    assert.equal(loginPath('/', ORIGIN), '/login');
    assert.equal(loginPath('//evil.example/', ORIGIN), '/login');
    assert.equal(loginPath('/.//evil.example/', ORIGIN), '/login');
  });
});
