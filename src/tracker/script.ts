// The browser tracker served as /js/t.js. Written for size: plain functions and short code paths,
// because every byte is downloaded by every visitor of every tracked page (the build fails above
// GZIP_BUDGET_BYTES of scripts/build-tracker.mjs). Small forms the minifier cannot find itself are
// written out, each with a comment saying why it holds.
// Its behaviour is documented in docs/tracker.md.

type Props = Record<string, unknown>;
type Svc = ((name: unknown, props?: unknown, options?: unknown) => void) & { q?: ArrayLike<unknown>[] };

// Features the build can leave out (scripts/build-tracker.mjs), only to print what each one costs.
declare const FEATURE_REVENUE: boolean;
declare const FEATURE_SCROLL_DEPTH: boolean;
declare const FEATURE_SPA: boolean;
declare const FEATURE_OUTBOUND: boolean;

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

// Blocked storage (privacy settings, sandboxed pages) throws on access: treat it as not opted out.
let optedOut: unknown;
try {
  optedOut = localStorage.svc_ignore;
} catch {}

// A page calling window.svc() must not break because the tracker stood down.
window.svc = () => {};
if (
  data.site &&
  !navigator.webdriver &&
  window == top &&
  optedOut != 'true' &&
  ('dev' in data || !/^(localhost|127\.[\d.]+|\[::1\])$/.test(location.hostname))
) {
  // <origin of the script>/api/e; an inline script has no src and a data: script no base, so URL
  // throws and the page's /api/e is used (a file: script resolves to file:///api/e, as /api/e would):
  // endpoint is '/api/e' before URL is called, and stays so when it throws.
  let endpoint: string | URL = data.api!;
  try {
    endpoint = endpoint || new URL((endpoint = '/api/e'), script!.src);
  } catch {}

  const send = (name?: string, props?: Props, revenue?: unknown) => {
    // undefined fields are left out by JSON.stringify: no `e` for pageviews, no `p` without props,
    // no `v` without revenue (sent as given: the server checks it and keeps the event without bad revenue).
    // The query keeps its parameters named utm_*, ref and source, as written in the address: every
    // other one goes with the ? or & before it, and a first kept one that followed an & takes the ?.
    const body = JSON.stringify({
      s: data.site,
      u: location.pathname + location.search.replace(/[?&](?!utm_|(ref|source)(=|&|$))[^&]*/g, '').replace(/^&/, '?'),
      r: document.referrer || undefined,
      w: screen.width,
      l: navigator.language,
      e: name,
      p: props,
      v: revenue,
    });
    // Text body: sendBeacon and fetch both send text/plain, a CORS "simple" request without preflight.
    // no-cors: the answer is never read, and a cors fetch would log a CORS error in the site's console.
    // fetch upper-cases the method 'post' (lower case: letters the rest of the script uses already).
    const post = () =>
      (navigator.sendBeacon && navigator.sendBeacon(endpoint, body)) ||
      fetch(endpoint, { method: 'post', body, keepalive: true, mode: 'no-cors' }).catch(() => {});
    // Sends before the document is parsed wait for DOMContentLoaded; listeners run in the order added.
    // readyState > 'l': "loading" (not "interactive" nor "complete").
    document.readyState > 'l' ? on('DOMContentLoaded', post) : post();
  };

  const track = (name: unknown, props?: unknown, options?: unknown) => {
    let kept: Props | undefined;
    // The reserved names (in any letter case): engage, outbound and download are the tracker's own
    // events, which the endpoint accepts, so only the tracker can refuse them from a page (pageview,
    // which the endpoint refuses, costs a word here rather than a request). The rest of the name rule
    // (^[a-z0-9_-]{1,64}$ once lowercased), the 2048-byte props and the 4096-byte body are the
    // endpoint's checks alone: it drops what breaks them, so the script does not carry them twice.
    if (typeof name == 'string' && !/^(pageview|engage|outbound|download)$/i.test(name)) {
      // for...in over null does nothing; it also reads enumerable inherited keys, as JSON.stringify would not.
      if (typeof props == 'object' && !Array.isArray(props))
        for (const key in props) {
          const value = (props as Props)[key];
          const type = typeof value;
          // /ng|ea|be/ matches "string", "boolean" and "number", and no other name typeof answers;
          // of these only "string" sorts after 's'. value - value is 0 for booleans and finite numbers (NaN
          // for NaN and ±Infinity). Strings are cut here: a long one must not take the body over 4096 bytes.
          if (key && !key[64] && /ng|ea|be/.test(type) && (type > 's' || (value as number) - (value as number) == 0))
            (kept = kept || {})[key] = type > 's' ? (value as string).slice(0, 500) : value;
        }
      send(name.toLowerCase(), kept, FEATURE_REVENUE ? ((options || 0) as { revenue?: unknown }).revenue : undefined);
    }
  };

  // Engagement of the current pageview: active time stops counting 30 s after the last interaction.
  // Each interaction adds the time since the one before it (or since the page was shown), at most 30 s.
  let activeMs: number;
  let counted: number;
  let maxDepth: number;
  // The engage props once sent for the current pageview.
  let engageSent: unknown;
  const measure = () => {
    // -counted is read before counted takes the current time.
    activeMs += Math.max(0, Math.min(-counted + (counted = Date.now()), 30000));
    // Rounded with |0, which also turns the NaN of an empty document into 0.
    if (FEATURE_SCROLL_DEPTH)
      maxDepth = Math.max(maxDepth, Math.min(100, (((scrollY + innerHeight) * 100) / document.documentElement.scrollHeight + 0.5) | 0));
  };
  const onBackground = () => {
    if (!engageSent) {
      measure();
      send('engage', (engageSent = { t: activeMs, d: maxDepth }));
    }
  };

  let lastPath: string;
  // The argument is ignored: the history patch below passes the original method's answer (undefined).
  const pageview = (_?: unknown) => {
    // lastPath is read before it takes the current pathname.
    if (lastPath != (lastPath = location.pathname)) {
      activeMs = maxDepth = engageSent = 0;
      counted = Date.now();
      send();
    }
  };

  if (FEATURE_SPA && data.spa != 'off') {
    for (const method of ['pushState', 'replaceState'] as const) {
      const original = history[method];
      history[method] = (...args: Parameters<History['pushState']>) => pageview(original.apply(history, args));
    }
    on('popstate', pageview);
  }

  if (data.engage != 'off') {
    on('visibilitychange', () => {
      if (document.hidden) onBackground();
      // Time spent in the background is not active time.
      else counted = Date.now();
    });
    on('pagehide', onBackground);
  }

  // One listener for the interactions that engagement counts and for clicks: data-svc-event,
  // outbound links and downloads. Middle clicks open links in a new tab and only fire auxclick:
  // button 0 is a click, 1 a middle click; key presses and scrolls have no button. (2 > event.button,
  // constant first: the form gzip finds more repeats in.)
  const onInput = (event: MouseEvent) => {
    measure();
    const target = event.target as Element;
    if (2 > event.button && target.closest) {
      const named = target.closest('[data-svc-event]');
      if (named && !event.button) track((named as HTMLElement).dataset.svcEvent);
      // A link without href (or one to mailto:, javascript:...) has no hostname.
      const link = target.closest('a') as HTMLAnchorElement | null;
      if (FEATURE_OUTBOUND && data.outbound != 'off' && link && link.hostname) {
        // One send for both kinds: fewer bytes than a send in each branch.
        const kind = link.hostname != location.hostname ? 'outbound' : /\.(pdf|zip|dmg|exe|pkg|msi|deb|rpm|apk|iso|rar|7z|t?gz|tar|csv|(doc|xls|ppt)x?|txt|mp[34]|mov|avi|w(mv|av))$/i.test(link.pathname) && 'download';
        if (kind) send(kind, { url: link.href });
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
