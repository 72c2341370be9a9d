// The site dashboard of a site without any event: the tracker tag to paste (as the settings page
// and `svc snippet` give it), told apart for the local site (localhost) and a public one; a warning
// when a public site's tag loads the tracker from an address visitors' browsers cannot reach; and
// the site's collection outcomes as they come (as `svc watch` lists them), read again every 2 s
// until an event is stored.
import { useEffect } from 'preact/hooks';
import { CopyBlock } from './copy.js';
import { ErrorText } from './feedback.js';
import { useLive } from '../lib/live.js';
import { readSite } from '../lib/site.js';
import { INSTALLATION } from '../../src/core/dashboard-reads.js';
import { isAccepted, OUTCOME_WORDS, type Outcome } from '../../src/ingest/drop-reasons.js';
import type { Installation, RecentEvent, SiteRow } from '../../src/core/management.js';
import { LOCAL_SITE_DOMAIN } from '../../src/entities/sites.js';
import { pageLocale } from '../lib/i18n.js';

const REFRESH_MS = 2000;
/** The last outcomes listed: enough to follow a test visit. */
const SHOWN = 10;

const known = (outcome: string): outcome is Outcome => Object.hasOwn(OUTCOME_WORDS, outcome);
const inWords = (outcome: string) => (known(outcome) ? OUTCOME_WORDS[outcome] : outcome);

function Outcomes({ events, timeZone }: { events: RecentEvent[]; timeZone: string }) {
  const time = (ts: number) => new Date(ts).toLocaleTimeString(pageLocale(), { timeZone, hour: 'numeric', minute: '2-digit', second: '2-digit' });
  return (
    <div role="log" aria-label="Events received">
      {events.length === 0 ? (
        <p class="muted">None yet: open a page of the site that carries the tag.</p>
      ) : (
        <ol class="feed outcomes">
          {events.slice(-SHOWN).map((e) => (
            <li key={e.seq}>
              <time dateTime={new Date(e.ts).toISOString()}>{time(e.ts)}</time>{' '}
              <strong class={known(e.outcome) && isAccepted(e.outcome) ? 'outcome ok' : 'outcome dropped'}>{inWords(e.outcome)}</strong>
              {e.browser && <span class="muted"> · {e.browser}</span>}
              {e.path && <span class="path"> {e.path}</span>}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

/** `first`: the answer that found no event; `onStored` is called once an event is stored. */
export function FirstEvent({ site, first, onStored }: { site: SiteRow; first: Installation; onStored(): void }) {
  const live = useLive(() => readSite<Installation>(site.id, INSTALLATION), REFRESH_MS, [site.id]);
  const installation = live.data ?? first;
  // The local site's pages load the tracker from this machine too: a local address is what they need.
  const local = site.domain === LOCAL_SITE_DOMAIN;
  useEffect(() => {
    if (installation.hasEvents) onStored();
  }, [installation.hasEvents]);
  return (
    <section class="card first-event" aria-labelledby="first-event-title">
      <h2 id="first-event-title">Waiting for the first event</h2>
      {local ? (
        <p>
          This site is for this machine only: it takes events from pages at localhost, 127.x.x.x or [::1], on any port. Paste this tag into the &lt;head&gt; of the pages you try it on; with its data-dev, the browser console says why the tracker sends nothing when it does not. The figures show here once the first event is stored.
        </p>
      ) : (
        <p>
          Paste this tag into the &lt;head&gt; of every page of {site.domain}, a public site. The figures show here once the first event is stored.
        </p>
      )}
      {installation.localScriptUrl && !local && (
        <p class="error" role="note">
          The tag loads the tracker from {installation.scriptUrl}, a local address that visitors' browsers cannot reach. Set SVC_PUBLIC_URL to the address browsers reach this service at, restart it, and copy the tag again.
        </p>
      )}
      <CopyBlock text={installation.snippet} label="Tracker snippet" />
      <h3>Events received</h3>
      <Outcomes events={installation.events} timeZone={site.timezone} />
      <ErrorText message={live.error} />
    </section>
  );
}
