// Generated traffic for `svc demo`: days of visits to a small product site, deterministic from a
// seed, written as import lines (docs/admin-api.md, "Import lines") in time order.
//
// Every visitor of a day has an address of its own that day (10.<day>.<n>), so the service's
// visitors of a day are the visitors generated for it; a visitor's second visit of the day starts
// more than 30 minutes after its first ends and before the day's end, so sessions are the visits
// generated. The totals below are therefore exactly what the read API reports for the days.
import { addDays, localDay, startOfLocalDay } from '../core/localtime.js';
import { seededRandom } from '../core/seeded-random.js';

export interface ImportLine {
  ts: number;
  ua: string;
  ip: string;
  u: string;
  r?: string;
  w?: number;
  l?: string;
  e?: string;
  p?: Record<string, string | number>;
  country?: string;
  region?: string;
  city?: string;
}

export interface DemoTrafficOptions {
  seed: number;
  days: number;
  /** Visitors on an average weekday (weekends have fewer). */
  visitorsPerDay: number;
  timeZone: string;
  /** The generation instant: the last day is the site-local today, its visits before `now`. */
  now: number;
}

export interface DemoTotals {
  /** The first and last site-local day with traffic. */
  from: string;
  to: string;
  visitors: number;
  sessions: number;
  /** Sessions that bounce by svc's rule: one pageview, no custom event, under 10 s of engaged time. */
  bounces: number;
  pageviews: number;
  /** Custom and built-in events other than pageviews, by name. */
  events: Record<string, number>;
}

/** The goals and funnel the demo site is given; the traffic reaches them. */
export const DEMO_GOALS = [
  { name: 'Signup', kind: 'event', pattern: 'signup' },
  { name: 'Newsletter', kind: 'event', pattern: 'newsletter' },
  { name: 'Contact page', kind: 'page', pattern: '/contact' },
] as const;

export const DEMO_FUNNEL = {
  name: 'Pricing to signup',
  windowMinutes: 60,
  steps: [
    { kind: 'page', pattern: '/pricing' },
    { kind: 'event', pattern: 'signup' },
  ],
} as const;

/** One of `choices`, drawn with their weights. */
function weighted<T>(rand: () => number, choices: ReadonlyArray<readonly [T, number]>): T {
  const total = choices.reduce((sum, [, w]) => sum + w, 0);
  let x = rand() * total;
  for (const [value, w] of choices) {
    if ((x -= w) < 0) return value;
  }
  return choices[choices.length - 1]![0];
}

const UAS = {
  chromeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  edgeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51',
  safariMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  safariIphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  chromeAndroid: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36',
  safariIpad: 'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
};

/** [user agent, screen width], weighted. */
const DEVICES: ReadonlyArray<readonly [readonly [string, number], number]> = [
  [[UAS.chromeWindows, 1920], 30],
  [[UAS.safariMac, 1440], 16],
  [[UAS.edgeWindows, 1536], 7],
  [[UAS.firefoxLinux, 1920], 5],
  [[UAS.safariIphone, 390], 22],
  [[UAS.chromeAndroid, 412], 15],
  [[UAS.safariIpad, 820], 5],
];

/** [country, region, city, language], weighted. */
const PLACES: ReadonlyArray<readonly [readonly [string, string, string, string], number]> = [
  [['US', 'California', 'San Francisco', 'en-US'], 14],
  [['US', 'New York', 'New York', 'en-US'], 12],
  [['US', 'Texas', 'Austin', 'en-US'], 5],
  [['GB', 'England', 'London', 'en-GB'], 10],
  [['DE', 'Berlin', 'Berlin', 'de-DE'], 9],
  [['DE', 'Bavaria', 'Munich', 'de-DE'], 4],
  [['FR', 'Île-de-France', 'Paris', 'fr-FR'], 8],
  [['NL', 'North Holland', 'Amsterdam', 'nl-NL'], 4],
  [['CA', 'Ontario', 'Toronto', 'en-CA'], 5],
  [['IN', 'Karnataka', 'Bengaluru', 'en-IN'], 7],
  [['BR', 'São Paulo', 'São Paulo', 'pt-BR'], 4],
  [['JP', 'Tokyo', 'Tokyo', 'ja-JP'], 4],
  [['AU', 'New South Wales', 'Sydney', 'en-AU'], 3],
  [['ES', 'Madrid', 'Madrid', 'es-ES'], 3],
];

interface Source {
  /** The share of its visits that read the landing page briefly and leave. */
  bounce: number;
  referrer?: string;
  /** Query string the landing page carries. */
  utm?: string;
  /** Where the visit lands. */
  landing: ReadonlyArray<readonly [string, number]>;
}

const BLOG = ['/blog/privacy-first-analytics', '/blog/cookieless-tracking', '/blog/core-web-vitals', '/blog/launch-week', '/blog/self-hosting-guide'];
const DOCS = ['/docs', '/docs/getting-started', '/docs/tracker', '/docs/api', '/docs/goals', '/docs/funnels'];

