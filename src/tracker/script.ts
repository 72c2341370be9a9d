// The browser tracker served as /js/t.js. Written for size: plain functions and short code paths,
// because every byte is downloaded by every visitor of every tracked page (budget: 1536 B gzipped).
// Its behaviour is documented in docs/tracker.md.

type Props = Record<string, string | number | boolean>;
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
const script = doc.currentScript;
const attr = (name: string) => script && script.getAttribute('data-' + name);
const site = attr('site');
const stub = win.svc;

// Blocked storage (privacy settings, sandboxed pages) throws on access: treat it as not opted out.
let optedOut: unknown;
try {
  optedOut = localStorage.getItem('svc_ignore') == 'true';
} catch {}

if (
  !site ||
  nav.webdriver ||
  win != win.top ||
  optedOut ||
  (!script!.hasAttribute('data-dev') && /^(localhost|127(\.\d+){3}|\[::1\])$/.test(loc.hostname))
) {
  // A page calling window.svc() must not break because the tracker stood down.
  win.svc = () => {};
} else {
  let api = attr('api');
  if (!api) {
    // An inline script has no src (URL throws); a file: or data: page has the opaque origin "null".
    try {
      const origin = new URL((script as HTMLScriptElement).src).origin;
      api = origin != 'null' ? origin + '/api/e' : '';
    } catch {}
    api = api || '/api/e';
  }
  const endpoint = api;

  // Text body: sendBeacon and fetch both send text/plain, a CORS "simple" request without preflight.
  // no-cors: the answer is never read, and a cors fetch would log a CORS error in the site's console.
  const post = (body: string) => {
    try {
      if (nav.sendBeacon(endpoint, body)) return;
    } catch {}
    fetch(endpoint, { method: 'POST', body, keepalive: true, mode: 'no-cors' }).catch(() => {});
  };

  const byteLength = (text: string) => new Blob([text]).size;

  const currentUrl = () => {
    const kept = new URLSearchParams();
    new URLSearchParams(loc.search).forEach((value, key) => {
      if (/^(utm_|ref$|source$)/.test(key)) kept.append(key, value);
    });
    const query = '' + kept;
    return loc.pathname + (query ? '?' + query : '');
  };

  const send = (name?: string, props?: Props, revenue?: unknown) => {
    // undefined fields are left out by JSON.stringify: no `e` for pageviews, no `p` without props,
    // no `v` without revenue (sent as given: the server checks it and keeps the event without bad revenue).
    const body = JSON.stringify({
      s: site,
      u: currentUrl(),
      r: doc.referrer || undefined,
      w: screen.width,
      l: nav.language,
      e: name,
      p: props,
      v: revenue,
    });
    if (byteLength(body) > 4096) return;
    // Sends before the document is parsed wait for DOMContentLoaded; listeners run in the order added.
    if (doc.readyState == 'loading') doc.addEventListener('DOMContentLoaded', () => post(body));
    else post(body);
  };

  const track = (rawName: unknown, props?: unknown, options?: unknown) => {
    const name = typeof rawName == 'string' && rawName.toLowerCase();
    if (!name || !/^[a-z0-9_-]{1,64}$/.test(name) || /^(pageview|engage|outbound|download)$/.test(name)) return;
    let kept: Props | undefined;
    if (props && typeof props == 'object' && !Array.isArray(props)) {
      for (let [key, value] of Object.entries(props)) {
        if (typeof value == 'string') value = value.slice(0, 500);
        else if (typeof value != 'boolean' && !(typeof value == 'number' && isFinite(value))) continue;
        if (key && key.length <= 64) (kept = kept || {})[key] = value;
      }
      if (kept && byteLength(JSON.stringify(kept)) > 2048) return;
    }
    send(name, kept, FEATURE_REVENUE ? ((options || 0) as { revenue?: unknown }).revenue : undefined);
  };

  // Engagement of the current pageview: active time stops counting 30 s after the last interaction.
  const now = () => Date.now();
  let activeMs: number;
  let countedUntil: number;
  let lastInteraction: number;
  let maxDepth: number;
  let engageSent: boolean;
  const measure = () => {
    const t = now();
    activeMs += Math.max(0, Math.min(t, lastInteraction + 30000) - countedUntil);
    countedUntil = t;
    if (FEATURE_SCROLL_DEPTH) maxDepth = Math.max(maxDepth, Math.min(100, Math.round(((scrollY + innerHeight) / doc.documentElement.scrollHeight) * 100)) || 0);
  };
  const interact = () => {
    measure();
    lastInteraction = now();
  };
  const rearmEngage = () => {
    activeMs = maxDepth = 0;
    engageSent = false;
    countedUntil = lastInteraction = now();
  };

  const onBackground = () => {
    if (!engageSent) {
      measure();
      engageSent = true;
      send('engage', { t: activeMs, d: maxDepth });
    }
  };

  let lastPath: string;
  const pageview = () => {
    if (lastPath == loc.pathname) return;
    lastPath = loc.pathname;
    rearmEngage();
    send();
  };

  if (FEATURE_SPA && attr('spa') != 'off') {
    for (const method of ['pushState', 'replaceState'] as const) {
      const original = history[method];
      history[method] = function (this: History, ...args: Parameters<History['pushState']>) {
        original.apply(this, args);
        pageview();
      };
    }
    addEventListener('popstate', pageview);
  }

  if (attr('engage') != 'off') {
    for (const type of ['click', 'keydown', 'scroll']) addEventListener(type, interact, { capture: true, passive: true });
    doc.addEventListener('visibilitychange', () => {
      if (doc.visibilityState == 'hidden') onBackground();
      // Time spent in the background is not active time.
      else countedUntil = lastInteraction = now();
    });
    addEventListener('pagehide', onBackground);
  }

  const outboundOn = attr('outbound') != 'off';
  const onClick = (event: MouseEvent) => {
    // Middle clicks open links in a new tab and only fire auxclick.
    if (event.type == 'auxclick' && event.button != 1) return;
    const target = event.target as Element;
    if (!target.closest) return;
    const named = target.closest('[data-svc-event]');
    if (named && event.type == 'click') track(named.getAttribute('data-svc-event'));
    const link = target.closest('a[href]') as HTMLAnchorElement | null;
    if (FEATURE_OUTBOUND && outboundOn && link && link.hostname) {
      if (link.hostname != loc.hostname) send('outbound', { url: link.href });
      else if (
        /\.(pdf|zip|dmg|exe|pkg|msi|deb|rpm|apk|iso|rar|7z|gz|tgz|tar|csv|docx?|xlsx?|pptx?|txt|mp3|mp4|mov|avi|wmv|wav)$/i.test(
          link.pathname,
        )
      )
        send('download', { url: link.href });
    }
  };
  doc.addEventListener('click', onClick, true);
  doc.addEventListener('auxclick', onClick, true);

  pageview();
  win.svc = track;
  if (stub && stub.q) for (const args of stub.q) track.apply(0, args as Parameters<typeof track>);
}

export {};
