// The traffic of bench/ingest, shared by its runs and by bench/rate-load.ts: live tracker events
// through the trusted relay, and import files of the same visitors.
import autocannon from 'autocannon';

const UAS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
];
const PAGES = Array.from({ length: 200 }, (_, i) => `/blog/post-${i}`);

/**
 * The bench's traffic: each visitor (its own address) makes a session of four events, three
 * pageviews and an engage, on pages of a skewed popularity. Event `n` is step `n & 3` of visitor
 * `n >> 2`; how visitors interleave is the caller's (connections live, times in an import).
 */
export function visitEvent(n: number) {
  const visitor = n >> 2;
  const step = n & 3;
  // The /24 changes fastest, so no network exceeds the per-network rate limit.
  const ip = `81.${visitor & 255}.${(visitor >> 8) & 255}.${((visitor >> 16) & 255) + 1}`;
  const page = PAGES[Math.floor(Math.pow(((visitor * 7 + step) % 997) / 997, 3) * PAGES.length)]!;
  const event =
    step === 2
      ? { u: page, e: 'engage', p: { t: 12_000, d: 60 } }
      : { u: `${page}?utm_source=bench`, r: 'https://www.google.com/', w: 1440, l: 'en-US' };
  return { ip, ua: UAS[visitor % UAS.length]!, event };
}

/** Live: the traffic through the trusted relay, one event a request. */
export function eventRequests(siteId: string, relayKey: string, domain: string) {
  let n = 0;
  return [
    {
      method: 'POST' as const,
      path: '/api/e',
      setupRequest(req: any) {
        const { ip, ua, event } = visitEvent(n++);
        req.headers = {
          'content-type': 'text/plain',
          origin: `https://${domain}`,
          'user-agent': ua,
          'x-svc-relay-key': relayKey,
          'x-svc-client-ip': ip,
        };
        req.body = JSON.stringify({ s: siteId, ...event });
        return req;
      },
    },
  ];
}

const IMPORT_LINES = 200_000;
const IMPORT_DAY = Date.UTC(2026, 0, 15);

/**
 * Import: a day of the same traffic (200 000 events, one every 0.43 s), 64 visitors at a time as on
 * 64 connections, so a visitor's events are 64 lines (about 28 s) apart.
 */
export function importFile(): string {
  const lines: string[] = [];
  for (let i = 0; i < IMPORT_LINES; i++) {
    const slot = i & 63;
    const round = i >> 6;
    const { ip, ua, event } = visitEvent((((round >> 2) << 6) | slot) * 4 + (round & 3));
    lines.push(JSON.stringify({ ts: IMPORT_DAY + Math.floor((i * 86_400_000) / IMPORT_LINES), ua, ip, ...event }));
  }
  return lines.join('\n');
}

/** Import, worst case: every line a new visitor (a new session), all within 80 seconds. */
export function singleEventVisitorsFile(): string {
  const lines: string[] = [];
  for (let i = 0; i < IMPORT_LINES; i++) {
    lines.push(JSON.stringify({ ts: IMPORT_DAY + Math.floor(i * 0.4), ua: UAS[i % UAS.length], ip: `82.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, u: PAGES[i % PAGES.length], r: 'https://duckduckgo.com/' }));
  }
  return lines.join('\n');
}

/** A fixed-rate or open-throttle run of autocannon. */
export async function load(url: string, requests: any[], options: { connections: number; overallRate?: number; seconds: number }) {
  const result = await autocannon({ url, requests, connections: options.connections, overallRate: options.overallRate, duration: options.seconds });
  // `answered` counts the 202s received; requests cut off when a run stops are not counted.
  return { rps: result.requests.average, p99: result.latency.p99, p50: result.latency.p50, max: result.latency.max, answered: result['2xx'], non2xx: result.non2xx, errors: result.errors };
}

