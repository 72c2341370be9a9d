// svc stats SITE_ID: a site's six KPIs with their change against the previous period, and its top
// pages, as the read API answers them (through the admin API's mount of its statistics routes).
import { seg } from '../client.js';
import { formatTable } from '../output.js';
import type { Noun } from '../types.js';
import type { BreakdownAnswer, StatsAnswer } from '../../core/answers.js';
import { METRIC_REGISTRY, METRICS } from '../../core/metric-registry.js';
import { count, formatChange, formatValue } from '../../core/figure-text.js';
import { DEFAULT_PRESET, PRESETS } from '../../core/vocabulary.js';

/** How many pages the command lists. */
const TOP_PAGES = 10;

export const stats: Noun = {
  name: 'stats',
  summary: "print a site's KPIs and top pages",
  commands: [
    {
      usage: 'svc stats SITE_ID [--period P] [--filter F]...',
      summary: `print the six KPIs with their change against the previous period, and the top ${TOP_PAGES} pages (period: ${PRESETS.join(', ')}; default ${DEFAULT_PRESET}; filters as the read API takes them, e.g. country:DE or referrer!:(none))`,
      args: ['SITE_ID'],
      options: { period: { type: 'string' }, filter: { type: 'string', multiple: true } },
      example: 'svc stats k3f9a1b2c4d5 --period year --filter country:DE',
      async run(inv) {
        const params = new URLSearchParams({ period: (inv.values.period as string | undefined) ?? DEFAULT_PRESET });
        for (const filter of (inv.values.filter as string[] | undefined) ?? []) params.append('filter', filter);
        const site = `/sites/${seg(inv.positionals[0]!)}`;
        const kpis = await inv.client().request<StatsAnswer>('GET', `${site}/stats?${params}`);
        params.set('dimension', 'page');
        params.set('limit', String(TOP_PAGES));
        const pages = await inv.client().request<BreakdownAnswer>('GET', `${site}/breakdown?${params}`);
        inv.out.result({ stats: kpis, pages }, () => {
          const figures = formatTable(
            ['Figure', 'Value', 'Change'],
            // The KPIs the answer carries: time on page is the dashboard's only (raw=clip).
            METRICS.flatMap((metric) => {
              const kpi = kpis.stats[metric];
              return kpi ? [[METRIC_REGISTRY[metric].label, formatValue(metric, kpi.value), formatChange(metric, kpi)]] : [];
            }),
          );
          const top = formatTable(['Page', 'Visitors', 'Views'], pages.rows.map((row) => [row.key, count(row.visitors), formatValue('pageviews', row.views)]));
          return `${kpis.period.from} to ${kpis.period.to} (${kpis.period.tz})\n\n${figures}\n${top}`;
        });
      },
    },
  ],
};
