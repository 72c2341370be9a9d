// What a digest says: the KPIs of its period (those shown unfiltered) with their change against the previous period, the
// top 5 pages, referrers and countries, read by the read API's own code (parse, plan, compute), so a
// digest's figures are the dashboard's; and the mail and webhook bodies that carry them, a mail in
// its recipient's language (English without one, as webhooks are).
import { type Metric, shownMetrics } from '../core/metric-registry.js';
import { formatCount, formatMetric, kpiChangeText } from '../core/figure-text.js';
import { fill, plural } from '../core/messages/language.js';
import { mailWords, type MailWords } from '../core/messages/server.js';
import { countryName } from '../core/place-names.js';
import { NONE_KEY, type Dimension } from '../core/vocabulary.js';
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
export const TOP_DIMENSIONS = ['page', 'referrer', 'country'] as const satisfies readonly Dimension[];

/** The title of each top list. */
const topTitle = (words: MailWords, dimension: (typeof TOP_DIMENSIONS)[number]): string =>
  dimension === 'page' ? words.mail.topPages : dimension === 'referrer' ? words.mail.topReferrers : words.mail.topCountries;

export interface Digest {
  site: { id: string; name: string; domain: string };
  kind: DigestKind;
  period: { from: string; to: string };
  kpis: Stats;
  top: Record<(typeof TOP_DIMENSIONS)[number], BreakdownRow[]>;
  /** The dashboard's view of the period. */
  dashboardUrl: string;
}

