// What each scale-out test sets up through the proxy, as an operator would: a site and a read key;
// and what it reads back: the read API's figures and the store's count.
import { until } from '../alerts/helpers/process.js';
import type { Deployment } from '../helpers/deployment.js';

export interface ScaleoutSite {
  orgId: number;
  siteId: string;
  domain: string;
  apiKey: string;
}

let sites = 0;

export async function createSite(deployment: Deployment): Promise<ScaleoutSite> {
  const org = await deployment.admin('POST', '/orgs', { name: `Scale-out ${++sites}` });
  if (org.status !== 201) throw new Error(`organisation: ${org.status} ${JSON.stringify(org.body)}`);
  const domain = `scaleout${sites}-${process.pid}.example`;
  const site = await deployment.admin('POST', `/orgs/${org.body.id}/sites`, { domain, name: `Site ${sites}`, timezone: 'UTC' });
  if (site.status !== 201) throw new Error(`site: ${site.status} ${JSON.stringify(site.body)}`);
  const key = await deployment.admin('POST', `/orgs/${org.body.id}/keys`, { name: 'scale-out test' });
  return { orgId: org.body.id, siteId: site.body.id, domain, apiKey: key.body.key };
}

export interface StatsFigures {
  visitors: number;
  pageviews: number;
  sessions: number;
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** `/v1/sites/:id/stats` through the proxy, over `period` (yesterday and today, UTC, by default), as plain numbers. */
export async function readStats(deployment: Deployment, site: ScaleoutSite, period = { from: day(-1), to: day(0) }): Promise<StatsFigures> {
  const res = await fetch(`${deployment.url}/v1/sites/${site.siteId}/stats?from=${period.from}&to=${period.to}`, { headers: { authorization: `Bearer ${site.apiKey}` } });
  const body = (await res.json()) as { stats: Record<keyof StatsFigures, { value: number }> };
  if (res.status !== 200) throw new Error(`/v1 stats: ${res.status} ${JSON.stringify(body)}`);
  return { visitors: body.stats.visitors.value, pageviews: body.stats.pageviews.value, sessions: body.stats.sessions.value };
}

/** The store's figures once it holds at least `events` events (a store not yet created holds none). */
export function storedAtLeast(deployment: Deployment, events: number, timeoutMs = 60_000) {
  return until(
    `${events} events stored`,
    async () => {
      const stored = await deployment.storedEvents().catch(() => undefined);
      return stored && stored.events >= events ? stored : undefined;
    },
    timeoutMs,
  );
}

export const ACCEPTED_BY_COLLECTION = /^svc_events_accepted_total\{source="collect"\} /;
export const DROPPED = /^svc_events_dropped_total\{/;
