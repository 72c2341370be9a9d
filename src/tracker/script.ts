// The browser tracker served as /js/t.js. Every visitor of every tracked page downloads it, so the
// build holds it to GZIP_BUDGET_BYTES of scripts/build-tracker.mjs; within that budget it is written
// for its reader: each rule of the collection contract reads as the rule it is.
// Its behaviour is documented in docs/tracker.md.

type Props = Record<string, unknown>;
type Svc = ((name: unknown, props?: unknown, options?: unknown) => void) & { q?: ArrayLike<unknown>[] };

// Parts the build can leave out (scripts/build-tracker.mjs), only to print what each one costs:
// the served script always has them all.
declare const FEATURE_REVENUE: boolean;
declare const FEATURE_SCROLL_DEPTH: boolean;
declare const FEATURE_SPA: boolean;
declare const FEATURE_OUTBOUND: boolean;
declare const FEATURE_VITALS: boolean;
declare const CHECK_NAME_RULE: boolean;
declare const CHECK_PROPS_RULES: boolean;
declare const CHECK_SIZE_LIMITS: boolean;

// The collection contract's rules for what the tracker sends; the endpoint checks them again
// (src/ingest/event-shape.ts), and the tracker sends nothing that breaks them.
const EVENT_NAME = /^[a-z0-9_-]{1,64}$/;
// The tracker's own events: a page cannot send them as custom events.
const RESERVED_NAME = /^(pageview|engage|outbound|download)$/;
const MAX_PROP_KEY_LENGTH = 64;
const MAX_PROP_STRING_LENGTH = 500;
const MAX_PROPS_BYTES = 2048;
const MAX_BODY_BYTES = 4096;

// window, document, navigator and location are written out rather than aliased: gzip stores each
// repeat of a long name as a short back-reference, which costs less than the alias's declaration.
// window as the script reads it: with the page's svc (the queue stub, then the tracker's own).
declare const window: Window & typeof globalThis & { svc?: Svc };
const script = document.currentScript as HTMLScriptElement | null;
// The script's data-* attributes (none when the script is not known: currentScript is null).
const data: DOMStringMap = script ? script.dataset : {};
const stub = window.svc;
// Every listener is on window in the capture phase: events of the document (DOMContentLoaded,
// visibilitychange, clicks, scrolls of any element) pass through it first, even those that do not bubble.
const on = (type: string, listener: (event: any) => void) => addEventListener(type, listener, true);

// The limits count bytes of UTF-8, the encoding a body is sent in: a Blob holds its text as UTF-8.
const utf8Bytes = (text: string) => new Blob([text]).size;

// Whether a name, already lowercased, is one a page may send as a custom event.
const isValidEventName = (name: string) => !CHECK_NAME_RULE || (EVENT_NAME.test(name) && !RESERVED_NAME.test(name));

// A prop value the contract keeps: a string, a finite number or a boolean. Nested objects,
// arrays, null, NaN and ±Infinity are left out.
const isKeptValue = (value: unknown) =>
  typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && isFinite(value));

// A prop string cut to its first 500 characters as the endpoint cuts it: never between the two
// halves of a character outside the BMP (an emoji), which would leave half a character behind.
const cutString = (text: string) => {
  const cut = text.slice(0, MAX_PROP_STRING_LENGTH);
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
};

// The props the contract keeps of a custom event's props argument, undefined when none is left.
const keptProps = (props: unknown): Props | undefined => {
  if (!CHECK_PROPS_RULES) return props as Props;
  let kept: Props | undefined;
  // for...in over null does nothing; it also reads enumerable inherited keys, as JSON.stringify would not.
  if (typeof props === 'object' && !Array.isArray(props)) {
    for (const key in props) {
      const value = (props as Props)[key];
      if (key.length >= 1 && key.length <= MAX_PROP_KEY_LENGTH && isKeptValue(value)) {
        kept = kept || {};
        kept[key] = typeof value === 'string' ? cutString(value) : value;
      }
    }
  }
  return kept;
};

// The query keeps its parameters named utm_*, ref and source, as written in the address (no decoding).
const isCampaignParameter = (parameter: string) => /^(utm_|(ref|source)(=|$))/.test(parameter);

// An address resolved against the script's (`/api/e`: <origin of the script>/api/e; `v.js`: the file
// beside it), or left for the page to resolve when the script's address has none: an inline script
// has no src and a data: script no base, so URL throws (a file: script resolves to file:///api/e,
// as /api/e would).
const besideScript = (address: string): string | URL => {
  try {
    return new URL(address, script!.src);
  } catch {
    return address;
  }
};

// Blocked storage (privacy settings, sandboxed pages) throws on access: treat it as not opted out.
let optedOut: unknown;
try {
  optedOut = localStorage.svc_ignore;
} catch {}

// Why the tracker stands down whatever the page's host ('' when it does not). A page being built
// carries data-dev: the console tells its developer why nothing is sent.
const standDown = navigator.webdriver ? 'navigator.webdriver' : window !== top ? 'in a frame' : optedOut === 'true' ? 'localStorage.svc_ignore' : '';
if (standDown && 'dev' in data) console.info('svc: not tracking, ' + standDown);

