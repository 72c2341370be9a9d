// A generated Plausible export for `svc demo`'s second site: a year of daily figures, deterministic
// from a seed, written as Plausible's CSV tables (docs/imports.md). Each day's totals are drawn
// first (visitors, visits, bounces between 40 and 65 %, pageviews, durations), then shared among
// each table's keys by weight, so every table's rows add up to the day's figures. The totals are
// what the read API reports for the days once the export is imported.
import { csvField } from '../core/csv-field.js';
import { addDays } from '../core/localtime.js';
import { seededRandom } from '../core/seeded-random.js';
import { exportFileName } from '../imports/export.js';
import type { DemoTotals } from './demo-traffic.js';

/** The figures of a generated export, as the demo prints them (no custom events: they are not in its visitors table). */
export type ExportTotals = Omit<DemoTotals, 'events'>;

/** Integers summing to `total`, in proportion to `weights` (largest remainders). */
function shares(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (total * w) / sum);
  const out = exact.map(Math.floor);
  let left = total - out.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) {
    if (left-- <= 0) break;
    out[i]!++;
  }
  return out;
}

interface Day {
  day: string;
  visitors: number;
  visits: number;
  bounces: number;
  pageviews: number;
  /** Seconds. */
  duration: number;
}

/** One table: its header, its keys (the leading columns of a row) with weights, and how a share becomes a row. */
interface Table {
  name: string;
  header: string;
  keys: ReadonlyArray<readonly [readonly string[], number]>;
  row(day: string, key: readonly string[], share: Day): Array<string | number>;
}

const session = (s: Day) => [s.visitors, s.visits, s.duration, s.bounces, s.pageviews];

const TABLES: readonly Table[] = [
  {
    name: 'sources',
    header: 'date,source,referrer,utm_source,utm_medium,utm_campaign,utm_content,utm_term,pageviews,visitors,visits,visit_duration,bounces',
    keys: [
      [['Direct / None', '', '', '', ''], 30],
      [['Google', 'https://www.google.com/', '', '', ''], 26],
      [['DuckDuckGo', 'https://duckduckgo.com/', '', '', ''], 5],
      [['Hacker News', 'https://news.ycombinator.com/', '', '', ''], 8],
      [['GitHub', 'https://github.com/', '', '', ''], 6],
      [['Twitter', 'https://t.co/', '', '', ''], 4],
      [['Reddit', 'https://www.reddit.com/', '', '', ''], 4],
      [['Newsletter', '', 'newsletter', 'email', 'monthly-digest'], 5],
      [['Google', 'https://www.google.com/', 'google', 'cpc', 'brand'], 5],
    ],
    row: (day, k, s) => [day, ...k, '', '', s.pageviews, s.visitors, s.visits, s.duration, s.bounces],
  },
  {
    name: 'pages',
    header: 'date,hostname,page,visits,visitors,pageviews,scroll_depth,pageleave_visitors',
    keys: [[['/'], 30], [['/features'], 12], [['/pricing'], 14], [['/blog/privacy-first-analytics'], 8], [['/blog/cookieless-tracking'], 7], [['/docs/getting-started'], 9], [['/docs'], 6], [['/contact'], 3], [['/about'], 4], [['/signup'], 5]],
    row: (day, k, s) => [day, 'imported.example', k[0]!, s.visits, s.visitors, s.pageviews, '', ''],
  },
  {
    name: 'entry_pages',
    header: 'date,entry_page,visitors,entrances,visit_duration,bounces,pageviews',
    keys: [[['/'], 40], [['/blog/privacy-first-analytics'], 15], [['/blog/cookieless-tracking'], 12], [['/pricing'], 14], [['/docs/getting-started'], 12], [['/features'], 7]],
    row: (day, k, s) => [day, k[0]!, s.visitors, s.visits, s.duration, s.bounces, s.pageviews],
  },
  {
    name: 'exit_pages',
    header: 'date,exit_page,visitors,visit_duration,exits,bounces,pageviews',
    keys: [[['/'], 30], [['/pricing'], 20], [['/signup'], 10], [['/blog/privacy-first-analytics'], 14], [['/docs/getting-started'], 14], [['/contact'], 6], [['/features'], 6]],
    row: (day, k, s) => [day, k[0]!, s.visitors, s.duration, s.visits, s.bounces, s.pageviews],
  },
  {
    name: 'locations',
    header: 'date,country,region,city,visitors,visits,visit_duration,bounces,pageviews',
    keys: [
      [['US', 'US-CA', '5391959'], 14],
      [['US', 'US-NY', '5128581'], 12],
      [['GB', 'GB-ENG', '2643743'], 10],
      [['DE', 'DE-BE', '2950159'], 9],
      [['FR', 'FR-IDF', '2988507'], 8],
      [['NL', 'NL-NH', '2759794'], 4],
      [['CA', 'CA-ON', '6167865'], 5],
      [['IN', 'IN-KA', '1277333'], 7],
      [['JP', 'JP-13', '1850147'], 4],
      [['BR', 'BR-SP', '3448439'], 4],
    ],
    row: (day, k, s) => [day, ...k, ...session(s)],
  },
  { name: 'devices', header: 'date,device,visitors,visits,visit_duration,bounces,pageviews', keys: [[['Desktop'], 58], [['Mobile'], 37], [['Tablet'], 5]], row: (day, k, s) => [day, k[0]!, ...session(s)] },
  {
    name: 'browsers',
    header: 'date,browser,browser_version,visitors,visits,visit_duration,bounces,pageviews',
    keys: [[['Chrome', '124.0'], 40], [['Mobile Safari', '17.4'], 22], [['Safari', '17.4'], 12], [['Firefox', '125.0'], 8], [['Microsoft Edge', '124.0'], 10], [['Samsung Browser', '24.0'], 8]],
    row: (day, k, s) => [day, ...k, ...session(s)],
  },
  {
    name: 'operating_systems',
    header: 'date,operating_system,operating_system_version,visitors,visits,visit_duration,bounces,pageviews',
    keys: [[['Windows', '10'], 37], [['Mac', '14'], 18], [['iOS', '17.4'], 25], [['Android', '14'], 15], [['GNU/Linux', ''], 5]],
    row: (day, k, s) => [day, ...k, ...session(s)],
  },
];

