// What a digest says: the KPIs of its period (those shown unfiltered) with their change against the previous period, the
// top 5 pages, referrers and countries, read by the read API's own code (parse, plan, compute), so a
// digest's figures are the dashboard's; and the mail and webhook bodies that carry them.
import { type Metric, METRIC_REGISTRY, shownMetrics } from '../core/metric-registry.js';
import { formatCount, formatMetric, kpiChangeText, REPORT_LOCALE } from '../core/figure-text.js';
import { countryName } from '../core/place-names.js';
import { NO_REFERRER_LABEL, NONE_KEY, type Dimension } from '../core/vocabulary.js';
import type { BreakdownRow, Stats } from '../core/answers.js';
import type { Site } from '../entities/sites.js';
import { read, readSourceOf } from '../stats/entry.js';
import type { EventStore } from '../storage/events/types.js';
import type { DigestKind } from '../storage/meta/digest-types.js';
import type { MetaStore } from '../storage/meta/types.js';
import { escapeHtml } from '../core/html.js';

/** The figures a report gives: the site's whole traffic, unfiltered. */
// Without filters neither time on page nor a conversion rate is shown: the reports' reads (no raw=clip, no goal filter) do not carry them.
const REPORTED = shownMetrics([]).filter((metric): metric is Exclude<Metric, 'timeOnPage' | 'conversionRate'> => metric !== 'timeOnPage' && metric !== 'conversionRate');

export const TOP_ROWS = 5;
export const TOP_DIMENSIONS = [
  ['page', 'Top pages'],
  ['referrer', 'Top referrers'],
  ['country', 'Top countries'],
] as const satisfies ReadonlyArray<readonly [Dimension, string]>;

export interface Digest {
  site: { id: string; name: string; domain: string };
  kind: DigestKind;
  period: { from: string; to: string };
  kpis: Stats;
  top: Record<(typeof TOP_DIMENSIONS)[number][0], BreakdownRow[]>;
  /** The dashboard's view of the period. */
  dashboardUrl: string;
}

/** Reads a digest's figures for a site and a period of its days. */
export async function readDigest(deps: { events: EventStore; meta: MetaStore }, site: Site, kind: DigestKind, period: { from: string; to: string }, now: number, baseUrl: string): Promise<Digest> {
  const source = readSourceOf(deps.events, deps.meta);
  const days = { from: period.from, to: period.to };
  const kpis = (await read(source, { kind: 'stats', params: { ...days, comparison: 'previous' }, site, now })).stats;
  const top = {} as Digest['top'];
  for (const [dimension] of TOP_DIMENSIONS) {
    top[dimension] = (await read(source, { kind: 'breakdown', params: { ...days, dimension, limit: String(TOP_ROWS) }, site, now })).rows;
  }
  const view = new URLSearchParams({ from: period.from, to: period.to });
  return {
    site: { id: site.id, name: site.name, domain: site.domain },
    kind,
    period,
    kpis,
    top,
    dashboardUrl: `${baseUrl}/sites/${encodeURIComponent(site.id)}?${view}`,
  };
}

/** A top row's key as people read it: a country's name, `Direct / None` for visits without a referrer. */
function rowLabel(dimension: (typeof TOP_DIMENSIONS)[number][0], key: string): string {
  if (dimension === 'country') return countryName(key, 'en');
  return dimension === 'referrer' && key === NONE_KEY ? NO_REFERRER_LABEL : key;
}

export const digestSubject = (digest: Digest) => `${digest.site.name}: ${digest.kind === 'weekly' ? 'weekly' : 'monthly'} report`;

const periodText = (digest: Digest) => `${digest.period.from} to ${digest.period.to}`;

/** Why a report sent on request (with no unsubscribe link) came: it is no subscription to stop. */
const ON_REQUEST = 'This report was sent once, on request: no report follows unless you choose them in your account.';

/** The plain-text part; without `unsubscribeUrl`, the report was sent once on request. */
export function digestText(digest: Digest, unsubscribeUrl?: string): string {
  const lines = [`${digestSubject(digest)} for ${digest.site.domain}, ${periodText(digest)}`, ''];
  for (const metric of REPORTED) {
    const kpi = digest.kpis[metric];
    lines.push(`${METRIC_REGISTRY[metric].label}: ${formatMetric(metric, kpi.value, REPORT_LOCALE)} (${kpiChangeText(metric, kpi, REPORT_LOCALE)} against the previous period)`);
  }
  for (const [dimension, title] of TOP_DIMENSIONS) {
    lines.push('', `${title}:`);
    const rows = digest.top[dimension];
    if (rows.length === 0) lines.push('  none');
    for (const row of rows) lines.push(`  ${rowLabel(dimension, row.key)}: ${formatCount(row.visitors, REPORT_LOCALE)} visitors`);
  }
  lines.push('', `The dashboard of this period: ${digest.dashboardUrl}`, '', unsubscribeUrl === undefined ? ON_REQUEST : `Stop these reports: ${unsubscribeUrl}`);
  return lines.join('\n') + '\n';
}

