// The generated cases of the hostile-input test (./hostile-input.test.ts): seeded requests to the
// collection endpoint and to the admin API, valid events mixed in, and the invariants a stored row keeps.
import fc from 'fast-check';
import { browserHeaders, BROWSER_UA } from '../helpers/server.js';
import { seededRandom } from '../../src/core/seeded-random.js';

export const SEED = 20261122;

/** Seeded draws of the kinds the hostile inputs are built from. */
export function prng(seed: number) {
  const next = seededRandom(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const bytes = (n: number) => {
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i++) b[i] = Math.floor(next() * 256);
    return b;
  };
  return { next, int, pick, bytes, chance: (p: number) => next() < p };
}
type Rng = ReturnType<typeof prng>;

// Strings that tend to break things.
const NASTY = [
  '\u0000', '\uFEFF', '\uD800', '\uDFFF', '\uD83D\uDE00', '\u202E', '\u200B', 'é', 'Ω', '\u0085', '\u2028', '\u2029', '\uFFFF',
  '\r\n', '\t', '"', '\\', '%', '%00', '%ZZ', '%E0%A4%A', '<script>alert(1)</script>', "' OR 1=1 --", '${7*7}', '{{7*7}}',
  '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'NaN', 'Infinity', '-0', '1e400', 'null', 'undefined',
  '\u{10FFFF}', '\u0301\u0301\u0301', 'ﷺ', '𝕏', 'İ', 'ß', 'ǅ', '\u00A0',
];
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'];
const enc = (v: string) => {
  try {
    return encodeURIComponent(v);
  } catch {
    return 'lone-surrogate'; // encodeURIComponent throws on a lone surrogate
  }
};

// A pool of arbitrary JSON-ish values from fast-check (fixed seed), used as "wrong type" values.
export const ANY_VALUES: unknown[] = fc.sample(
  fc.oneof(
    fc.anything({ maxDepth: 3, withBigInt: false, withBoxedValues: false, withMap: false, withSet: false, withTypedArray: false }),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.double(),
    fc.integer(),
    fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...PROTO_KEYS, 'a', 'b'), fc.jsonValue({ maxDepth: 2 })),
  ),
  { seed: SEED, numRuns: 3000 },
);

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const roundTrip = (v: unknown): unknown => {
  const text = JSON.stringify(v);
  return text === undefined ? undefined : JSON.parse(text);
};

interface CollectCase {
  payload: string | Buffer;
  headers: Record<string, string>;
  /** Unique number of an event that must be stored (page /ok/<n>...), or null: must be dropped. */
  accept: number | null;
  kind: string;
}

export interface Fixture {
  siteId: string;
  domain: string;
  archivedSiteId: string;
  relayKey: string;
}

let nextOk = 0;

