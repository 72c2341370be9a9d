// svc stats SITE_ID: a site's KPIs with their change against the previous period, and its top pages,
// read and written as the dashboard reads and writes them (through the admin API's mount of the
// read API): `raw=clip` and `elapsed=true` as the dashboard's view sends them, its tiles (time on page
// under a page filter, views per visit) and its figures' formatting.
import { seg } from '../client.js';
import { formatTable } from '../output.js';
import type { Noun } from '../types.js';
import type { BreakdownAnswer, StatsAnswer } from '../../core/answers.js';
import { CONVERSIONS_KEY, COUNTED_SINCE_HEADER, parseCountedSince, RAW_WINDOW_HEADER } from '../../core/answer-headers.js';
import { shownMetrics } from '../../core/metric-registry.js';
import { names } from '../../core/messages/en/common.js';
import { formatCount, formatMetric, formatRatioOf, kpiChangeText, REPORT_LOCALE } from '../../core/figure-text.js';
import { parseFilters } from '../../core/query.js';
import { DEFAULT_PRESET, PRESETS, RAW_CLIP } from '../../core/vocabulary.js';

/** How many pages the command lists. */
const TOP_PAGES = 10;

export const stats: Noun = {
  name: 'stats',
  summary: "print a site's KPIs and top pages",
  commands: [
    {
      usage: 'svc stats SITE_ID [--period P] [--filter F]...',
      summary: `print the KPIs with their change against the previous period, and the top ${TOP_PAGES} pages, as the dashboard shows them (period: ${PRESETS.join(', ')}; default ${DEFAULT_PRESET}; filters as the read API takes them, e.g. country:DE, country:DE|AT or referrer!:(none))`,
      args: ['SITE_ID'],
      options: { period: { type: 'string' }, filter: { type: 'string', multiple: true } },
      example: 'svc stats k3f9a1b2c4d5 --period year --filter country:DE',
      async run(inv) {
        const filters = (inv.values.filter as string[] | undefined) ?? [];
        const params = new URLSearchParams({ period: (inv.values.period as string | undefined) ?? DEFAULT_PRESET });
        for (const filter of filters) params.append('filter', filter);
        // The dashboard's view: figures under filters read inside the raw window, today against the same hours.
        params.set('raw', RAW_CLIP);
        const site = `/sites/${seg(inv.positionals[0]!)}`;
        const kpis = await inv.client().read<StatsAnswer>(`${site}/stats?${params}&elapsed=true`);
        params.set('dimension', 'page');
        params.set('limit', String(TOP_PAGES));
        const pages = await inv.client().request<BreakdownAnswer>('GET', `${site}/breakdown?${params}`);
        inv.out.result({ stats: kpis.body, pages }, () => {
          const figures = kpis.body.stats;
          // Under filters, conversions of a period that starts before the raw window are counted from its first day, as the dashboard's tile says.
          const conversionsSince = parseCountedSince(kpis.headers.get(COUNTED_SINCE_HEADER)).get(CONVERSIONS_KEY);
          // The server has checked the filters: they parse.
          const shown = shownMetrics(parseFilters(filters));
          const rows = shown.flatMap((metric) => {
            const kpi = figures[metric];
            const since = metric === 'conversions' && conversionsSince ? ` (since ${conversionsSince})` : '';
            return kpi ? [[names.metricNames[metric], formatMetric(metric, kpi.value, REPORT_LOCALE) + since, kpiChangeText(metric, kpi, REPORT_LOCALE)]] : [];
          });
          // As the dashboard's tiles: views per visit where pageviews are shown (not under a goal filter).
          const [views, visits] = [figures.pageviews.value, figures.sessions.value];
          if (shown.includes('pageviews')) rows.push(['Views per visit', views === null || !visits ? '–' : formatRatioOf(views, visits, REPORT_LOCALE), '']);
          const top = formatTable(['Page', 'Visitors', 'Views'], pages.rows.map((row) => [row.key, formatCount(row.visitors, REPORT_LOCALE), formatMetric('pageviews', row.views ?? null, REPORT_LOCALE)]));
          const clipped = kpis.headers.get(RAW_WINDOW_HEADER) === null ? '' : ' (the filtered figures start where the raw events kept start)';
          return `${kpis.body.period.from} to ${kpis.body.period.to} (${kpis.body.period.tz})${clipped}\n\n${formatTable(['Figure', 'Value', 'Change'], rows)}\n${top}`;
        });
      },
    },
  ],
};
