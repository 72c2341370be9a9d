// The web vitals measurer served as /js/v.js. The tracker (/js/t.js) loads it only for a script tag
// with data-vitals, so that every other page pays neither its bytes nor its request. It writes each
// measure into the object its own script element carries (`vitals`), which the tracker sends with
// the pageview's engage event and then empties: lcp, inp and ttfb in milliseconds, cls in
// thousandths, each only once the browser measured it (docs/tracker.md, Web vitals).

type Vitals = Record<string, number>;

const vitals = (document.currentScript as (HTMLScriptElement & { vitals?: Vitals }) | null)?.vitals;

if (vitals) {
  // A browser without PerformanceObserver, or one that does not know an entry type, measures none of it.
  const observe = (type: string, record: (entry: any) => void) => {
    try {
      new PerformanceObserver((list) => list.getEntries().forEach(record)).observe({ type, buffered: true, durationThreshold: 40 } as PerformanceObserverInit);
    } catch {}
  };
  // Time to first byte: the navigation's response start, from the start of the navigation.
  observe('navigation', (entry) => (vitals.ttfb = Math.round(entry.responseStart)));
  // The largest paint so far; the browser reports no larger one after the first input.
  observe('largest-contentful-paint', (entry) => (vitals.lcp = Math.round(entry.startTime)));
  // The slowest interaction so far (input delay, processing and the next paint): a page's INP while
  // it has fewer than 50 interactions, as most pages do.
  observe('event', (entry) => {
    if (entry.interactionId) vitals.inp = Math.max(vitals.inp || 0, Math.round(entry.duration));
  });
  // Layout shifts add up, but those within 500 ms of an input, which the visitor expects.
  let shifted = 0;
  observe('layout-shift', (entry) => {
    if (!entry.hadRecentInput) vitals.cls = Math.round((shifted += entry.value) * 1000);
  });
}

export {};
