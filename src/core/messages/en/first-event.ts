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
};
