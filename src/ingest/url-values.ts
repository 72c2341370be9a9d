// Dimension values derived from the event's URL and referrer (docs/api.md, Dimensions).
import { isLoopbackHost, LOCAL_SITE_DOMAIN } from '../entities/sites.js';

/**
 * Hostname match: equal to the site's domain or a subdomain of it, case-insensitive; the local
 * site (`localhost`) matches every loopback host.
 */
export function hostMatchesDomain(host: string, domain: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  const d = domain.toLowerCase();
  if (d === LOCAL_SITE_DOMAIN) return isLoopbackHost(h);
  return h === d || h.endsWith('.' + d);
}

/**
 * Results of a parse by input text. Inputs repeat, but scanners and unique URLs may send endless
 * variants, so the map starts over once it holds `max` entries.
 */
class ParseMemo<V> {
  private readonly results = new Map<string, V>();
  constructor(private readonly max = 10_000) {}
  get(input: string, parse: () => V): V {
    let result = this.results.get(input);
    if (result === undefined) {
      result = parse();
      if (this.results.size >= this.max) this.results.clear();
      this.results.set(input, result);
    }
    return result;
  }
}

// Each site's visitors send a handful of distinct Origin values: parse each once.
const originHosts = new ParseMemo<string | null>();

/** Host of an Origin header value, or null when it is not a usable http(s) origin. */
export function originHost(origin: string | undefined): string | null {
  if (!origin || origin === 'null' || origin.length > 300) return null;
  return originHosts.get(origin, () => parseOriginHost(origin));
}

function parseOriginHost(origin: string): string | null {
  try {
    const url = new URL(origin);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.hostname;
  } catch {
    return null;
  }
}

export interface PageLocation {
  host: string | null; // host of an absolute `u`, else null
  path: string; // pathname, no query or fragment
  search: string; // the query string, '' or starting with '?'
}

// A plain path: starts with one '/', no backslash, dot segment or percent sign that would need
// the URL parser's normalisation.
const SIMPLE_PATH = /^\/(?![\/\\])[^\\%]*$/;
const DOT_SEGMENT = /(^|\/)\.\.?(\/|$)/;
const MAX_PAGE = 2048;

/** Splits `u` (absolute URL or path + query) into host, path and query string. */
export function parsePageUrl(u: string): PageLocation | null {
  const hash = u.indexOf('#');
  const noHash = hash < 0 ? u : u.slice(0, hash);
  const q = noHash.indexOf('?');
  const rawPath = q < 0 ? noHash : noHash.slice(0, q);
  if (SIMPLE_PATH.test(rawPath) && !DOT_SEGMENT.test(rawPath) && !/[\s\u0000-\u001f]/.test(noHash)) {
    return { host: null, path: rawPath.slice(0, MAX_PAGE), search: q < 0 ? '' : noHash.slice(q) };
  }
  try {
    const absolute = /^https?:\/\//i.test(u);
    const url = new URL(u, 'http://relative.invalid');
    if (!absolute && url.hostname !== 'relative.invalid') return null; // '//evil.com/x' style
    return { host: absolute ? url.hostname : null, path: decodePath(url.pathname).slice(0, MAX_PAGE), search: url.search };
  } catch {
    return null;
  }
}

function decodePath(pathname: string): string {
  try {
    return decodeURI(pathname);
  } catch {
    return pathname;
  }
}

const MAX_VALUE = 256;
const cut = (v: string | null | undefined): string | null => {
  if (v === null || v === undefined) return null;
  const t = v.trim();
  return t.length === 0 ? null : t.slice(0, MAX_VALUE);
};

/**
 * The `hostname` dimension's value of a URL's host: lowercased, without a trailing dot (the URL
 * parser already left out the port), cut like other values; null for none.
 */
export function pageHostname(host: string | null): string | null {
  if (host === null) return null;
  const h = host.toLowerCase().replace(/\.$/, '');
  return h === '' ? null : h.slice(0, MAX_VALUE);
}

export function utmValues(query: URLSearchParams): { utmSource: string | null; utmMedium: string | null; utmCampaign: string | null } {
  return {
    utmSource: cut(query.get('utm_source')),
    utmMedium: cut(query.get('utm_medium')),
    utmCampaign: cut(query.get('utm_campaign')),
  };
}

/**
 * The referrer dimension: the `ref` or `source` query parameter if present, else the referrer's
 * host without `www.`; a referrer on the site's own domain is no referrer.
 */
export function referrerValue(query: URLSearchParams, referrer: string | null, siteDomain: string): string | null {
  const tagged = cut(query.get('ref')) ?? cut(query.get('source'));
  if (tagged) return tagged;
  if (!referrer) return null;
  // Referrers repeat (search engines, social sites, a site's own pages): parse each once per site.
  return referrerHosts.get(`${siteDomain} ${referrer}`, () => referrerHost(referrer, siteDomain));
}

const referrerHosts = new ParseMemo<string | null>();

function referrerHost(referrer: string, siteDomain: string): string | null {
  try {
    const url = new URL(referrer);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    const host = url.hostname.toLowerCase();
    if (hostMatchesDomain(host, siteDomain)) return null;
    return cut(host.startsWith('www.') ? host.slice(4) : host);
  } catch {
    return null;
  }
}
