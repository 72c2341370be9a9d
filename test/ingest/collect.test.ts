// POST /api/e through a real listening server: what is stored for a valid event, and every discard
// rule of the collection pipeline (docs/operations.md), each applied to an event that would otherwise be accepted.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import {
  BROWSER_UA,
  browserHeaders,
  createRelayKey,
  createSite,
  startTestServer,
  type SiteFixture,
  type TestServer,
} from '../helpers/server.js';
import type { DropReason } from '../../src/ingest/drop-reasons.js';

const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

let server: TestServer;
let site: SiteFixture;
let relayKey: string;

before(async () => {
  server = await startTestServer();
  site = await createSite(server, { domain: 'example.com', timezone: 'Europe/Paris' });
  relayKey = await createRelayKey(server);
});
after(() => server.stop());

const pageview = (extra: Record<string, unknown> = {}) => ({ s: site.siteId, u: '/pricing', ...extra });

// The drop counters are read before and after each request; the reason whose count moved is the one.
async function expectOutcome(body: unknown, headers: Record<string, string>, expected: DropReason | 'accepted') {
  const drops = server.ctx.ingest.drops;
  const reasons: DropReason[] = ['too_large', 'bad_json', 'bad_shape', 'unknown_site', 'origin_mismatch', 'gpc', 'bot_ua', 'bot_datacenter', 'rate_limited', 'bad_name', 'bad_props'];
  const counts = reasons.map((r) => drops.droppedFor(r));
  const accepted = drops.acceptedFor('collect');
  const status = await server.collect(body, headers);
  assert.equal(status, 202, 'the collection endpoint always answers 202');
  await server.flush();
  const moved = reasons.filter((r, i) => drops.droppedFor(r) !== counts[i]);
  const outcome = drops.acceptedFor('collect') > accepted ? 'accepted' : moved[0];
  assert.equal(outcome, expected);
}