/** A valid event with a unique page /ok/<n>, sometimes carrying odd but acceptable extras. */
function validEvent(rng: Rng, fx: Fixture): { event: Record<string, unknown>; id: number } {
  const id = ++nextOk;
  const suffixes = ['', '/', '/a/b', `/${enc(rng.pick(NASTY))}`, '/é/ü', '/%F0%9F%98%80', '/x%00y', '/a;b=c'];
  const queries = ['', '?utm_source=news&utm_medium=mail&utm_campaign=x', '?ref=hn', '?source=%00', '?utm_source=' + 'x'.repeat(400), '?__proto__[a]=1&constructor=2'];
  const event: Record<string, unknown> = { s: fx.siteId, u: `/ok/${id}${rng.pick(suffixes)}${rng.pick(queries)}` };
  if (rng.chance(0.15)) event.u = `https://${rng.pick(['', 'www.', 'blog.'])}${fx.domain}${event.u}`;
  if (rng.chance(0.4)) event.r = rng.pick(['https://news.ycombinator.com/item?id=1', 'not a url', '', 'javascript:alert(1)', 'https://' + fx.domain + '/x', rng.pick(NASTY)]);
  if (rng.chance(0.4)) event.w = rng.pick([0, 320, 575, 576, 991, 992, 1920, 100_000]);
  if (rng.chance(0.4)) event.l = rng.pick(['en-US', 'fr', '', 'x'.repeat(35), rng.pick(NASTY)]);
  if (rng.chance(0.3)) event.e = rng.pick(['signup', 'a', 'x'.repeat(64), 'buy-now_2', '0']);
  if (rng.chance(0.35)) {
    const p: Record<string, unknown> = {};
    const n = rng.int(0, 3); // at most 3 long strings: the cleaned props stay under 2048 bytes
    for (let i = 0; i < n; i++) {
      const key = rng.pick(['plan', 'k' + i, 'x'.repeat(64), 'x'.repeat(65), '', ...PROTO_KEYS, rng.pick(NASTY)]);
      p[key] = rng.pick<unknown>([
        'pro', 42, -1.5, true, false, null, [1, 2], { nested: 1 }, 'y'.repeat(600), 'y'.repeat(499) + '😀', rng.pick(NASTY), 1e308,
      ]);
    }
    event.p = p;
  }
  // Built-in events with their required props.
  if (rng.chance(0.05)) {
    event.e = 'engage';
    event.p = { t: rng.int(0, 86_400_000), d: rng.int(0, 100) };
  } else if (rng.chance(0.05)) {
    event.e = rng.pick(['outbound', 'download']);
    event.p = { url: 'https://elsewhere.example/file.pdf' };
  }
  return { event, id };
}

/** JSON text with an injected raw fragment right after the opening brace (for NaN, duplicate keys…). */
const withRaw = (event: Record<string, unknown>, fragment: string) => '{' + fragment + ',' + JSON.stringify(event).slice(1);

