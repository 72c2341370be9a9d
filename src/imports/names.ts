// How the names of Plausible's export become svc's keys (docs/imports.md, "Mapping"): one table per
// dimension, unknown names kept as they are.
import { GEONAMES_KEY_PREFIX } from '../core/place-names.js';
import { NONE_KEY } from '../core/vocabulary.js';

/** Plausible's device classes → svc's. */
export const DEVICE_NAMES: Readonly<Record<string, string>> = { Desktop: 'desktop', Laptop: 'desktop', Mobile: 'mobile', Tablet: 'tablet' };

/** Plausible's browser names → svc's browser families (src/ingest/user-agent.ts). */
export const BROWSER_NAMES: Readonly<Record<string, string>> = {
  'Mobile Safari': 'Safari',
  'Chrome Webview': 'Chrome',
  'Chrome WebView': 'Chrome',
  'Firefox Mobile': 'Firefox',
  'Microsoft Edge': 'Edge',
  'Opera Mini': 'Opera',
  'Samsung Browser': 'Samsung Internet',
  'Yandex Browser': 'Yandex',
  'Brave Browser': 'Brave',
  'DuckDuckGo Privacy Browser': 'DuckDuckGo',
  'Internet Explorer': 'Internet Explorer',
  'UC Browser': 'UC Browser',
};

/** Plausible's operating system names → svc's OS families (src/ingest/user-agent.ts). */
export const OS_NAMES: Readonly<Record<string, string>> = {
  Mac: 'macOS',
  'Mac OS': 'macOS',
  'GNU/Linux': 'Linux',
  Ubuntu: 'Linux',
  Fedora: 'Linux',
  Debian: 'Linux',
  'Chrome OS': 'ChromeOS',
  'Chromium OS': 'ChromeOS',
  iPadOS: 'iOS',
  'Windows Phone': 'Windows',
  HarmonyOS: 'Android',
};

/**
 * svc's families → the names Plausible itself gives them (its dashboard's and its export's), for the
 * families whose name differs: an export imported into Plausible shows its own names, and the tables
 * above read each of them back to the family. A family not listed is written as it is (`Chrome`,
 * `Windows`, `iOS`: the same word in both).
 */
export const PLAUSIBLE_DEVICE_NAMES: Readonly<Record<string, string>> = { desktop: 'Desktop', mobile: 'Mobile', tablet: 'Tablet' };
export const PLAUSIBLE_BROWSER_NAMES: Readonly<Record<string, string>> = {
  Edge: 'Microsoft Edge',
  'Samsung Internet': 'Samsung Browser',
  Yandex: 'Yandex Browser',
  DuckDuckGo: 'DuckDuckGo Privacy Browser',
};
export const PLAUSIBLE_OS_NAMES: Readonly<Record<string, string>> = { macOS: 'Mac', Linux: 'GNU/Linux', ChromeOS: 'Chrome OS' };

/** svc's key as Plausible writes it: `(none)` empty, a family by `table`, any other key as it is. */
export function plausibleName(table: Readonly<Record<string, string>>, key: string): string {
  if (key === NONE_KEY) return '';
  return Object.hasOwn(table, key) ? table[key]! : key;
}

/** Plausible's way of writing an absent value. */
const ABSENT = new Set(['', '(not set)', 'Direct / None']);

/** A name of `table` as svc's key: absent values as `(none)`, known names mapped, others kept. */
export function mappedName(table: Readonly<Record<string, string>>, name: string): string {
  const trimmed = name.trim();
  if (ABSENT.has(trimmed)) return NONE_KEY;
  // Own keys only: a name like `constructor` is a browser of the export's, not a member of the table's prototype.
  return Object.hasOwn(table, trimmed) ? table[trimmed]! : trimmed;
}

/** A plain value (utm fields, pages): `(none)` when absent, else as it is. */
export function plainKey(value: string): string {
  return ABSENT.has(value.trim()) ? NONE_KEY : value;
}

/**
 * The referrer key of a `sources` row: the host of the `referrer` column without `www.` when it is
 * a URL or a host name, else the `source` column; `(none)` for direct traffic.
 */
export function referrerKey(source: string, referrer: string): string {
  const host = hostOf(referrer.trim());
  if (host !== null) return host;
  return plainKey(source);
}

const HOST = /^[a-z0-9](?:[a-z0-9-]{0,62}\.)+[a-z0-9-]{1,63}$/;

function hostOf(text: string): string | null {
  if (text === '') return null;
  let host = text.toLowerCase();
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(host)) {
    try {
      host = new URL(host).hostname;
    } catch {
      return null;
    }
  } else host = host.split('/')[0]!;
  if (!HOST.test(host)) return null;
  return host.startsWith('www.') ? host.slice(4) : host;
}

/** Cities' keys by GeoNames id, for the ids of an export that svc's table of cities holds (./geonames.ts). */
export type CityNames = ReadonlyMap<number, string>;

/** A city's GeoNames id as Plausible's export writes it (digits); null for none (empty, 0) or any other text. */
export function geonamesId(text: string): number | null {
  const trimmed = text.trim();
  return /^\d{1,10}$/.test(trimmed) && Number(trimmed) > 0 ? Number(trimmed) : null;
}

/**
 * A city of Plausible's export (a GeoNames id) as svc's key: its name from `names`, as svc's own
 * geolocation names cities; `geonames:<id>` for an id `names` lacks; `(none)` for 0 or empty.
 */
export function cityKey(id: string, names: CityNames): string {
  const trimmed = id.trim();
  if (trimmed === '' || trimmed === '0') return NONE_KEY;
  const geonames = geonamesId(trimmed);
  return (geonames === null ? undefined : names.get(geonames)) ?? `${GEONAMES_KEY_PREFIX}${trimmed}`;
}