const WEEKDAY = [0.55, 1.1, 1.15, 1.1, 1.05, 0.95, 0.6];

/** The export's files (name → CSV text) for `days` days ending `last`, and its totals. */
export function generatePlausibleExport(options: { seed: number; days: number; last: string; visitorsPerDay: number }): { files: Record<string, string>; totals: ExportTotals } {
  const rand = seededRandom(options.seed);
  const first = addDays(options.last, -(options.days - 1));
  const totals: ExportTotals = { from: first, to: options.last, visitors: 0, sessions: 0, bounces: 0, pageviews: 0 };
  const lines: Record<string, string[]> = { visitors: ['date,visitors,pageviews,bounces,visits,visit_duration'], custom_events: ['date,name,link_url,path,visitors,events'] };
  for (const t of TABLES) lines[t.name] = [t.header];
  for (let n = 0; n < options.days; n++) {
    const day = addDays(first, n);
    const weekday = new Date(`${day}T12:00:00Z`).getUTCDay();
    const growth = 0.6 + (0.4 * n) / Math.max(1, options.days - 1);
    const visitors = Math.max(1, Math.round(options.visitorsPerDay * WEEKDAY[weekday]! * growth * (0.85 + 0.3 * rand())));
    const visits = visitors + Math.round(visitors * 0.15 * rand());
    const bounces = Math.round(visits * (0.4 + 0.25 * rand()));
    const pageviews = bounces + Math.round((visits - bounces) * (2.2 + 1.5 * rand()));
    const duration = Math.round(bounces * (2 + 7 * rand()) + (visits - bounces) * (70 + 150 * rand()));
    totals.visitors += visitors;
    totals.sessions += visits;
    totals.bounces += bounces;
    totals.pageviews += pageviews;
    lines.visitors!.push([day, visitors, pageviews, bounces, visits, duration].join(','));
    for (const t of TABLES) {
      const weights = t.keys.map(([, w]) => w * (0.8 + 0.4 * rand()));
      const split = (total: number) => shares(total, weights);
      const [v, s, b, p, d] = [split(visitors), split(visits), split(bounces), split(pageviews), split(duration)];
      t.keys.forEach(([key], i) => {
        if (s[i]! === 0 && p[i]! === 0) return;
        const share: Day = { day, visitors: Math.max(v[i]!, s[i]! > 0 ? 1 : 0), visits: s[i]!, bounces: Math.min(b[i]!, s[i]!), pageviews: p[i]!, duration: d[i]! };
        lines[t.name]!.push(t.row(day, key, share).map(csvField).join(','));
      });
    }
    const signups = Math.round(visitors * (0.01 + 0.02 * rand()));
    if (signups > 0) lines.custom_events!.push(`${day},signup,,,${signups},${signups}`);
    const newsletter = Math.round(visitors * 0.01 * rand());
    if (newsletter > 0) lines.custom_events!.push(`${day},newsletter,,,${newsletter},${newsletter}`);
  }
  const period = { from: first, to: options.last };
  return { files: Object.fromEntries(Object.entries(lines).map(([table, rows]) => [exportFileName(table, period), rows.join('\n') + '\n'])), totals };
}