const HOME = [['/', 1]] as const;
// Bounce shares as real sites see them: direct and paid visits stay longer, social and forum ones
// leave after one page more often (about 52 % over all sources).
const SOURCES: ReadonlyArray<readonly [Source, number]> = [
  [{ bounce: 0.45, landing: [['/', 6], ['/pricing', 2], ['/docs', 1]] }, 30],
  [{ bounce: 0.52, referrer: 'https://www.google.com/', landing: [['/', 3], [BLOG[0]!, 2], [BLOG[1]!, 2], [DOCS[1]!, 1], ['/features', 1]] }, 26],
  [{ bounce: 0.5, referrer: 'https://duckduckgo.com/', landing: [['/', 2], [BLOG[1]!, 1]] }, 5],
  [{ bounce: 0.55, referrer: 'https://www.bing.com/', landing: HOME }, 3],
  [{ bounce: 0.68, referrer: 'https://news.ycombinator.com/item?id=40123456', landing: [[BLOG[3]!, 4], ['/', 1]] }, 8],
  [{ bounce: 0.4, referrer: 'https://github.com/svc/svc', landing: [[DOCS[1]!, 2], ['/', 1]] }, 6],
  [{ bounce: 0.7, referrer: 'https://t.co/x1y2z3', landing: [[BLOG[3]!, 1], ['/', 1]] }, 4],
  [{ bounce: 0.62, referrer: 'https://www.reddit.com/r/selfhosted/', landing: [[BLOG[4]!, 2], ['/', 1]] }, 4],
  [{ bounce: 0.6, referrer: 'https://www.linkedin.com/', landing: [[BLOG[0]!, 1]] }, 2],
  [{ bounce: 0.42, utm: 'utm_source=newsletter&utm_medium=email&utm_campaign=monthly-digest', landing: [[BLOG[2]!, 2], ['/features', 1]] }, 5],
  [{ bounce: 0.48, referrer: 'https://www.google.com/', utm: 'utm_source=google&utm_medium=cpc&utm_campaign=brand', landing: [['/pricing', 2], ['/', 1]] }, 5],
  [{ bounce: 0.66, referrer: 'https://t.co/launch', utm: 'utm_source=twitter&utm_medium=social&utm_campaign=launch-week', landing: [[BLOG[3]!, 1], ['/', 1]] }, 2],
];

/** Where a visitor goes from a page: the next path, or null to leave. */
const NEXT: Record<string, ReadonlyArray<readonly [string | null, number]>> = {
  '/': [[null, 4], ['/features', 3], ['/pricing', 3], ['/blog', 1], ['/docs', 1], ['/about', 1]],
  '/features': [[null, 3], ['/pricing', 4], ['/docs', 1]],
  '/pricing': [[null, 4], ['/signup', 3], ['/contact', 1], ['/features', 1]],
  '/blog': [[null, 3], ...BLOG.map((p) => [p, 1] as const)],
  '/docs': [[null, 3], ...DOCS.slice(1).map((p) => [p, 1] as const)],
  '/about': [[null, 3], ['/contact', 1]],
  '/contact': [[null, 1]],
  '/signup': [[null, 1]],
};
const AFTER_ARTICLE: ReadonlyArray<readonly [string | null, number]> = [[null, 6], ['/', 1], ['/pricing', 1], ['/blog', 1]];

/** Relative weight of a weekday (0 = Sunday) and of a local hour. */
const WEEKDAY = [0.55, 1.1, 1.15, 1.1, 1.05, 0.95, 0.6];
const HOURS = [0.2, 0.12, 0.08, 0.06, 0.06, 0.1, 0.25, 0.5, 0.85, 1.1, 1.2, 1.15, 1.0, 1.05, 1.15, 1.2, 1.1, 0.95, 0.8, 0.75, 0.7, 0.6, 0.45, 0.3];
const HOUR_CHOICES = HOURS.map((w, h) => [h, w] as const);

const MINUTE = 60_000;

