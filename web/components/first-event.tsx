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
import { isAccepted, type Outcome } from '../../src/ingest/drop-reasons.js';
import type { Installation, RecentEvent, SiteRow } from '../../src/core/management.js';
import { LOCAL_SITE_DOMAIN } from '../../src/core/vocabulary.js';
import { fill, pageLocale } from '../lib/i18n.js';
import { firstEventText } from '../lib/text/first-event.js';

const REFRESH_MS = 2000;
/** The last outcomes listed: enough to follow a test visit. */
const SHOWN = 10;

const known = (outcome: string): outcome is Outcome => Object.hasOwn(firstEventText.outcomeWords, outcome);
const inWords = (outcome: string) => (known(outcome) ? firstEventText.outcomeWords[outcome] : outcome);

function Outcomes({ events, timeZone }: { events: RecentEvent[]; timeZone: string }) {
  const time = (ts: number) => new Date(ts).toLocaleTimeString(pageLocale(), { timeZone, hour: 'numeric', minute: '2-digit', second: '2-digit' });
  return (
    <div role="log" aria-label={firstEventText.eventsReceived}>
      {events.length === 0 ? (
        <p class="muted">{firstEventText.noneYet}</p>
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
      <h2 id="first-event-title">{firstEventText.waitingHeading}</h2>
      {local ? (
        <p>{firstEventText.firstLocal}</p>
      ) : (
        <p>{fill(firstEventText.firstPublic, { domain: site.domain })}</p>
      )}
      {installation.localScriptUrl && !local && (
        <p class="error" role="note">
          {fill(firstEventText.localTracker, { url: installation.scriptUrl })}
        </p>
      )}
      <CopyBlock text={installation.snippet} label={firstEventText.trackerSnippet} />
      <h3>{firstEventText.eventsReceived}</h3>
      <Outcomes events={installation.events} timeZone={site.timezone} />
      <ErrorText message={live.error} />
    </section>
  );
}
