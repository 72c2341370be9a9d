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

const win = window as Window & { svc?: Svc };
const doc = document;
const nav = navigator;
const loc = location;
const script = doc.currentScript as HTMLScriptElement | null;
// The script's data-* attributes (none when the script is not known: currentScript is null).
const data: DOMStringMap = script ? script.dataset : {};
const site = data.site;
const stub = win.svc;
// Every listener is on window in the capture phase: events of the document (DOMContentLoaded,
// visibilitychange, clicks, scrolls of any element) pass through it first, even those that do not bubble.
const on = (type: string, listener: (event: any) => void) => addEventListener(type, listener, true);

// Blocked storage (privacy settings, sandboxed pages) throws on access: treat it as not opted out.
let optedOut: unknown;
try {
  optedOut = localStorage.svc_ignore;
} catch {}

// A page calling window.svc() must not break because the tracker stood down.
win.svc = () => {};
if (
  site &&
  !nav.webdriver &&
  win == top &&
  optedOut != 'true' &&
  ('dev' in data || !/^(localhost|127\.[\d.]+|\[::1\])$/.test(loc.hostname))
) {
  // <origin of the script>/api/e; an inline script has no src and a data: script no base, so URL
  // throws and the page's /api/e is used (a file: script resolves to file:///api/e, as /api/e would).
  let endpoint: string | URL = data.api!;
  try {
    endpoint = endpoint || new URL('/api/e', script!.src);
  } catch {
    endpoint = '/api/e';
  }

  const byteLength = (text: string) => new Blob([text]).size;

  const send = (name?: string, props?: Props, revenue?: unknown) => {
    // The query's parameters named utm_*, ref and source, as written in the address.
    const query = loc.search
      .slice(1)
      .split('&')
      .filter((pair) => /^(utm_|(ref|source)(=|$))/.test(pair))
      .join('&');
    // undefined fields are left out by JSON.stringify: no `e` for pageviews, no `p` without props,
    // no `v` without revenue (sent as given: the server checks it and keeps the event without bad revenue).
    const body = JSON.stringify({
      s: site,
      u: loc.pathname + (query && '?' + query),
      r: doc.referrer || undefined,
      w: screen.width,
      l: nav.language,
      e: name,
      p: props,
      v: revenue,
    });
    // Text body: sendBeacon and fetch both send text/plain, a CORS "simple" request without preflight.
    // no-cors: the answer is never read, and a cors fetch would log a CORS error in the site's console.
    const post = () =>
      (nav.sendBeacon && nav.sendBeacon(endpoint, body)) ||
      fetch(endpoint, { method: 'POST', body, keepalive: true, mode: 'no-cors' }).catch(() => {});
    // Sends before the document is parsed wait for DOMContentLoaded; listeners run in the order added.
    // readyState > 'l': "loading" (not "interactive" nor "complete").
    if (byteLength(body) <= 4096) doc.readyState > 'l' ? on('DOMContentLoaded', post) : post();
  };

  const track = (name: unknown, props?: unknown, options?: unknown) => {
    let kept: Props | undefined;
    // Matched case-insensitively, then lowercased: [\w-] with the i flag is [a-z0-9_-] after lowercasing.
    if (typeof name == 'string' && /^(?!(pageview|engage|outbound|download)$)[\w-]{1,64}$/i.test(name)) {
      // for...in over null does nothing; it also reads enumerable inherited keys, as JSON.stringify would not.
      if (typeof props == 'object' && !Array.isArray(props))
        for (const key in props) {
          let value = (props as Props)[key];
          const type = typeof value;
          if (type == 'string') value = (value as string).slice(0, 500);
          // /ng|ea/: "string" or "boolean" among the names typeof answers.
          // value - value is 0 for finite numbers only (NaN for NaN and ±Infinity).
          if (key && !key[64] && (type == 'number' ? (value as number) - (value as number) == 0 : /ng|ea/.test(type)))
            (kept = kept || {})[key] = value;
        }
      if (!kept || byteLength(JSON.stringify(kept)) <= 2048)
        send(name.toLowerCase(), kept, FEATURE_REVENUE ? ((options || 0) as { revenue?: unknown }).revenue : undefined);
    }
  };

  // Engagement of the current pageview: active time stops counting 30 s after the last interaction.
  // Each interaction adds the time since the one before it (or since the page was shown), at most 30 s.
  let activeMs: number;
  let counted: number;
  let maxDepth: number;
  let engageSent: unknown;
  const measure = () => {
    // -counted is read before counted takes the current time.
    activeMs += Math.max(0, Math.min(-counted + (counted = Date.now()), 30000));
    // Rounded with |0, which also turns the NaN of an empty document into 0.
    if (FEATURE_SCROLL_DEPTH)
      maxDepth = Math.max(maxDepth, Math.min(100, (((scrollY + innerHeight) * 100) / doc.documentElement.scrollHeight + 0.5) | 0));
  };
  const onBackground = () => {
    if (!engageSent) {
      measure();
      send('engage', { t: activeMs, d: maxDepth });
      engageSent = 1;
    }
  };

  let lastPath: string;
  const pageview = () => {
    if (lastPath != loc.pathname) {
      lastPath = loc.pathname;
      activeMs = maxDepth = engageSent = 0;
      counted = Date.now();
      send();
    }
  };

  if (FEATURE_SPA && data.spa != 'off') {
    for (const method of ['pushState', 'replaceState'] as const) {
      const original = history[method];
      history[method] = (...args: Parameters<History['pushState']>) => {
        original.apply(history, args);
        pageview();
      };
    }
    on('popstate', pageview);
  }

  if (data.engage != 'off') {
    on('visibilitychange', () => {
      if (doc.hidden) onBackground();
      // Time spent in the background is not active time.
      else counted = Date.now();
    });
    on('pagehide', onBackground);
  }

  // One listener for the interactions that engagement counts and for clicks: data-svc-event,
  // outbound links and downloads. Middle clicks open links in a new tab and only fire auxclick:
  // button 0 is a click, 1 a middle click; key presses and scrolls have no button.
  const onInput = (event: MouseEvent) => {
    measure();
    const target = event.target as Element;
    if (event.button < 2 && target.closest) {
      const named = target.closest('[data-svc-event]');
      if (named && !event.button) track((named as HTMLElement).dataset.svcEvent);
      const link = target.closest('a[href]') as HTMLAnchorElement | null;
      if (FEATURE_OUTBOUND && data.outbound != 'off' && link && link.hostname) {
        const kind =
          link.hostname != loc.hostname
            ? 'outbound'
            : /\.(pdf|zip|dmg|exe|pkg|msi|deb|rpm|apk|iso|rar|7z|t?gz|tar|csv|(doc|xls|ppt)x?|txt|mp[34]|mov|avi|wmv|wav)$/i.test(link.pathname) &&
              'download';
        if (kind) send(kind, { url: link.href });
      }
    }
  };
  for (const type of ['click', 'auxclick', 'keydown', 'scroll']) on(type, onInput);

  pageview();
  win.svc = track;
  for (const args of (stub && stub.q) || []) track.apply(0, args as Parameters<typeof track>);
}

export {};
