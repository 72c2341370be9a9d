// Page URLs: the hand-written fast path for plain paths must give what the URL parser gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clientGroup, ipv4ToNumber, truncatedIp } from '../../src/ingest/ip.js';
import { hostMatchesDomain, originHost, parsePageUrl, referrerValue } from '../../src/ingest/url-values.js';

/** The reference: the WHATWG URL parser, as the slow path uses it. */
function reference(u: string) {
  const absolute = /^https?:\/\//i.test(u);
  const url = new URL(u, 'http://relative.invalid');
  if (!absolute && url.hostname !== 'relative.invalid') return null;
  let path = url.pathname;
  try {
    path = decodeURI(path);
  } catch {
    // kept encoded
  }
  return { host: absolute ? url.hostname : null, path, search: url.search };
}

test('fast path and URL parser agree', () => {
  const inputs = [
    '/', '/pricing', '/a/b/c?x=1&utm_source=news#top', '/zürich/🦆?q=é', '/a"b<c>d`e{f}g', '/docs/?', '/x?#', '/a#b?c',
    '/a/../b', '/./a', '/a/./b', '/a%20b', '/a%ZZ', '/a b', '/a\tb', '//evil.example/x', '/\\evil.example', '/a\\b',
    'https://Shop.Example.com/cart?utm_source=x', 'http://example.com', '/?utm_source=a&utm_source=b', '/a?x=%41',
  ];
  for (const u of inputs) {
    const fast = parsePageUrl(u);
    const ref = reference(u);
    if (ref === null) {
      assert.equal(fast, null, u);
      continue;
    }
    // The query string may differ in percent-encoding; its parsed parameters must not.
    const params = (search: string) => [...new URLSearchParams(search)];
    assert.deepEqual({ ...fast!, search: params(fast!.search) }, { ...ref, path: ref.path.slice(0, 2048), search: params(ref.search) }, u);
  }
});

test('pages are cut to 2048 characters', () => {
  assert.equal(parsePageUrl('/' + 'a'.repeat(5000))!.path.length, 2048);
});

test('origins: http(s) only, host lowercased, cached values stay right', () => {
  for (let i = 0; i < 3; i++) {
    assert.equal(originHost('https://Blog.Example.com'), 'blog.example.com');
    assert.equal(originHost('ftp://example.com'), null);
    assert.equal(originHost('null'), null);
    assert.equal(originHost(undefined), null);
  }
  assert.ok(hostMatchesDomain('blog.example.com', 'example.com'));
  assert.ok(!hostMatchesDomain('evil-example.com', 'example.com'));
});

test('referrer: ref/source first, own domain is no referrer, www. dropped', () => {
  const q = (s: string) => new URLSearchParams(s);
  assert.equal(referrerValue(q('?ref=producthunt'), 'https://www.google.com/', 'example.com'), 'producthunt');
  assert.equal(referrerValue(q('?source=newsletter'), null, 'example.com'), 'newsletter');
  assert.equal(referrerValue(q(''), 'https://www.google.com/search?q=x', 'example.com'), 'google.com');
  assert.equal(referrerValue(q(''), 'https://blog.example.com/post', 'example.com'), null);
  assert.equal(referrerValue(q(''), 'android-app://com.slack', 'example.com'), null);
});

test('IPv4 as a number, and the networks the rate limit counts by', () => {
  assert.equal(ipv4ToNumber('0.0.0.0'), 0);
  assert.equal(ipv4ToNumber('255.255.255.255'), 4294967295);
  assert.equal(ipv4ToNumber('81.2.69.160'), 81 * 2 ** 24 + 2 * 2 ** 16 + 69 * 256 + 160);
  assert.equal(truncatedIp('81.2.69.160'), '81.2.69.0/24');
  assert.equal(truncatedIp('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
  assert.equal(truncatedIp('2001:db8::1'), '2001:db8:0:0::/64');
});

test('a client for per-client limits: an IPv4 address alone, an IPv6 address by its /64', () => {
  assert.equal(clientGroup('81.2.69.160'), '81.2.69.160');
  assert.equal(clientGroup('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
  assert.equal(clientGroup('2001:db8:1:2:ffff::9'), clientGroup('2001:db8:1:2::1'));
  assert.notEqual(clientGroup('2001:db8:1:3::1'), clientGroup('2001:db8:1:2::1'));
});