/** A visit's lines: pageviews, an engage per page (active time, scroll), and its events. */
function visit(rand: () => number, start: number, end: number, who: { ua: string; ip: string; w: number; place: readonly [string, string, string, string] }, source: Source, totals: DemoTotals): ImportLine[] {
  const [country, region, city, language] = who.place;
  const base = { ua: who.ua, ip: who.ip, w: who.w, l: language, country, region, city };
  const lines: ImportLine[] = [];
  let path: string | null = weighted(rand, source.landing);
  if (rand() < source.bounce) {
    // A bounce: the landing page read for 2 to 9 seconds, then left.
    const readMs = Math.round((2 + rand() * 7.5) * 1000);
    const line: ImportLine = { ...base, ts: start, u: source.utm ? `${path}?${source.utm}` : path };
    if (source.referrer) line.r = source.referrer;
    lines.push(line, { ...base, ts: Math.min(end - 1, start + readMs), u: path, e: 'engage', p: { t: readMs, d: Math.round(rand() * 40) } });
    totals.pageviews++;
    count(totals, 'engage');
    totals.bounces++;
    return lines;
  }
  let ts = start;
  let first = true;
  let engagedMs = 0;
  let customs = 0;
  while (path !== null && ts < end) {
    const line: ImportLine = { ...base, ts, u: first && source.utm ? `${path}?${source.utm}` : path };
    if (first && source.referrer) line.r = source.referrer;
    lines.push(line);
    totals.pageviews++;
    const next: string | null = weighted(rand, NEXT[path] ?? AFTER_ARTICLE);
    const readMs = Math.round((path.startsWith('/blog/') ? 40 + rand() * 200 : 8 + rand() * 70) * 1000);
    // A bounce is a single page left quickly; longer single-page reads still count as engaged.
    lines.push({ ...base, ts: Math.min(end - 1, ts + readMs), u: path, e: 'engage', p: { t: readMs, d: Math.round(rand() * 100) } });
    count(totals, 'engage');
    engagedMs += readMs;
    if (path === '/signup' && rand() < 0.6) {
      lines.push({ ...base, ts: Math.min(end - 1, ts + readMs - 1000), u: path, e: 'signup', p: { plan: weighted(rand, [['starter', 5], ['team', 3], ['business', 1]]) } });
      count(totals, 'signup');
      customs++;
    }
    if (path.startsWith('/blog/') && rand() < 0.08) {
      lines.push({ ...base, ts: Math.min(end - 1, ts + readMs - 500), u: path, e: 'newsletter' });
      count(totals, 'newsletter');
      customs++;
    }
    if (path.startsWith('/docs') && rand() < 0.1) {
      lines.push({ ...base, ts: Math.min(end - 1, ts + 2000), u: path, e: 'download', p: { url: `https://${'cdn.example'}/svc-guide.pdf` } });
      count(totals, 'download');
      customs++;
    }
    ts += readMs + 2000;
    path = next;
    first = false;
  }
  // A visit that was to go on may still end as a bounce (one page, read under 10 s, no event).
  if (lines.filter((l) => l.e === undefined).length === 1 && customs === 0 && engagedMs < 10_000) totals.bounces++;
  return lines;
}

function count(totals: DemoTotals, name: string): void {
  totals.events[name] = (totals.events[name] ?? 0) + 1;
}

/**
 * The traffic of `days` site-local days ending today: a slow growth, the weekday and hour-of-day
 * shapes, and day-to-day noise. Lines are sorted by time, as `svc import` wants them to split a
 * file at midnights.
 */
export function generateDemoTraffic(options: DemoTrafficOptions): { lines: ImportLine[]; totals: DemoTotals } {
  const { seed, days, visitorsPerDay, timeZone, now } = options;
  const rand = seededRandom(seed);
  const today = localDay(now, timeZone);
  const first = addDays(today, -(days - 1));
  const totals: DemoTotals = { from: first, to: today, visitors: 0, sessions: 0, bounces: 0, pageviews: 0, events: {} };
  const lines: ImportLine[] = [];
  for (let n = 0; n < days; n++) {
    const day = addDays(first, n);
    const dayStart = startOfLocalDay(day, timeZone);
    const dayEnd = Math.min(startOfLocalDay(addDays(day, 1), timeZone), now);
    const weekday = new Date(`${day}T12:00:00Z`).getUTCDay();
    const growth = 0.75 + (0.5 * n) / Math.max(1, days - 1);
    const visitors = Math.max(1, Math.round(visitorsPerDay * WEEKDAY[weekday]! * growth * (0.85 + 0.3 * rand())));
    const dayLines: ImportLine[] = [];
    let counted = 0;
    for (let v = 0; v < visitors; v++) {
      // Hours are wall-clock hours from midnight: on a day the clocks change, a visit lands an hour off.
      const start = dayStart + weighted(rand, HOUR_CHOICES) * 3_600_000 + Math.floor(rand() * 3_600_000);
      if (start >= dayEnd) continue;
      const [ua, w] = weighted(rand, DEVICES);
      const who = { ua, w, ip: `10.${n % 256}.${v >> 8}.${v & 255}`, place: weighted(rand, PLACES) };
      const source = weighted(rand, SOURCES);
      const firstVisit = visit(rand, start, dayEnd, who, source, totals);
      dayLines.push(...firstVisit);
      counted++;
      totals.sessions++;
      const lastTs = firstVisit[firstVisit.length - 1]!.ts;
      const again = lastTs + 45 * MINUTE + Math.floor(rand() * 180 * MINUTE);
      if (rand() < 0.15 && again < dayEnd - 10 * MINUTE) {
        dayLines.push(...visit(rand, again, dayEnd, who, { bounce: 0.35, landing: HOME }, totals));
        totals.sessions++;
      }
    }
    totals.visitors += counted;
    dayLines.sort((a, b) => a.ts - b.ts);
    lines.push(...dayLines);
  }
  return { lines, totals };
}