// A page calling window.svc() must not break because the tracker stood down.
window.svc = () => {};
if (data.site && !standDown && ('dev' in data || !/^(localhost|127\.[\d.]+|\[::1\])$/.test(location.hostname))) {
  const endpoint = data.api || besideScript('/api/e');

  const send = (name?: string, props?: Props, revenue?: unknown) => {
    const query = location.search.slice(1).split('&').filter(isCampaignParameter).join('&');
    // undefined fields are left out by JSON.stringify: no `e` for pageviews, no `p` without props,
    // no `v` without revenue (sent as given: the server checks it and keeps the event without bad revenue).
    const body = JSON.stringify({
      s: data.site,
      u: location.pathname + (query ? '?' + query : ''),
      r: document.referrer || undefined,
      w: screen.width,
      l: navigator.language,
      e: name,
      p: props,
      v: revenue,
    });
    if (CHECK_SIZE_LIMITS && utf8Bytes(body) > MAX_BODY_BYTES) return;
    // Text body: sendBeacon and fetch both send text/plain, a CORS "simple" request without preflight.
    // no-cors: the answer is never read, and a cors fetch would log a CORS error in the site's console.
    const post = () =>
      (navigator.sendBeacon && navigator.sendBeacon(endpoint, body)) ||
      fetch(endpoint, { method: 'POST', body, keepalive: true, mode: 'no-cors' }).catch(() => {});
    // Sends before the document is parsed wait for DOMContentLoaded; listeners run in the order added.
    if (document.readyState === 'loading') on('DOMContentLoaded', post);
    else post();
  };

  const track = (name: unknown, props?: unknown, options?: unknown) => {
    if (typeof name !== 'string') return;
    const eventName = name.toLowerCase();
    if (!isValidEventName(eventName)) return;
    const kept = keptProps(props);
    if (CHECK_SIZE_LIMITS && kept && utf8Bytes(JSON.stringify(kept)) > MAX_PROPS_BYTES) return;
    const revenue = FEATURE_REVENUE && options ? (options as { revenue?: unknown }).revenue : undefined;
    send(eventName, kept, revenue);
  };

  // Web vitals (data-vitals): /js/v.js, beside this script and loaded only then, measures the page
  // load's into the object its script element carries; the first engage event sends them.
  let vitals: Props = {};
  if (FEATURE_VITALS && 'vitals' in data) {
    const measurer = document.createElement('script') as HTMLScriptElement & { vitals: Props };
    // A URL's text is its address: src takes either.
    measurer.src = besideScript('v.js') as string;
    measurer.vitals = vitals;
    document.head.append(measurer);
  }

  // Engagement of the current pageview: active time stops counting 30 s after the last interaction.
  // Each interaction adds the time since the one before it (or since the page was shown), at most 30 s.
  let activeMs: number;
  let counted: number;
  let maxDepth: number;
  let engageSent: boolean;
  const measure = () => {
    const now = Date.now();
    activeMs += Math.max(0, Math.min(now - counted, 30000));
    counted = now;
    if (FEATURE_SCROLL_DEPTH) {
      // The bottom of the viewport over the document's height, in whole percent; an empty document has no height.
      const height = document.documentElement.scrollHeight;
      const depth = height ? Math.min(100, Math.round(((scrollY + innerHeight) * 100) / height)) : 0;
      maxDepth = Math.max(maxDepth, depth);
    }
  };
  const onBackground = () => {
    if (!engageSent) {
      engageSent = true;
      measure();
      vitals.t = activeMs;
      vitals.d = maxDepth;
      send('engage', vitals);
      vitals = {};
    }
  };

  let lastPath: string;
  const pageview = () => {
    if (location.pathname !== lastPath) {
      lastPath = location.pathname;
      activeMs = 0;
      maxDepth = 0;
      engageSent = false;
      counted = Date.now();
      send();
    }
  };

  if (FEATURE_SPA && data.spa !== 'off') {
    for (const method of ['pushState', 'replaceState'] as const) {
      const original = history[method];
      history[method] = (...args: Parameters<History['pushState']>) => {
        original.apply(history, args);
        pageview();
      };
    }
    on('popstate', pageview);
  }

  if (data.engage !== 'off') {
    on('visibilitychange', () => {
      if (document.hidden) onBackground();
      // Time spent in the background is not active time.
      else counted = Date.now();
    });
    on('pagehide', onBackground);
  }

  // One listener for the interactions that engagement counts and for clicks: data-svc-event,
  // outbound links and downloads. Middle clicks open links in a new tab and only fire auxclick.
  const onInput = (event: MouseEvent) => {
    measure();
    const target = event.target as Element;
    // Key presses and scrolls have no button; a right click (2) opens a menu.
    const isClick = event.button === 0;
    const isMiddleClick = event.button === 1;
    if ((isClick || isMiddleClick) && target.closest) {
      const named = target.closest('[data-svc-event]');
      if (named && isClick) track((named as HTMLElement).dataset.svcEvent);
      // A link without href (or one to mailto:, javascript:...) has no hostname.
      const link = target.closest('a') as HTMLAnchorElement | null;
      if (FEATURE_OUTBOUND && data.outbound !== 'off' && link && link.hostname) {
        if (link.hostname !== location.hostname) send('outbound', { url: link.href });
        else if (/\.(pdf|zip|dmg|exe|pkg|msi|deb|rpm|apk|iso|rar|7z|t?gz|tar|csv|(doc|xls|ppt)x?|txt|mp[34]|mov|avi|w(mv|av))$/i.test(link.pathname))
          send('download', { url: link.href });
      }
    }
  };
  for (const type of ['click', 'auxclick', 'keydown', 'scroll']) on(type, onInput);

  pageview();
  window.svc = track;
  // The queue holds the stub's arguments objects, which spread as arrays do.
  for (const args of (stub && stub.q) || []) track(...(args as Parameters<typeof track>));
}

export {};