describe('a valid pageview', () => {
  test('is stored with its dimensions, session and site-local day', async () => {
    await expectOutcome(
      pageview({ u: '/docs/start?utm_source=Newsletter&utm_medium=email&utm_campaign=launch&x=1', r: 'https://www.google.com/search?q=a', w: 390, l: 'fr-FR' }),
      browserHeaders('example.com', { 'user-agent': IPHONE_UA, 'x-svc-relay-key': relayKey, 'x-svc-client-ip': '81.2.69.160' }),
      'accepted',
    );
    const rows = await server.storedEvents(site.siteId);
    const row = rows.at(-1)!;
    assert.equal(row.name, 'pageview');
    assert.equal(row.page, '/docs/start');
    assert.equal(row.entry_page, '/docs/start');
    assert.equal(row.referrer, 'google.com');
    assert.equal(row.utm_source, 'Newsletter');
    assert.equal(row.utm_medium, 'email');
    assert.equal(row.utm_campaign, 'launch');
    assert.equal(row.browser, 'Safari');
    assert.equal(row.os, 'iOS');
    assert.equal(row.device, 'mobile');
    assert.equal(row.country, 'GB');
    assert.equal(row.city, 'London');
    assert.equal(row.language, 'fr-FR');
    assert.equal(row.session_start, true);
    assert.equal(row.props, null);
    assert.equal(typeof row.visitor_id, 'bigint');
  });

  test('stores the same utm values for a query as written in the address and as re-encoded by URLSearchParams', async () => {
    // The tracker keeps the parameters as the address writes them (%20, %2B); URLSearchParams writes + and %2B.
    const written = '/utm?utm_campaign=spring%20sale&utm_source=a%2Bb&utm_medium=e-mail&ref=hn';
    const reencoded = '/utm?' + new URLSearchParams(written.split('?')[1]);
    assert.notEqual(written, reencoded);
    const stored = [];
    for (const [u, ip] of [[written, '203.0.113.21'], [reencoded, '203.0.113.22']] as const) {
      await expectOutcome(pageview({ u }), browserHeaders('example.com', { 'x-svc-relay-key': relayKey, 'x-svc-client-ip': ip }), 'accepted');
      const row = (await server.storedEvents(site.siteId)).at(-1)!;
      stored.push([row.page, row.utm_source, row.utm_medium, row.utm_campaign]);
    }
    assert.deepEqual(stored[0], ['/utm', 'a+b', 'e-mail', 'spring sale']);
    assert.deepEqual(stored[1], stored[0]);
  });

  test('a custom event keeps cleaned props and the session of the pageview', async () => {
    const headers = browserHeaders('example.com', { 'x-svc-relay-key': relayKey, 'x-svc-client-ip': '203.0.113.9' });
    await expectOutcome(pageview({ u: '/a' }), headers, 'accepted');
    const props = { plan: 'pro', seats: 3, trial: false, nested: { a: 1 }, list: [1], nothing: null, long: 'x'.repeat(600), ['k'.repeat(65)]: 'dropped' };
    await expectOutcome(pageview({ u: '/a', e: 'signup', p: props }), headers, 'accepted');
    const rows = await server.storedEvents(site.siteId);
    const signup = rows.findLast((r) => r.name === 'signup')!;
    const view = rows.findLast((r) => r.name === 'pageview' && r.page === '/a')!;
    assert.equal(signup.session_id, view.session_id);
    assert.equal(signup.session_start, false);
    assert.deepEqual(JSON.parse(signup.props), { plan: 'pro', seats: 3, trial: false, long: 'x'.repeat(500) });
  });

  test('engage stores active time and scroll depth', async () => {
    const headers = browserHeaders('example.com', { 'x-svc-relay-key': relayKey, 'x-svc-client-ip': '203.0.113.10' });
    await expectOutcome(pageview({ e: 'engage', p: { t: 12_345.6, d: 80 } }), headers, 'accepted');
    const row = (await server.storedEvents(site.siteId)).findLast((r) => r.name === 'engage')!;
    assert.equal(row.engaged_ms, 12_346);
    assert.equal(row.scroll_depth, 80);
  });

  test('engage stores the web vitals that are whole numbers within their bounds, and leaves out the others', async () => {
    const headers = browserHeaders('example.com', { 'x-svc-relay-key': relayKey, 'x-svc-client-ip': '203.0.113.11' });
    const cases: Array<[sent: Record<string, unknown>, stored: Array<number | null>]> = [
      [{ lcp: 2480, inp: 96, cls: 12, ttfb: 310 }, [2480, 96, 12, 310]],
      [{ lcp: 0, cls: 100_000 }, [0, null, 100_000, null]],
      [{ lcp: -1, inp: 1.5, cls: 100_001, ttfb: '300' }, [null, null, null, null]],
      [{ lcp: 600_000, inp: 600_001, ttfb: true }, [600_000, null, null, null]],
      [{}, [null, null, null, null]],
    ];
    for (const [sent, stored] of cases) {
      await expectOutcome(pageview({ e: 'engage', p: { t: 1000, d: 50, ...sent } }), headers, 'accepted');
      const row = (await server.storedEvents(site.siteId)).findLast((r) => r.name === 'engage')!;
      assert.deepEqual([row.lcp, row.inp, row.cls, row.ttfb], stored, JSON.stringify(sent));
      // A value left out is left out of the stored props too.
      const props = JSON.parse(row.props) as Record<string, unknown>;
      assert.deepEqual(['lcp', 'inp', 'cls', 'ttfb'].filter((k) => k in props), ['lcp', 'inp', 'cls', 'ttfb'].filter((_, i) => stored[i] !== null));
    }
  });

  test('any content type is accepted, and no content type at all', async () => {
    for (const type of ['application/json', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded']) {
      await expectOutcome(pageview(), browserHeaders('example.com', { 'content-type': type }), 'accepted');
    }
  });
});

describe('origin', () => {
  const cases: Array<[string, string | undefined, DropReason | 'accepted']> = [
    ['the declared domain', 'https://example.com', 'accepted'],
    ['a subdomain', 'https://blog.example.com', 'accepted'],
    ['a deep subdomain, any case', 'https://A.B.Example.COM', 'accepted'],
    ['http and a port', 'http://example.com:8080', 'accepted'],
    ['a look-alike with a dash', 'https://evil-example.com', 'origin_mismatch'],
    ['a look-alike suffix', 'https://notexample.com', 'origin_mismatch'],
    ['the domain as a subdomain of another', 'https://example.com.evil.net', 'origin_mismatch'],
    ['the null origin', 'null', 'origin_mismatch'],
    ['garbage', 'not a url', 'origin_mismatch'],
    ['a missing Origin header', undefined, 'origin_mismatch'],
  ];
  for (const [name, origin, expected] of cases) {
    test(`${name} → ${expected}`, async () => {
      const headers: Record<string, string> = { 'user-agent': BROWSER_UA };
      if (origin !== undefined) headers.origin = origin;
      await expectOutcome(pageview(), headers, expected);
    });
  }

  test('the local site (localhost) takes every loopback origin on any port, and nothing else; other sites take none of them', async () => {
    const local = await createSite(server, { domain: 'localhost' });
    const loopback = ['http://localhost:3000', 'http://LOCALHOST', 'http://app.localhost:5173', 'http://127.0.0.1:8080', 'http://127.8.9.10', 'https://[::1]:4443'];
    for (const origin of loopback) {
      await expectOutcome({ s: local.siteId, u: '/' }, { 'user-agent': BROWSER_UA, origin }, 'accepted');
      await expectOutcome(pageview(), { 'user-agent': BROWSER_UA, origin }, 'origin_mismatch');
    }
    await expectOutcome({ s: local.siteId, u: 'http://127.0.0.1:8080/cart' }, { 'user-agent': BROWSER_UA, origin: 'http://127.0.0.1:8080' }, 'accepted');
    for (const origin of ['https://example.com', 'http://localhost.example', 'http://127.0.0.1.example', 'http://128.0.0.1', 'http://[::2]', 'http://0.0.0.0']) {
      await expectOutcome({ s: local.siteId, u: '/' }, { 'user-agent': BROWSER_UA, origin }, 'origin_mismatch');
    }
  });

  test('an absolute u must be on the site; only its path and query are kept', async () => {
    await expectOutcome(pageview({ u: 'https://evil.net/x' }), browserHeaders('example.com'), 'origin_mismatch');
    await expectOutcome(pageview({ u: 'https://shop.example.com/cart?utm_source=x' }), browserHeaders('example.com'), 'accepted');
    const row = (await server.storedEvents(site.siteId)).at(-1)!;
    assert.equal(row.page, '/cart');
  });

  test("the hostname is the absolute u's host, else the Origin's: lowercased, without port or trailing dot", async () => {
    const cases: Array<[u: string, origin: string, hostname: string]> = [
      ['/a', 'https://example.com', 'example.com'],
      ['/a', 'https://Blog.Example.COM:8443', 'blog.example.com'],
      ['https://SHOP.example.com.:444/cart', 'https://example.com', 'shop.example.com'],
      ['http://docs.example.com/x?utm_source=y', 'https://www.example.com', 'docs.example.com'],
    ];
    for (const [i, [u, origin, hostname]] of cases.entries()) {
      await expectOutcome(pageview({ u }), browserHeaders('example.com', { origin, 'x-svc-relay-key': relayKey, 'x-svc-client-ip': `203.0.113.${40 + i}` }), 'accepted');
      assert.equal((await server.storedEvents(site.siteId)).at(-1)!.hostname, hostname, `${u} from ${origin}`);
    }
  });
});

describe('each discard rule drops an otherwise valid event', () => {
  test('unknown and archived sites', async () => {
    await expectOutcome(pageview({ s: 'nosuchsite' }), browserHeaders('example.com'), 'unknown_site');
    const archived = await createSite(server, { domain: 'archived.example' });
    await expectOutcome({ s: archived.siteId, u: '/' }, browserHeaders('archived.example'), 'accepted');
    await server.admin('PATCH', `/sites/${archived.siteId}`, { status: 'archived' });
    await expectOutcome({ s: archived.siteId, u: '/' }, browserHeaders('archived.example'), 'unknown_site');
  });

  test('bots by User-Agent, and an empty User-Agent', async () => {
    await expectOutcome(pageview(), browserHeaders('example.com', { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' }), 'bot_ua');
    await expectOutcome(pageview(), browserHeaders('example.com', { 'user-agent': 'HeadlessChrome/120.0' }), 'bot_ua');
    await expectOutcome(pageview(), { origin: 'https://example.com', 'user-agent': '' }, 'bot_ua');
  });

  test('a data-centre address (through the trusted relay)', async () => {
    // 3.5.140.1 is in an Amazon AWS range (AS16509).
    await expectOutcome(pageview(), browserHeaders('example.com', { 'x-svc-relay-key': relayKey, 'x-svc-client-ip': '3.5.140.1' }), 'bot_datacenter');
    await expectOutcome(pageview(), browserHeaders('example.com', { 'x-svc-relay-key': relayKey, 'x-svc-client-asn': 'AS14061' }), 'bot_datacenter');
  });

  test('Global Privacy Control, when the site honours it (the default)', async () => {
    await expectOutcome(pageview(), browserHeaders('example.com', { 'sec-gpc': '1' }), 'gpc');
    const lenient = await createSite(server, { domain: 'nogpc.example', honorGpc: false });
    await expectOutcome({ s: lenient.siteId, u: '/' }, browserHeaders('nogpc.example', { 'sec-gpc': '1' }), 'accepted');
  });

  test('names and props', async () => {
    const h = browserHeaders('example.com');
    await expectOutcome(pageview({ e: 'Signup' }), h, 'bad_name');
    await expectOutcome(pageview({ e: 'pageview' }), h, 'bad_name');
    await expectOutcome(pageview({ e: 'x'.repeat(65) }), h, 'bad_name');
    await expectOutcome(pageview({ e: 'sign up' }), h, 'bad_name');
    await expectOutcome(pageview({ e: '' }), h, 'bad_name');
    await expectOutcome(pageview({ e: 'dot.name' }), h, 'bad_name');
    await expectOutcome(pageview({ e: 'émoji' }), h, 'bad_name');
    await expectOutcome(pageview({ e: 42 }), h, 'bad_name');
    await expectOutcome(pageview({ e: 'a', p: [1, 2] }), h, 'bad_props');
    await expectOutcome(pageview({ e: 'a', p: 'text' }), h, 'bad_props');
    const big: Record<string, string> = {};
    for (let i = 0; i < 5; i++) big[`k${i}`] = 'v'.repeat(450);
    await expectOutcome(pageview({ e: 'a', p: big }), h, 'bad_props');
    await expectOutcome(pageview({ e: 'engage', p: { t: 'soon', d: 10 } }), h, 'bad_props');
    await expectOutcome(pageview({ e: 'outbound', p: {} }), h, 'bad_props');
    await expectOutcome(pageview({ e: 'download', p: { url: 'https://example.com/a.pdf' } }), h, 'accepted');
  });

  test('props over 2048 bytes of JSON, counted in UTF-8 bytes rather than characters', async () => {
    const h = browserHeaders('example.com');
    // 3 × 500 two-byte characters: 1.5 K characters but about 3 KB of UTF-8.
    await expectOutcome(pageview({ e: 'a', p: { a: 'é'.repeat(500), b: 'é'.repeat(500), c: 'é'.repeat(500) } }), h, 'bad_props');
    const long = 'x'.repeat(500);
    const props = (n: number) => ({ a: long, b: long, c: long, d: long, e: 'x'.repeat(n) });
    assert.equal(Buffer.byteLength(JSON.stringify(props(12))), 2048);
    await expectOutcome(pageview({ e: 'a', p: props(12) }), h, 'accepted');
    await expectOutcome(pageview({ e: 'a', p: props(13) }), h, 'bad_props');
  });

  test('malformed bodies', async () => {
    const h = browserHeaders('example.com');
    await expectOutcome('{"s":', h, 'bad_json');
    await expectOutcome('', h, 'bad_json');
    await expectOutcome([1, 2], h, 'bad_shape');
    await expectOutcome(pageview({ u: 42 }), h, 'bad_shape');
    await expectOutcome(pageview({ u: 'javascript:alert(1)' }), h, 'bad_shape');
    await expectOutcome(pageview({ w: 'wide' }), h, 'bad_shape');
    await expectOutcome({ u: '/' }, h, 'bad_shape');
  });

  test('a body over 4096 bytes is discarded; exactly 4096 is read', async () => {
    const h = browserHeaders('example.com');
    const base = JSON.stringify(pageview({ u: '/' }));
    const padTo = (n: number) => base.slice(0, -1) + `,"pad":"${'x'.repeat(n - base.length - 9)}"}`;
    assert.equal(Buffer.byteLength(padTo(4096)), 4096);
    await expectOutcome(padTo(4096), h, 'accepted');
    await expectOutcome(padTo(4097), h, 'too_large');
    await expectOutcome(padTo(60_000), h, 'too_large');
  });

  test('beyond 64 KB: 202, then the connection is closed', async () => {
    const { port } = new URL(server.url);
    const response = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1');
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('close', () => resolve(text));
      // Writing on after the server closed the connection fails with EPIPE: that is the point.
      socket.on('error', () => undefined);
      socket.write(`POST /api/e HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 1000000\r\n\r\n`);
      const chunk = 'x'.repeat(16_384);
      const pump = () => {
        while (!socket.destroyed && socket.write(chunk)) {}
        if (!socket.destroyed) socket.once('drain', pump);
      };
      pump();
    });
    assert.match(response, /^HTTP\/1\.1 202/);
    assert.match(response, /connection: close/i);
  });

  test('a client that goes away mid-body sent no event: counted as aborted, not as a drop', async () => {
    const drops = server.ctx.ingest.drops;
    const aborted = () => server.ctx.metrics.counter('svc_collect_aborted_total', '').value();
    const before = { aborted: aborted(), tooLarge: drops.droppedFor('too_large'), accepted: drops.acceptedFor('collect') };
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const body = JSON.stringify(pageview({ u: '/cut-short' }));
    socket.write(`POST /api/e HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`);
    await new Promise((r) => setTimeout(r, 50));
    socket.destroy();
    for (let i = 0; i < 500 && aborted() === before.aborted; i++) await new Promise((r) => setTimeout(r, 20));
    await server.flush();
    assert.equal(aborted(), before.aborted + 1);
    assert.equal(drops.droppedFor('too_large'), before.tooLarge);
    assert.equal(drops.acceptedFor('collect'), before.accepted);
  });
});

describe('trusted relay', () => {
  test('with a valid key the relay headers replace the socket address and the lookups', async () => {
    await expectOutcome(
      pageview({ u: '/relayed' }),
      browserHeaders('example.com', { 'x-svc-relay-key': relayKey, 'x-svc-client-ip': '81.2.69.160', 'x-svc-client-country': 'ca', 'x-svc-client-region': 'Quebec', 'x-svc-client-city': 'Montreal' }),
      'accepted',
    );
    const row = (await server.storedEvents(site.siteId)).findLast((r) => r.page === '/relayed')!;
    assert.deepEqual([row.country, row.region, row.city], ['CA', 'Quebec', 'Montreal']);
  });

  test('without a valid key the relay headers are ignored', async () => {
    for (const key of [undefined, 'svcrelay_wrong', '']) {
      const headers = browserHeaders('example.com', { 'x-svc-client-ip': '3.5.140.1', 'x-svc-client-country': 'CA' });
      if (key !== undefined) headers['x-svc-relay-key'] = key;
      // The AWS address would be a data-centre bot if it were believed.
      await expectOutcome(pageview({ u: '/unrelayed' }), headers, 'accepted');
      const row = (await server.storedEvents(site.siteId)).findLast((r) => r.page === '/unrelayed')!;
      assert.equal(row.country, null, 'the socket address is loopback: no country');
    }
  });

  test('X-Forwarded-For is never read', async () => {
    await expectOutcome(pageview({ u: '/xff' }), browserHeaders('example.com', { 'x-forwarded-for': '3.5.140.1' }), 'accepted');
  });

  test('distinct relayed addresses are distinct visitors', async () => {
    const ids = new Set<bigint>();
    for (const ip of ['198.51.100.1', '198.51.100.2', '2001:db8::1']) {
      await expectOutcome(pageview({ u: '/visitors' }), browserHeaders('example.com', { 'x-svc-relay-key': relayKey, 'x-svc-client-ip': ip }), 'accepted');
      ids.add((await server.storedEvents(site.siteId)).at(-1)!.visitor_id);
    }
    assert.equal(ids.size, 3);
  });
});

describe('rate limit per site and truncated IP', () => {
  let limited: TestServer;
  let limitedSite: SiteFixture;
  let key: string;
  before(async () => {
    limited = await startTestServer({ env: { SVC_COLLECT_RATE_LIMIT: '5/10s' } });
    limitedSite = await createSite(limited, { domain: 'limited.example' });
    key = await createRelayKey(limited);
  });
  after(() => limited.stop());

  test('the 6th event in 10 s from one /24 is dropped; another /24 or another site is not', async () => {
    const send = (ip: string, s = limitedSite.siteId) =>
      limited.collect({ s, u: '/' }, browserHeaders('limited.example', { 'x-svc-relay-key': key, 'x-svc-client-ip': ip }));
    for (let i = 1; i <= 5; i++) await send(`192.0.2.${i}`);
    await send('192.0.2.200');
    await limited.flush();
    assert.equal(limited.ctx.ingest.drops.acceptedFor('collect'), 5);
    assert.equal(limited.ctx.ingest.drops.droppedFor('rate_limited'), 1);
    await send('192.0.3.1');
    const other = await createSite(limited, { domain: 'other.limited.example' });
    await limited.collect({ s: other.siteId, u: '/' }, browserHeaders('other.limited.example', { 'x-svc-relay-key': key, 'x-svc-client-ip': '192.0.2.1' }));
    await limited.flush();
    assert.equal(limited.ctx.ingest.drops.acceptedFor('collect'), 7);
  });

  test('IPv6 addresses count by /64', async () => {
    const before = limited.ctx.ingest.drops.droppedFor('rate_limited');
    for (let i = 1; i <= 6; i++) {
      await limited.collect({ s: limitedSite.siteId, u: '/' }, browserHeaders('limited.example', { 'x-svc-relay-key': key, 'x-svc-client-ip': `2001:db8:1:2::${i}` }));
    }
    await limited.flush();
    assert.equal(limited.ctx.ingest.drops.droppedFor('rate_limited') - before, 1);
  });
});


describe('stored text is well formed', () => {
  test('a lone surrogate in a prop (a string cut mid-emoji) becomes U+FFFD', async () => {
    const h = browserHeaders('example.com', { 'x-svc-relay-key': relayKey, 'x-svc-client-ip': '203.0.113.77' });
    await expectOutcome('{"s":"' + site.siteId + '","u":"/s","e":"cut","p":{"v":"ok \\ud83e","w":"\\ude00 x"}}', h, 'accepted');
    const row = (await server.storedEvents(site.siteId)).findLast((r) => r.name === 'cut')!;
    assert.deepEqual(JSON.parse(row.props), { v: 'ok \ufffd', w: '\ufffd x' });
  });
});

describe('long optional values are cut, not dropped', () => {
  test('a 3000-character referrer and a 40-character language tag', async () => {
    const h = browserHeaders('example.com', { 'x-svc-relay-key': relayKey, 'x-svc-client-ip': '203.0.113.88' });
    await expectOutcome(pageview({ u: '/long', r: 'https://www.google.com/search?q=' + 'x'.repeat(3000), l: 'de-DE-u-co-phonebk-ca-gregory-nu-latn-x' }), h, 'accepted');
    const row = (await server.storedEvents(site.siteId)).findLast((r) => r.page === '/long')!;
    assert.equal(row.referrer, 'google.com');
    assert.equal(row.language.length, 35);
  });

  test('a trusted relay that sends no visitor address is not judged by its own', async () => {
    await expectOutcome(pageview({ u: '/relay-only' }), browserHeaders('example.com', { 'x-svc-relay-key': relayKey, 'x-svc-client-country': 'FR' }), 'accepted');
  });
});
