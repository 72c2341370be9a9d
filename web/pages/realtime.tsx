// /sites/:siteId/realtime: visitors of the last five minutes, pageviews per minute over the last
// half hour, the top pages, referrers and countries, and the live feed; read again every 5 s
// while the tab is visible, and at once when it becomes visible again.
import { useEffect, useState } from 'preact/hooks';
import { ErrorText, Loading } from '../components/feedback.js';
import { SiteFrame } from '../components/site-frame.js';
import { Table } from '../components/table.js';
import { formatCount } from '../lib/format.js';
import { keyLabel } from '../lib/labels.js';
import { mountSitePage } from '../lib/site-page.js';
import type { Session } from '../lib/session.js';
import { readSite } from '../lib/site.js';
import type { Dimension } from '../lib/view-state.js';
import type { SiteRow } from '../lib/sites.js';

const REFRESH_MS = 5000;

interface Top {
  key: string;
  visitors: number;
  views: number;
}

interface Realtime {
  generatedAt: number;
  currentVisitors: number;
  pageviewsPerMinute: Array<{ t: number; value: number }>;
  topPages: Top[];
  topReferrers: Top[];
  topCountries: Top[];
  feed: Array<{ ts: number; event: string; path: string; referrer: string; country: string; city: string; browser: string; os: string; device: string }>;
}

/** Reads the panel now and every REFRESH_MS while the page is visible; the last answer stays while the next is read. */
function useRealtime(siteId: string): { data?: Realtime; error?: string } {
  const [state, setState] = useState<{ data?: Realtime; error?: string }>({});
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      clearTimeout(timer);
      try {
        const data = await readSite<Realtime>(siteId, { path: '/realtime' });
        if (!stopped) setState({ data });
      } catch (error) {
        if (!stopped) setState((previous) => ({ data: previous.data, error: error instanceof Error ? error.message : String(error) }));
      }
      if (!stopped && document.visibilityState === 'visible') timer = setTimeout(read, REFRESH_MS);
    };
    const onVisible = () => document.visibilityState === 'visible' && read();
    document.addEventListener('visibilitychange', onVisible);
    read();
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [siteId]);
  return state;
}

function Minutes({ points }: { points: Realtime['pageviewsPerMinute'] }) {
  const max = Math.max(1, ...points.map((p) => p.value));
  const total = points.reduce((n, p) => n + p.value, 0);
  return (
    <figure class="minutes">
      <div class="minute-bars" role="img" aria-label={`${formatCount(total)} pageviews in the last ${points.length} minutes`}>
        {points.map((p) => (
          <span key={p.t} class="minute" title={`${new Date(p.t).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' })}: ${formatCount(p.value)}`} style={{ height: `${(p.value / max) * 100}%` }} />
        ))}
      </div>
      <figcaption class="muted">
        Pageviews per minute, last {points.length} minutes ({formatCount(total)} in all)
      </figcaption>
    </figure>
  );
}

function TopList({ title, dimension, rows }: { title: string; dimension: Dimension; rows: Top[] }) {
  return (
    <section class="card panel" aria-label={title}>
      <h2>{title}</h2>
      <Table
        class="rows"
        columns={[title, { label: 'Visitors', numeric: true }]}
        rows={rows}
        empty={<p class="muted empty">Nobody right now.</p>}
        row={(row) => (
          <tr key={row.key}>
            <td class="key">{keyLabel(dimension, row.key)}</td>
            <td class="num">{formatCount(row.visitors)}</td>
          </tr>
        )}
      />
    </section>
  );
}

function Live({ session, site }: { session: Session; site: SiteRow }) {
  const { data, error } = useRealtime(site.id);
  const time = (ts: number) => new Date(ts).toLocaleTimeString(undefined, { timeZone: site.timezone, hour: 'numeric', minute: '2-digit', second: '2-digit' });
  return (
    <SiteFrame session={session} site={site} current="realtime">
      <ErrorText message={error} />
      {!data ? (
        !error && <Loading />
      ) : (
        <>
          <section class="card live-head" aria-label="Now">
            <p class="current">
              <span class="pulse" aria-hidden="true" />
              <strong class="current-visitors">{formatCount(data.currentVisitors)}</strong> {data.currentVisitors === 1 ? 'visitor' : 'visitors'} in the last 5 minutes
            </p>
            <Minutes points={data.pageviewsPerMinute} />
            <p class="muted updated">
              Updated {time(data.generatedAt)} ({site.timezone}); refreshes every {REFRESH_MS / 1000} s
            </p>
          </section>
          <div class="panels">
            <TopList title="Pages" dimension="page" rows={data.topPages} />
            <TopList title="Referrers" dimension="referrer" rows={data.topReferrers} />
            <TopList title="Countries" dimension="country" rows={data.topCountries} />
          </div>
          <section class="card" aria-labelledby="feed-title">
            <h2 id="feed-title">Live feed</h2>
            {data.feed.length === 0 ? (
              <p class="muted">No events in the last 30 minutes.</p>
            ) : (
              <ol class="feed">
                {data.feed.map((e, i) => (
                  <li key={`${e.ts}-${i}`}>
                    <time class="muted">{time(e.ts)}</time> <strong>{e.event}</strong> <span class="path">{e.path}</span>{' '}
                    <span class="muted">
                      {[e.referrer && `from ${e.referrer}`, e.city || keyLabel('country', e.country), e.browser, e.device].filter(Boolean).join(' · ')}
                    </span>
                  </li>
                ))}
              </ol>
            )}
          </section>
        </>
      )}
    </SiteFrame>
  );
}

mountSitePage((session, site) => <Live session={session} site={site} />);