/** Reads a digest's figures for a site and a period of its days. */
export async function readDigest(deps: { events: EventStore; meta: MetaStore }, site: Site, kind: DigestKind, period: { from: string; to: string }, now: number, baseUrl: string): Promise<Digest> {
  const source = readSourceOf(deps.events, deps.meta);
  const days = { from: period.from, to: period.to };
  const kpis = (await read(source, { kind: 'stats', params: { ...days, comparison: 'previous' }, site, now })).stats;
  const top = {} as Digest['top'];
  for (const dimension of TOP_DIMENSIONS) {
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

/** A top row's key as people read it: a country's name in the mail's language, `Direct / None` for visits without a referrer. */
function rowLabel(words: MailWords, dimension: (typeof TOP_DIMENSIONS)[number], key: string): string {
  if (dimension === 'country') return countryName(key, words.locale);
  return dimension === 'referrer' && key === NONE_KEY ? words.names.noReferrer : key;
}

export const digestSubject = (digest: Digest, words = mailWords('en')) => fill(words.mail.subject[digest.kind], { site: digest.site.name });

/** A report's day: `2026-03-16` in English (the reports' own way), else as the language writes a date (`16.03.2026`). */
function dayText(day: string, words: MailWords): string {
  if (words.language === 'en') return day;
  return new Intl.DateTimeFormat(words.locale, { timeZone: 'UTC', dateStyle: 'medium' }).format(new Date(`${day}T00:00:00Z`));
}

const periodText = (digest: Digest, words: MailWords) => fill(words.mail.period, { from: dayText(digest.period.from, words), to: dayText(digest.period.to, words) });

/** A KPI's value and change in the mail's locale. */
function kpiTexts(digest: Digest, metric: (typeof REPORTED)[number], words: MailWords) {
  const kpi = digest.kpis[metric];
  return { name: words.names.metricNames[metric], value: formatMetric(metric, kpi.value, words.locale), change: kpiChangeText(metric, kpi, words.locale, words.names.pointChange) };
}

/** The plain-text part; without `unsubscribeUrl`, the report was sent once on request. */
export function digestText(digest: Digest, unsubscribeUrl?: string, words = mailWords('en')): string {
  const lines = [fill(words.mail.heading, { subject: digestSubject(digest, words), domain: digest.site.domain, period: periodText(digest, words) }), ''];
  for (const metric of REPORTED) {
    const kpi = kpiTexts(digest, metric, words);
    lines.push(fill(words.mail.label, { name: kpi.name, value: `${kpi.value} (${fill(words.mail.againstPrevious, { change: kpi.change })})` }));
  }
  for (const dimension of TOP_DIMENSIONS) {
    lines.push('', fill(words.mail.listTitle, { title: topTitle(words, dimension) }));
    const rows = digest.top[dimension];
    if (rows.length === 0) lines.push(`  ${words.mail.none}`);
    for (const row of rows) {
      const visitors = plural(words.mail.rowVisitors, row.visitors, words.locale, { n: formatCount(row.visitors, words.locale) });
      lines.push(`  ${fill(words.mail.label, { name: rowLabel(words, dimension, row.key), value: visitors })}`);
    }
  }
  const stop = unsubscribeUrl === undefined ? words.mail.onRequest : fill(words.mail.stopText, { url: unsubscribeUrl });
  lines.push('', fill(words.mail.dashboardText, { url: digest.dashboardUrl }), '', stop);
  return lines.join('\n') + '\n';
}

/** The HTML part: tables and text only, no image, readable with images off or styles stripped. */
export function digestHtml(digest: Digest, unsubscribeUrl?: string, words = mailWords('en')): string {
  const cell = 'style="padding:4px 12px 4px 0;text-align:left"';
  const kpiRows = REPORTED.map((metric) => {
    const kpi = kpiTexts(digest, metric, words);
    return `<tr><th scope="row" ${cell}>${escapeHtml(kpi.name)}</th><td ${cell}>${escapeHtml(kpi.value)}</td><td ${cell}>${escapeHtml(kpi.change)}</td></tr>`;
  }).join('');
  const tops = TOP_DIMENSIONS.map((dimension) => {
    const rows = digest.top[dimension];
    const body =
      rows.length === 0
        ? `<tr><td ${cell} colspan="2">${escapeHtml(words.mail.none)}</td></tr>`
        : rows.map((row) => `<tr><td ${cell}>${escapeHtml(rowLabel(words, dimension, row.key))}</td><td ${cell}>${escapeHtml(formatCount(row.visitors, words.locale))}</td></tr>`).join('');
    const head = `<th scope="col" ${cell}>${escapeHtml(words.names.dimensionNames[dimension])}</th><th scope="col" ${cell}>${escapeHtml(words.names.metricNames.visitors)}</th>`;
    return `<h2>${escapeHtml(topTitle(words, dimension))}</h2><table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
  }).join('');
  const subject = escapeHtml(digestSubject(digest, words));
  const why = unsubscribeUrl === undefined ? escapeHtml(words.mail.onRequest) : `${escapeHtml(words.mail.whyReceived)} <a href="${escapeHtml(unsubscribeUrl)}">${escapeHtml(words.mail.stop)}</a>.`;
  return [
    `<!doctype html><html lang="${words.language}"><head><meta charset="utf-8"><title>`,
    subject,
    '</title></head><body style="font-family:sans-serif;color:#1a1a1a;background:#fff">',
    `<h1>${subject}</h1>`,
    `<p>${escapeHtml(digest.site.domain)}, ${escapeHtml(periodText(digest, words))}</p>`,
    `<table><thead><tr><th scope="col" ${cell}>${escapeHtml(words.mail.figure)}</th><th scope="col" ${cell}>${escapeHtml(words.mail.value)}</th><th scope="col" ${cell}>${escapeHtml(words.mail.change)}</th></tr></thead><tbody>${kpiRows}</tbody></table>`,
    tops,
    `<p><a href="${escapeHtml(digest.dashboardUrl)}">${escapeHtml(words.mail.dashboardLink)}</a></p>`,
    `<p style="color:#555">${why}</p>`,
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
  const words = mailWords('en');
  const title = `${digestSubject(digest, words)}, ${periodText(digest, words)}`;
  const kpis = REPORTED.map((metric) => {
    const kpi = kpiTexts(digest, metric, words);
    return `*${kpi.name}*: ${kpi.value} (${kpi.change})`;
  }).join('\n');
  const tops = TOP_DIMENSIONS.map((dimension) => {
    const rows = digest.top[dimension];
    return `*${topTitle(words, dimension)}*\n${rows.length === 0 ? words.mail.none : rows.map((row) => `${escapeSlack(rowLabel(words, dimension, row.key))}: ${formatCount(row.visitors, words.locale)}`).join('\n')}`;
  });
  return JSON.stringify({
    text: escapeSlack(title),
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: title.slice(0, 150) } },
      { type: 'section', text: { type: 'mrkdwn', text: kpis } },
      ...tops.map((text) => ({ type: 'section', text: { type: 'mrkdwn', text } })),
      { type: 'section', text: { type: 'mrkdwn', text: `<${digest.dashboardUrl}|${words.mail.dashboardLink}>` } },
    ],
  });
}
