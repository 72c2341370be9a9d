// The realtime view of a site: visitors of the last five minutes, pageviews per minute over the last
// half hour, the top pages, referrers and countries, and the live feed; read again every 5 s while
// the tab is visible, and at once when it becomes visible again.
import type { ComponentChildren, VNode } from 'preact';
import { ErrorText, Loading } from './feedback.js';
import { KeyLabel } from '../lib/labels.js';
import { Table } from './table.js';
import { countText, formatCount } from '../lib/format.js';
import { keyLabel } from '../lib/labels.js';
import { useLive } from '../lib/live.js';
import { readSite } from '../lib/site.js';
import type { Dimension } from '../../src/core/vocabulary.js';
import type { Realtime, RealtimeRow } from '../../src/core/answers.js';
import type { SiteRow } from '../../src/core/management.js';
import { fill, pageLocale } from '../lib/i18n.js';
import { namesText } from '../lib/text/names.js';
import { realtimeText } from '../lib/text/realtime.js';

const REFRESH_MS = 5000;

/** Pageviews per minute as bars, over a count axis (0 to the busiest minute) and a clock axis in the site's zone. */
function Minutes({ points, clock }: { points: Realtime['pageviewsPerMinute']; clock(ts: number): string }) {
  const max = Math.max(1, ...points.map((p) => p.value));
  const total = points.reduce((n, p) => n + p.value, 0);
  const ticks = points.length > 0 ? [points[0]!, points[Math.floor(points.length / 2)]!, points[points.length - 1]!] : [];
  return (
    <figure class="minutes">
      <div class="minute-chart">
        <div class="y-axis" aria-hidden="true">
          <span>{formatCount(max)}</span>
          <span>0</span>
        </div>
        <div class="minute-bars" role="img" aria-label={countText(realtimeText.minutesChart, total, { minutes: points.length })}>
          {points.map((p) => (
            <span key={p.t} class="minute" title={`${clock(p.t)}: ${formatCount(p.value)}`} style={{ height: `${(p.value / max) * 100}%` }} />
          ))}
        </div>
        <div class="x-axis" aria-hidden="true">
          {ticks.map((p) => (
            <span key={p.t}>{clock(p.t)}</span>
          ))}
        </div>
      </div>
      <figcaption class="muted">
        {fill(realtimeText.minutesCaption, { minutes: points.length, total: formatCount(total) })}
      </figcaption>
    </figure>
  );
}

function TopList({ title, dimension, rows }: { title: string; dimension: Dimension; rows: RealtimeRow[] }) {
  return (
    <section class="card panel" aria-label={fill(realtimeText.titledWindow, { title })}>
      <h2>
        {title} <span class="muted window">· {realtimeText.topWindow}</span>
      </h2>
      <Table
        class="rows"
        columns={[title, { label: namesText.metricNames.visitors, numeric: true }]}
        rows={rows}
        empty={<p class="muted empty">{realtimeText.nobodyNow}</p>}
        row={(row) => (
          <tr key={row.key}>
            <td class="key">
              <KeyLabel dimension={dimension} value={row.key} />
            </td>
            <td class="num">{formatCount(row.visitors)}</td>
          </tr>
        )}
      />
    </section>
  );
}

/** The live view of a site inside the frame a page gives it (the site's own pages, or a shared link's). */
export function RealtimeView({ site, frame }: { site: SiteRow; frame(children: ComponentChildren): VNode }) {
  const { data, error } = useLive(() => readSite<Realtime>(site.id, { path: '/realtime' }), REFRESH_MS, [site.id]);
  const time = (ts: number) => new Date(ts).toLocaleTimeString(pageLocale(), { timeZone: site.timezone, hour: 'numeric', minute: '2-digit', second: '2-digit' });
  const clock = (ts: number) => new Date(ts).toLocaleTimeString(pageLocale(), { timeZone: site.timezone, hour: 'numeric', minute: '2-digit' });
  const day = (ts: number) => new Date(ts).toLocaleDateString(pageLocale(), { timeZone: site.timezone, day: 'numeric', month: 'short', year: 'numeric' });
  // A feed entry of another day than the answer's (in the site's zone) says its day too.
  const when = (ts: number) => (data && day(ts) !== day(data.generatedAt) ? `${day(ts)}, ${time(ts)}` : time(ts));
  return frame(
    <>
      <ErrorText message={error} />
      {!data ? (
        !error && <Loading />
      ) : (
        <>
          <section class="card live-head" aria-label={realtimeText.nowRegion}>
            <p class="current">
              <span class="pulse" aria-hidden="true" />
              <strong class="current-visitors">{formatCount(data.currentVisitors)}</strong> {countText(realtimeText.visitorsNow, data.currentVisitors)}
            </p>
            <Minutes points={data.pageviewsPerMinute} clock={clock} />
            <p class="muted updated">
              {fill(realtimeText.updatedNote, { time: time(data.generatedAt), zone: site.timezone, seconds: formatCount(REFRESH_MS / 1000) })}
            </p>
          </section>
          <div class="panels">
            <TopList title={realtimeText.topTitles.pages} dimension="page" rows={data.topPages} />
            <TopList title={realtimeText.topTitles.referrers} dimension="referrer" rows={data.topReferrers} />
            <TopList title={realtimeText.topTitles.countries} dimension="country" rows={data.topCountries} />
          </div>
          <section class="card" aria-labelledby="feed-title">
            <h2 id="feed-title">
              {realtimeText.liveFeed} <span class="muted window">· {realtimeText.topWindow}</span>
            </h2>
            {data.feed.length === 0 ? (
              <p class="muted">{realtimeText.noEventsNow}</p>
            ) : (
              <ol class="feed">
                {data.feed.map((e, i) => (
                  <li key={`${e.ts}-${i}`}>
                    <time class="muted" dateTime={new Date(e.ts).toISOString()}>
                      {when(e.ts)}
                    </time> <strong>{e.event}</strong> <span class="path">{e.path}</span>{' '}
                    <span class="muted">
                      {[e.referrer && fill(realtimeText.fromReferrer, { referrer: e.referrer }), e.city || keyLabel('country', e.country), e.browser, e.device].filter(Boolean).join(' · ')}
                    </span>
                  </li>
                ))}
              </ol>
            )}
          </section>
        </>
      )}
    </>,
  );
}