/** The HTML part: tables and text only, no image, readable with images off or styles stripped. */
export function digestHtml(digest: Digest, unsubscribeUrl?: string): string {
  const cell = 'style="padding:4px 12px 4px 0;text-align:left"';
  const kpiRows = REPORTED.map((metric) => {
    const kpi = digest.kpis[metric];
    return `<tr><th scope="row" ${cell}>${escapeHtml(METRIC_REGISTRY[metric].label)}</th><td ${cell}>${escapeHtml(formatMetric(metric, kpi.value, REPORT_LOCALE))}</td><td ${cell}>${escapeHtml(kpiChangeText(metric, kpi, REPORT_LOCALE))}</td></tr>`;
  }).join('');
  const tops = TOP_DIMENSIONS.map(([dimension, title]) => {
    const rows = digest.top[dimension];
    const body =
      rows.length === 0
        ? `<tr><td ${cell} colspan="2">none</td></tr>`
        : rows.map((row) => `<tr><td ${cell}>${escapeHtml(rowLabel(dimension, row.key))}</td><td ${cell}>${escapeHtml(formatCount(row.visitors, REPORT_LOCALE))}</td></tr>`).join('');
    return `<h2>${escapeHtml(title)}</h2><table><thead><tr><th scope="col" ${cell}>${dimension === 'page' ? 'Page' : dimension === 'referrer' ? 'Referrer' : 'Country'}</th><th scope="col" ${cell}>Visitors</th></tr></thead><tbody>${body}</tbody></table>`;
  }).join('');
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>',
    escapeHtml(digestSubject(digest)),
    '</title></head><body style="font-family:sans-serif;color:#1a1a1a;background:#fff">',
    `<h1>${escapeHtml(digestSubject(digest))}</h1>`,
    `<p>${escapeHtml(digest.site.domain)}, ${escapeHtml(periodText(digest))}</p>`,
    `<table><thead><tr><th scope="col" ${cell}>Figure</th><th scope="col" ${cell}>Value</th><th scope="col" ${cell}>Change against the previous period</th></tr></thead><tbody>${kpiRows}</tbody></table>`,
    tops,
    `<p><a href="${escapeHtml(digest.dashboardUrl)}">Open the dashboard of this period</a></p>`,
    `<p style="color:#555">${unsubscribeUrl === undefined ? escapeHtml(ON_REQUEST) : `You receive this because you chose it for this site. <a href="${escapeHtml(unsubscribeUrl)}">Stop these reports</a>.`}</p>`,
    '</body></html>',
  ].join('');
}

/** The webhook body of a digest: its figures as JSON, `type: "digest"`. */
export function digestPayload(digest: Digest, at: number): string {
  return JSON.stringify({
    type: 'digest',
    kind: digest.kind,
    site: digest.site.domain,
    siteId: digest.site.id,
    period: digest.period,
    at: new Date(at).toISOString(),
    kpis: digest.kpis,
    top: { pages: digest.top.page, referrers: digest.top.referrer, countries: digest.top.country },
    dashboardUrl: digest.dashboardUrl,
  });
}

/** Whether a webhook URL is a Slack incoming webhook's, which takes Slack's message format. */
export const isSlackWebhook = (url: string) => new URL(url).hostname === 'hooks.slack.com';

/** Slack's markup escapes only these three characters. */
const escapeSlack = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The digest as a Slack incoming-webhook message: a text fallback and blocks (mrkdwn). */
export function slackMessage(digest: Digest): string {
  const title = `${digestSubject(digest)}, ${periodText(digest)}`;
  const kpis = REPORTED.map((metric) => `*${METRIC_REGISTRY[metric].label}*: ${formatMetric(metric, digest.kpis[metric].value, REPORT_LOCALE)} (${kpiChangeText(metric, digest.kpis[metric], REPORT_LOCALE)})`).join('\n');
  const tops = TOP_DIMENSIONS.map(([dimension, name]) => {
    const rows = digest.top[dimension];
    return `*${name}*\n${rows.length === 0 ? 'none' : rows.map((row) => `${escapeSlack(rowLabel(dimension, row.key))}: ${formatCount(row.visitors, REPORT_LOCALE)}`).join('\n')}`;
  });
  return JSON.stringify({
    text: escapeSlack(title),
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: title.slice(0, 150) } },
      { type: 'section', text: { type: 'mrkdwn', text: kpis } },
      ...tops.map((text) => ({ type: 'section', text: { type: 'mrkdwn', text } })),
      { type: 'section', text: { type: 'mrkdwn', text: `<${digest.dashboardUrl}|Open the dashboard of this period>` } },
    ],
  });
}