export function collectCase(rng: Rng, fx: Fixture, i: number): CollectCase {
  const ok = browserHeaders(fx.domain, { 'content-type': 'text/plain' });
  const drop = (kind: string, payload: string | Buffer, headers = ok): CollectCase => ({ kind, payload, headers, accept: null });
  const good = (kind: string, payload: (e: Record<string, unknown>) => string | Buffer, headers = ok): CollectCase => {
    const { event, id } = validEvent(rng, fx);
    return { kind, payload: payload(event), headers, accept: id };
  };
  const pad = (text: string, size: number) => text + ' '.repeat(Math.max(0, size - Buffer.byteLength(text)));

  switch (i % 24) {
    case 0:
      return drop('random bytes', rng.bytes(rng.int(0, 5000)));
    case 1: {
      const text = JSON.stringify(validEvent(rng, fx).event);
      return drop('truncated JSON', text.slice(0, rng.int(0, text.length - 1)));
    }
    case 2: {
      const n = rng.pick([10, 100, 1000, 2047, 10_000]);
      return drop('deep JSON', '['.repeat(n) + ']'.repeat(n));
    }
    case 3:
      return good('deep props (ignored)', (e) => JSON.stringify({ ...e, e: undefined, p: { deep: JSON.parse('['.repeat(900) + ']'.repeat(900)), ok: 1 } }));
    case 4: {
      // Wrong type for one field (value from the fast-check pool, checked after the JSON round trip).
      const { event } = validEvent(rng, fx);
      const field = rng.pick(['s', 'u', 'r', 'w', 'l', 'e', 'p']);
      for (;;) {
        const v = roundTrip(rng.pick(ANY_VALUES));
        const wrong =
          field === 's' || field === 'u'
            ? typeof v !== 'string'
            : field === 'r' || field === 'l'
              ? v !== undefined && v !== null && typeof v !== 'string'
              : field === 'w'
                ? v !== undefined && v !== null && typeof v !== 'number'
                : field === 'e'
                  ? v !== undefined && typeof v !== 'string'
                  : v !== undefined && v !== null && !isPlainObject(v);
        if (!wrong) continue;
        if (v === undefined) delete event[field];
        else event[field] = v;
        return drop(`wrong type for ${field}`, JSON.stringify(event));
      }
    }
    case 5: {
      const { event } = validEvent(rng, fx);
      const mutation = rng.int(0, 9);
      // Long u, r and l are cut, not dropped (no drop reason is about length): only a body past the
      // 4096-byte limit drops them.
      if (mutation === 0) event.u = '/' + 'u'.repeat(rng.int(4100, 6000));
      else if (mutation === 1) event.s = 's'.repeat(rng.int(65, 3000));
      else if (mutation === 2) event.r = 'r'.repeat(rng.int(4100, 5000));
      else if (mutation === 3) event.l = 'l'.repeat(rng.int(4100, 5000));
      else if (mutation === 4) event.u = rng.pick(['', 'relative', '//evil.example/x', '/\\evil.example', 'ftp://x/y', 'javascript:alert(1)', 'https://evil.example/x', `https://evil-${fx.domain}/x`, `https://${fx.domain}.evil.example/`]);
      else if (mutation === 5) event.w = rng.pick([-1, 1.5, 100_001, 1e21]);
      else if (mutation === 6) event.e = rng.pick(['pageview', 'Bad', 'has space', 'x'.repeat(65), '', 'é', 'a.b', rng.pick(NASTY)]);
      else if (mutation === 7) event.p = Object.fromEntries(Array.from({ length: 6 }, (_, k) => ['k' + k, 'v'.repeat(500)]));
      else if (mutation === 8) {
        event.e = rng.pick(['engage', 'outbound', 'download']);
        event.p = rng.pick([undefined, {}, { t: -1, d: 10 }, { t: 1, d: 101 }, { url: '' }, { url: 5 }, { t: '1', d: '2' }]);
        if (event.e !== 'engage' && isPlainObject(event.p) && 't' in event.p) event.p = { url: '' };
      } else event.s = rng.pick([fx.archivedSiteId, 'unknown-site', rng.pick(NASTY), '__proto__', 'constructor']);
      return drop(`bad value ${mutation}`, JSON.stringify(event));
    }
    case 6:
      return good('prototype keys at top level', (e) => withRaw(e, `"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"prototype":{"polluted":1}`));
    case 7:
      return good('prototype keys in props', (e) =>
        JSON.stringify({ ...e, e: undefined }).replace(/}$/, `,"p":{"__proto__":{"polluted":"yes"},"constructor":"x","prototype":1,"toString":"t","safe":"1"}}`),
      );
    case 8: {
      const { event } = validEvent(rng, fx);
      return drop('NaN/Infinity text', withRaw(event, `"w":${rng.pick(['NaN', 'Infinity', '-Infinity', 'undefined', '0x10', '+1', '.5'])}`).replace(/,"w":[^,}]*/g, (m, off) => (off === 1 ? m : '')));
    }
    case 9:
      return good('number edge cases in props', (e) => JSON.stringify({ ...e, e: undefined }).replace(/}$/, `,"p":{"a":1e400,"b":-1e400,"c":1e-400,"d":-0,"z":1}}`));
    case 10: {
      // Unicode: a BOM before the JSON is not JSON; unicode inside strings is fine.
      if (rng.chance(0.3)) return drop('BOM', '\uFEFF' + JSON.stringify(validEvent(rng, fx).event));
      return good('unicode body', (e) => JSON.stringify({ ...e, l: rng.pick(NASTY), r: rng.pick(NASTY) + 'https://x' }));
    }
    case 11: {
      const types = ['', 'application/json', 'text/plain;charset=utf-8', ';;;=== garbage', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', '*/*', 'a/b/c', 'text/plain; charset=utf-16', 'application/json; charset=' + 'x'.repeat(500), 'é/ü', '\t'];
      const ct = rng.pick(types);
      const headers = { ...browserHeaders(fx.domain) } as Record<string, string>;
      if (ct !== '') headers['content-type'] = ct;
      return good(`content type ${JSON.stringify(ct)}`, (e) => JSON.stringify(e), headers);
    }
    case 12: {
      const origins = ['', 'null', 'garbage', 'https://', 'https://evil.example', `https://evil-${fx.domain}`, `https://${fx.domain}.evil.example`, `ftp://${fx.domain}`, `javascript://${fx.domain}`, `https://${fx.domain}@evil.example`, 'x'.repeat(5000), rng.pick(NASTY), `https://${fx.domain.replace('.', '')}`];
      const origin = rng.pick(origins);
      const headers = { 'user-agent': BROWSER_UA, 'content-type': 'text/plain' } as Record<string, string>;
      if (origin !== '') headers.origin = origin;
      return drop('origin garbage', JSON.stringify(validEvent(rng, fx).event), headers);
    }
    case 13: {
      const origin = rng.pick([`https://www.${fx.domain}`, `http://${fx.domain}:8080`, `HTTPS://${fx.domain.toUpperCase()}`, `https://a.b.${fx.domain}`, `https://${fx.domain}.`]);
      return good('origin variants of the site', (e) => JSON.stringify(e), { ...ok, origin });
    }
    case 14: {
      const ua = rng.pick(['', ' ', 'curl/8.0', 'Googlebot/2.1', 'python-requests/2.31', 'Mozilla/5.0 (compatible; bingbot/2.0)', 'HeadlessChrome']);
      return drop('bot UA', JSON.stringify(validEvent(rng, fx).event), { ...ok, 'user-agent': ua });
    }
    case 15:
      return good('enormous UA', (e) => JSON.stringify(e), { ...ok, 'user-agent': BROWSER_UA + ' ' + 'a'.repeat(rng.pick([1000, 10_000, 100_000])) });
    case 16: {
      // Relay headers without (or with a wrong) key are ignored: the event is accepted as is.
      const headers: Record<string, string> = { ...ok, 'x-svc-client-ip': rng.pick(['3.5.140.2', 'garbage', '::1', '']), 'x-svc-client-country': 'ZZ', 'x-svc-client-asn': '16509' };
      if (rng.chance(0.5)) headers['x-svc-relay-key'] = rng.pick(['', 'wrong', 'x'.repeat(200), rng.pick(NASTY).replace(/[\r\n]/g, '')]);
      return good('relay headers without key', (e) => JSON.stringify(e), headers);
    }
    case 17: {
      // A valid key with garbage values: garbage is ignored, the event is kept.
      const headers: Record<string, string> = {
        ...ok,
        'x-svc-relay-key': fx.relayKey,
        'x-svc-client-ip': rng.pick(['garbage', '999.1.1.1', '', '::ffff:', '1.2.3']),
        'x-svc-client-country': rng.pick(['ZZZ', '1', '', 'é', 'x'.repeat(300)]),
        'x-svc-client-region': 'r'.repeat(rng.int(0, 300)),
        'x-svc-client-city': rng.pick(NASTY).replace(/[\r\n]/g, ''),
        'x-svc-client-asn': rng.pick(['AS', '-1', '1e5', 'AS99999999999', 'ASNaN', '']),
      };
      return good('relay garbage with a valid key', (e) => JSON.stringify(e), headers);
    }
    case 18: {
      const size = rng.pick([4096, 4097, 65_536, 70_000]);
      if (size === 4096) return good('body of 4096 bytes', (e) => pad(JSON.stringify(e), 4096));
      return drop(`body of ${size} bytes`, pad(JSON.stringify(validEvent(rng, fx).event), size));
    }
    case 19:
      return drop('GPC', JSON.stringify(validEvent(rng, fx).event), { ...ok, 'sec-gpc': rng.pick(['1', ' 1 ', '1\t']) });
    case 20:
      return good('GPC other values', (e) => JSON.stringify(e), { ...ok, 'sec-gpc': rng.pick(['0', '', 'yes', '11', 'true']) });
    case 21: {
      const { event } = validEvent(rng, fx);
      return drop('not an object', rng.pick([JSON.stringify([event]), '"' + fx.siteId + '"', 'null', 'true', '42', '{}', '[]', '']));
    }
    case 22:
      return good('duplicate keys (last wins)', (e) => withRaw({ ...e, w: 1024 }, `"s":"unknown","u":"garbage","w":-5`));
    default:
      return good('plain valid', (e) => JSON.stringify(e));
  }
}

/**
 * Header values a raw socket may carry: one byte per character (latin1) and no control character
 * but tab. Node's HTTP parser refuses other control bytes with its own 400 before any route runs
 * (not an answer of the collection endpoint: the request is not HTTP).
 */
export const headerSafe = (v: string) => Buffer.from(v, 'latin1').toString('latin1').replace(/[\x00-\x08\x0a-\x1f\x7f]/g, ' ');

export async function pool<T>(items: readonly T[], concurrency: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i]!, i);
      }
    }),
  );
}

