// The English catalogue's words of a site without any event yet: the tracker snippet to paste and the
// collection outcomes as they come (web/components/first-event.tsx).
export const firstEvent = {
  waitingHeading: 'Waiting for the first event',
  eventsReceived: 'Events received',
  noneYet: 'None yet: open a page of the site that carries the tag.',
  trackerSnippet: 'Tracker snippet',
  firstLocal:
    'This site is for this machine only: it takes events from pages at localhost, 127.x.x.x or [::1], on any port. Paste this tag into the <head> of the pages you try it on; with its data-dev, the browser console says why the tracker sends nothing when it does not. The figures show here once the first event is stored.',
  firstPublic: 'Paste this tag into the <head> of every page of {domain}, a public site. The figures show here once the first event is stored.',
  localTracker:
    "The tag loads the tracker from {url}, a local address that visitors' browsers cannot reach. Set SVC_PUBLIC_URL to the address browsers reach this service at, restart it, and copy the tag again.",
  /** Each collection outcome (src/ingest/drop-reasons.ts: first-event.tsx reads one by its `Outcome`), for a site owner checking an installation (docs/admin-api.md, "Recent collection outcomes"). */
  outcomeWords: {
    accepted: 'accepted',
    accepted_without_revenue: 'accepted without its revenue: the amount is not a number ≥ 0 with at most 2 decimals, the currency not three letters, or the event a built-in one',
    too_large: 'dropped: the event is over 4 KB',
    bad_json: 'dropped: the event is not JSON',
    bad_shape: "dropped: the event breaks the tracker's rules",
    unknown_site: 'dropped: no active site has this id',
    origin_mismatch: "dropped: sent from a page outside the site's domain",
    gpc: 'dropped: the browser asks not to be tracked (Global Privacy Control) and the site honours it',
    bot_ua: 'dropped: the browser says it is a bot or an automated browser',
    bot_datacenter: 'dropped: sent from a hosting network, as bots are',
    rate_limited: 'dropped: too many events from one network',
    bad_name: 'dropped: the event name is not allowed',
    bad_props: "dropped: the event's properties break the tracker's rules",
  },
};