// ---- Admin API ----

interface AdminCase {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  url: string;
  payload?: string | Buffer;
  headers: Record<string, string>;
  kind: string;
}

export function adminCase(rng: Rng, token: string, ids: { orgId: number; siteId: string; archivedSiteId: string; goalId: number; funnelId: number; keyId: number }, i: number): AdminCase {
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const badId = () => rng.pick(['0', '-1', 'abc', '1.5', '1e3', '99999999', '9999999999999999', '%00', '%ZZ', '__proto__', 'constructor', enc(rng.pick(NASTY)), 'x'.repeat(300)]);
  const badSite = () => rng.pick(['nope', '__proto__', 'constructor', '%00', '%ZZ', enc(rng.pick(NASTY)), 'x'.repeat(300)]);
  const wrong = (exclude: (v: unknown) => boolean) => {
    for (;;) {
      const v = roundTrip(rng.pick(ANY_VALUES));
      if (v !== undefined && !exclude(v)) return v;
    }
  };
  const json = (v: unknown) => JSON.stringify(v);
  const hostileBody = (): string | Buffer =>
    rng.pick<() => string | Buffer>([
      () => rng.bytes(rng.int(1, 300)),
      () => '['.repeat(10_000) + ']'.repeat(10_000),
      () => '{"a":'.repeat(5000) + '1' + '}'.repeat(5000),
      () => '{"__proto__":{"polluted":"yes"}}',
      () => '{"constructor":{"prototype":{"polluted":"yes"}}}',
      () => {
        // Never null or {}: those read as an empty body, which some routes accept (keys, maintenance).
        for (;;) {
          const v = roundTrip(rng.pick(ANY_VALUES));
          if (v !== undefined && v !== null && !(isPlainObject(v) && Object.keys(v).length === 0)) return json(v);
        }
      },
      () => '{"name": NaN}',
      () => '{"name": "x",}',
      () => '"string"',
      () => '[]',
      () => '{"name":"' + 'x'.repeat(1_100_000) + '"}',
    ])();
  const domainOf = () => `h${i}-${rng.int(0, 1e9)}.example`;
  const withExtra = (body: Record<string, unknown>) => ({ ...body, [rng.pick(['extra', 'id', 'status', 'domain', 'orgId', 'toString', 'hasOwnProperty', 'valueOf'])]: 1 });

  const c = (method: AdminCase['method'], url: string, kind: string, payload?: string | Buffer, headers: Record<string, string> = auth): AdminCase => ({ method, url, payload, headers, kind });

  switch (i % 16) {
    case 0: {
      // Without or with a wrong token, on any route (the scheme's letter case alone is no fault).
      const routes: Array<[AdminCase['method'], string]> = [
        ['POST', '/orgs'], ['GET', '/orgs'], ['POST', `/orgs/${ids.orgId}/sites`], ['GET', `/orgs/${ids.orgId}/sites`], ['PATCH', `/sites/${ids.siteId}`],
        ['POST', `/orgs/${ids.orgId}/keys`], ['GET', `/orgs/${ids.orgId}/keys`], ['POST', `/keys/${ids.keyId}/revoke`], ['POST', '/relay-keys'],
        ['POST', `/sites/${ids.siteId}/goals`], ['DELETE', `/sites/${ids.siteId}/goals/${ids.goalId}`], ['POST', `/sites/${ids.siteId}/funnels`],
        ['PUT', `/sites/${ids.siteId}/funnels/${ids.funnelId}/steps`], ['POST', `/sites/${ids.siteId}/events/import`], ['POST', '/maintenance/run'],
      ];
      const [method, url] = rng.pick(routes);
      const authHeader = rng.pick([undefined, '', 'Bearer', 'Bearer ', `Bearer ${token}x`, `Bearer ${token.slice(0, -1)}`, `bearer ${token}x`, `Basic ${token}`, `Bearer  ${token} x`, token, 'Bearer ' + 'x'.repeat(5000)]);
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (authHeader !== undefined) headers.authorization = authHeader;
      return c(method, url, 'unauthorized', method === 'GET' || method === 'DELETE' ? undefined : '{"name":"x"}', headers);
    }
    case 1:
      return c('POST', '/orgs', 'orgs hostile body', hostileBody());
    case 2: {
      const body = rng.pick<unknown>([{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(201) }, { name: wrong((v) => typeof v === 'string') }, withExtra({ name: 'ok' })]);
      return c('POST', '/orgs', 'orgs bad field', json(body));
    }
    case 3: {
      const base: Record<string, unknown> = { domain: domainOf(), name: 'Site', timezone: 'UTC' };
      const m = rng.int(0, 7);
      if (m === 0) base.domain = rng.pick(['https://a.example', 'a.example:8080', 'a.example/path', 'a example', '', '-a.example', 'a..example', 'a_b.example', `${'a'.repeat(64)}.example`, `${'a.'.repeat(127)}example`, 'é.example', rng.pick(NASTY), '*.example', 'a.example?x', 'user@a.example', 'a.example.:80']);
      else if (m === 1) base.timezone = rng.pick(['Mars/Olympus', '', 'Etc/GMT+99', 'Europe/Nowhere', '../../etc/passwd', 'x'.repeat(65), 'UTC\u0000', 'Europe/Paris/x', '   ']);
      else if (m === 2) base.retentionMonths = rng.pick<unknown>([0, -1, 1201, 1.5, '3', true, [], {}, 1e400 === Infinity ? 1e300 : 0]);
      else if (m === 3) base.honorGpc = rng.pick<unknown>(['true', 1, 0, null, [], {}]);
      else if (m === 4) delete base[rng.pick(['domain', 'name', 'timezone'])];
      else if (m === 5) base[rng.pick(['domain', 'name', 'timezone'])] = wrong((v) => typeof v === 'string');
      else if (m === 6) return c('POST', `/orgs/${badId()}/sites`, 'sites bad org', json({ domain: domainOf(), name: 'S', timezone: 'UTC' }));
      else return c('POST', `/orgs/${ids.orgId}/sites`, 'sites extra field', json(withExtra(base)));
      return c('POST', `/orgs/${ids.orgId}/sites`, `sites bad field ${m}`, json(base));
    }
    case 4:
      return c('POST', `/orgs/${ids.orgId}/sites`, 'sites hostile body', hostileBody());
    case 5: {
      const m = rng.int(0, 7);
      const body: Record<string, unknown> =
        m === 0 ? { name: rng.pick<unknown>(['', '  ', 'x'.repeat(201), 5, null, []]) }
        : m === 1 ? { timezone: rng.pick<unknown>(['Mars/Olympus', '', 5, null, 'Etc/GMT+99']) }
        : m === 2 ? { retentionMonths: rng.pick<unknown>([0, 1201, 2.5, '12', false]) }
        : m === 3 ? { honorGpc: rng.pick<unknown>(['false', 0, null]) }
        : m === 4 ? { status: rng.pick<unknown>(['deleted', 'ARCHIVED', '', null, 1, true]) }
        : m === 5 ? { [rng.pick(['domain', 'id', 'orgId', 'toString'])]: 'x.example' }
        : m === 6 ? { name: 'ok', timezone: 'UTC', status: 'nope' }
        : { retentionMonths: wrong((v) => v === null || (typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 1200)) };
      const target = rng.chance(0.85) ? ids.siteId : badSite();
      return c('PATCH', `/sites/${target}`, `patch ${m}`, rng.chance(0.1) ? hostileBody() : json(body));
    }
    case 6: {
      const m = rng.int(0, 6);
      const body: Record<string, unknown> =
        m === 0 ? { name: 'g', kind: rng.pick<unknown>(['url', '', null, 1, 'PAGE']), pattern: '/x' }
        : m === 1 ? { name: 'g', kind: 'page', pattern: rng.pick(['x', '', '*', 'https://a.example/x', '**/x', rng.pick(NASTY)]) }
        : m === 2 ? { name: 'g', kind: 'event', pattern: rng.pick(['Bad', 'has space', 'x'.repeat(65), '/x', '', 'é']) }
        : m === 3 ? { kind: 'page', pattern: '/x' }
        : m === 4 ? { name: 'g', kind: 'page', pattern: '/' + 'x'.repeat(512) }
        : m === 5 ? withExtra({ name: 'g', kind: 'page', pattern: '/x' })
        : { name: wrong((v) => typeof v === 'string'), kind: 'page', pattern: '/x' };
      const target = rng.chance(0.9) ? ids.siteId : badSite();
      return c('POST', `/sites/${target}/goals`, `goal ${m}`, rng.chance(0.1) ? hostileBody() : json(body));
    }
    case 7:
      return c('DELETE', `/sites/${rng.chance(0.7) ? ids.siteId : badSite()}/goals/${badId()}`, 'delete goal bad id');
    case 8: {
      const step = { kind: 'page', pattern: '/a' };
      const m = rng.int(0, 7);
      const body: Record<string, unknown> =
        m === 0 ? { name: 'f', windowMinutes: 60, steps: rng.pick<unknown>([[], [step], Array(9).fill(step), 'steps', null, {}]) }
        : m === 1 ? { name: 'f', windowMinutes: rng.pick<unknown>([0, -5, 43_201, 1.5, '60', null]), steps: [step, step] }
        : m === 2 ? { name: 'f', windowMinutes: 60, steps: [step, rng.pick<unknown>([null, 'x', [], { kind: 'page' }, { kind: 'page', pattern: 'x' }, { kind: 'event', pattern: 'Bad' }, { kind: 'page', pattern: '/x', extra: 1 }, { kind: 'url', pattern: '/x' }])] }
        : m === 3 ? { windowMinutes: 60, steps: [step, step] }
        : m === 4 ? withExtra({ name: 'f', windowMinutes: 60, steps: [step, step] })
        : m === 5 ? { name: 'f', windowMinutes: 60, steps: [step, { __proto__: null, kind: 'page', pattern: '/b', constructor: 1 }] }
        : m === 6 ? { name: 'f', windowMinutes: 60, steps: [step, { kind: 'page', pattern: '/' + 'p'.repeat(512) }] }
        : { name: '', windowMinutes: 60, steps: [step, step] };
      return c('POST', `/sites/${rng.chance(0.9) ? ids.siteId : badSite()}/funnels`, `funnel ${m}`, rng.chance(0.1) ? hostileBody() : json(body));
    }
    case 9: {
      const step = { kind: 'event', pattern: 'signup' };
      const m = rng.int(0, 3);
      if (m === 0) return c('PUT', `/sites/${ids.siteId}/funnels/${badId()}/steps`, 'put steps bad funnel', json({ steps: [step, step] }));
      if (m === 1) return c('PUT', `/sites/${ids.siteId}/funnels/${ids.funnelId}/steps`, 'put steps bad count', json({ steps: rng.pick<unknown>([[step], Array(9).fill(step), null, 'x']) }));
      if (m === 2) return c('PUT', `/sites/${ids.siteId}/funnels/${ids.funnelId}/steps`, 'put steps extra', json({ steps: [step, step], name: 'renamed' }));
      return c('PUT', `/sites/${ids.siteId}/funnels/${ids.funnelId}/steps`, 'put steps hostile', hostileBody());
    }
    case 10:
      return c('POST', `/keys/${badId()}/revoke`, 'revoke bad id');
    case 11: {
      const body = rng.pick<unknown>([{ tasks: 'salts' }, { tasks: [1] }, { tasks: ['nope'] }, { tasks: ['__proto__'] }, { tasks: ['constructor'] }, { tasks: ['toString'] }, { tasks: null }, { tasks: {} }, { tasks: ['salts', 'nope'] }, { extra: 1 }, { tasks: [['salts']] }]);
      return c('POST', '/maintenance/run', 'maintenance bad tasks', rng.chance(0.15) ? hostileBody() : json(body));
    }
    case 12:
      return c('POST', `/orgs/${badId()}/keys`, 'keys bad org', json({ name: 'k' }));
    case 13: {
      const body = rng.pick<unknown>([{ name: 5 }, { name: '' }, { name: 'x'.repeat(201) }, { key: 'svc_x' }, { name: 'k', extra: 1 }]);
      return c('POST', rng.chance(0.5) ? `/orgs/${ids.orgId}/keys` : '/relay-keys', 'keys bad body', rng.chance(0.2) ? hostileBody() : json(body));
    }
    case 14: {
      // Content types the admin API does not take, and a body declared as JSON that is not.
      const ct = rng.pick(['text/plain', 'application/x-www-form-urlencoded', ';;;=== garbage', 'multipart/form-data; boundary=x', 'application/xml', 'é/ü']);
      return c('POST', rng.pick(['/orgs', `/orgs/${ids.orgId}/sites`, `/sites/${ids.siteId}/goals`, '/maintenance/run']), `content type ${ct}`, '{"name":"x"}', { authorization: `Bearer ${token}`, 'content-type': ct });
    }
    default:
      return c(rng.pick(['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const), `/${rng.pick(['nope', 'orgs/1/nope', 'sites', '__proto__', 'constructor/prototype', '%ZZ', 'orgs/%00'])}`, 'unknown route', '{}');
  }
}

// ---- Invariants over stored rows ----

const NAME = /^[a-z0-9_-]{1,64}$/;

export function checkRow(row: Record<string, any>, siteIds: Set<string>): string | null {
  if (!siteIds.has(row.site_id)) return `unknown site ${row.site_id}`;
  if (row.name !== 'pageview' && !NAME.test(row.name)) return `bad name ${JSON.stringify(row.name)}`;
  if (typeof row.page !== 'string' || !row.page.startsWith('/')) return `bad page ${JSON.stringify(row.page)}`;
  if (row.props !== null) {
    if (Buffer.byteLength(row.props) > 2048) return `props over 2048 bytes`;
    let props: unknown;
    try {
      props = JSON.parse(row.props);
    } catch {
      return 'props not JSON';
    }
    if (!isPlainObject(props)) return 'props not an object';
    for (const [k, v] of Object.entries(props)) {
      if (k.length < 1 || k.length > 64) return `prop key length ${k.length}`;
      if (PROTO_KEYS.includes(k)) return `prop key ${k}`;
      if (typeof v === 'string' ? v.length > 500 : typeof v === 'number' ? !Number.isFinite(v) : typeof v !== 'boolean') return `prop ${k} = ${JSON.stringify(v)}`;
      // Truncation to 500 characters must not cut a surrogate pair in half ('y'.repeat(499) + '😀' is sent).
      if (typeof v === 'string' && v.length >= 499 && /[\uD800-\uDBFF]$/.test(v)) return `prop ${k} truncated inside a surrogate pair`;
    }
    if (Object.getPrototypeOf(props) !== Object.prototype) return 'props prototype changed';
  }
  return null;
}
