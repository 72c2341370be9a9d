// The reports the GA4 import asks Google's Data API for, one per imported table (docs/imports.md,
// "Google Analytics 4"), and how each of their rows becomes rows of imported aggregates: the same
// dimensions and keys as a Plausible import's tables, with GA4's words mapped to svc's.
import { EVENT_NAME } from '../../ingest/event-shape.js';
import { pageHostname } from '../../ingest/url-values.js';
import { NONE_KEY, type Dimension } from '../../core/vocabulary.js';
import { asCollectedCityName } from '../geonames.js';
import { BROWSER_NAMES, mappedName, OS_NAMES, plainKey, referrerKey } from '../names.js';
import { BadLine, siteRows, type Counts, type PlausibleTable } from '../plausible.js';

/** GA4's device categories → svc's device classes (svc calls every other screen a desktop). */
export const GA4_DEVICE_NAMES: Readonly<Record<string, string>> = { desktop: 'desktop', mobile: 'mobile', tablet: 'tablet', 'smart tv': 'desktop' };

/** GA4's browser names → svc's families: Plausible's table, and the names only GA4 writes. */
export const GA4_BROWSER_NAMES: Readonly<Record<string, string>> = { ...BROWSER_NAMES, 'Safari (in-app)': 'Safari', 'Android Webview': 'Chrome', YaBrowser: 'Yandex' };

/** GA4's operating system names → svc's families: Plausible's table, and GA4's `Macintosh`. */
export const GA4_OS_NAMES: Readonly<Record<string, string>> = { ...OS_NAMES, Macintosh: 'macOS' };

/**
 * The events GA4 collects by itself (Google's "Automatically collected events" and "Enhanced
 * measurement events"), which are no custom events of the site: left out of the `event` dimension,
 * whose `pageview` key comes from the totals as on collected days.
 */
export const GA4_AUTOMATIC_EVENTS: ReadonlySet<string> = new Set([
  'page_view', 'session_start', 'first_visit', 'user_engagement', 'scroll', 'click', 'view_search_results',
  'file_download', 'form_start', 'form_submit', 'video_start', 'video_progress', 'video_complete',
  'first_open', 'screen_view', 'app_remove', 'app_update', 'app_exception', 'os_update', 'app_clear_data', 'error',
  'notification_receive', 'notification_open', 'notification_dismiss', 'notification_foreground',
  'ad_click', 'ad_exposure', 'ad_impression', 'ad_query', 'ad_reward', 'adunit_exposure',
  'in_app_purchase', 'app_store_refund', 'app_store_subscription_cancel', 'app_store_subscription_convert', 'app_store_subscription_renew',
  'dynamic_link_app_open', 'dynamic_link_app_update', 'dynamic_link_first_open', 'firebase_campaign',
  'firebase_in_app_message_action', 'firebase_in_app_message_dismiss', 'firebase_in_app_message_impression',
]);

/** The mediums GA4 gives traffic it classified itself (no `utm_medium` behind them). */
const GA4_OWN_MEDIUMS = new Set(['(none)', '(not set)', 'referral', 'organic']);
/** The campaign names GA4 gives traffic without a campaign. */
const GA4_NO_CAMPAIGN = new Set(['(direct)', '(organic)', '(referral)', '(not set)']);

/** One row of a report: a dimension's or a metric's value by its GA4 name. */
export interface Ga4Values {
  text(name: string): string;
  /** A metric as a number ≥ 0 (BadLine otherwise). */
  number(name: string): number;
}

export interface Ga4Report {
  /** The name the job's report lists it by. */
  name: string;
  /** The table of a Plausible export it stands for (the job's report gives it beside the name). */
  table: PlausibleTable;
  /** Its GA4 dimensions, after `date`. */
  dimensions: readonly string[];
  metrics: readonly string[];
  /** The rows of one of its report rows (none for a row left out). Throws BadLine with the reason. */
  rows(values: Ga4Values): Array<[Dimension | null, string, Counts]>;
}

const SESSION_METRICS = ['totalUsers', 'screenPageViews', 'sessions', 'bounceRate', 'averageSessionDuration'] as const;

const whole = (values: Ga4Values, name: string) => Math.round(values.number(name));

/** The measures of a row of SESSION_METRICS: bounces and the duration sum from GA4's rate and average per session. */
function sessionCounts(values: Ga4Values): Counts {
  const pageviews = whole(values, 'screenPageViews');
  const sessions = whole(values, 'sessions');
  const bounceRate = values.number('bounceRate');
  if (bounceRate > 1) throw new BadLine(`bounceRate is over 1 (${bounceRate})`);
  return {
    visitors: whole(values, 'totalUsers'),
    pageviews,
    events: pageviews,
    sessions,
    bounces: Math.round(bounceRate * sessions),
    durationMs: Math.round(values.number('averageSessionDuration') * sessions * 1000),
  };
}

/** A session dimension's report: one key per row, the row's session measures. */
function sessionReport(name: string, table: PlausibleTable, ga4Dimension: string, dimension: Dimension, key: (value: string) => string): Ga4Report {
  return { name, table, dimensions: [ga4Dimension], metrics: SESSION_METRICS, rows: (v) => [[dimension, key(v.text(ga4Dimension)), sessionCounts(v)]] };
}

/** GA4's `(direct)` source is svc's `(none)` referrer; a host loses its `www.`; a name (`google`) stays. */
function sourceKey(source: string): string {
  return source.trim() === '(direct)' ? NONE_KEY : referrerKey(source, source);
}

function cityName(city: string): string {
  const key = plainKey(city);
  return key === NONE_KEY ? key : asCollectedCityName(key.trim());
}

export const GA4_REPORTS: readonly Ga4Report[] = [
  { name: 'totals', table: 'visitors', dimensions: [], metrics: SESSION_METRICS, rows: (v) => siteRows(sessionCounts(v)) },
  {
    name: 'pages',
    table: 'pages',
    dimensions: ['pagePath'],
    metrics: ['totalUsers', 'screenPageViews', 'sessions'],
    rows: (v) => {
      const pageviews = whole(v, 'screenPageViews');
      return [['page', plainKey(v.text('pagePath')), { visitors: whole(v, 'totalUsers'), pageviews, events: pageviews, sessions: whole(v, 'sessions'), bounces: null, durationMs: null }]];
    },
  },
  // A host's own figures (Plausible's export only has its pages' added up).
  sessionReport('hostnames', 'pages', 'hostName', 'hostname', (host) => pageHostname(plainKey(host) === NONE_KEY ? null : host.trim()) ?? NONE_KEY),
  sessionReport('entry pages', 'entry_pages', 'landingPage', 'entry', plainKey),
  {
    name: 'sources',
    table: 'sources',
    dimensions: ['sessionSource', 'sessionMedium', 'sessionCampaignName'],
    metrics: SESSION_METRICS,
    rows: (v) => {
      const counts = sessionCounts(v);
      const source = v.text('sessionSource');
      const medium = v.text('sessionMedium').trim();
      const campaign = v.text('sessionCampaignName').trim();
      // A medium GA4 set itself says the source was not tagged: it is a referrer, not a utm_source.
      const tagged = !GA4_OWN_MEDIUMS.has(medium);
      return [
        ['referrer', sourceKey(source), counts],
        ['utm_source', tagged ? plainKey(source) : NONE_KEY, counts],
        ['utm_medium', tagged ? plainKey(medium) : NONE_KEY, counts],
        ['utm_campaign', GA4_NO_CAMPAIGN.has(campaign) ? NONE_KEY : plainKey(campaign), counts],
      ];
    },
  },
  {
    name: 'locations',
    table: 'locations',
    dimensions: ['countryId', 'region', 'city'],
    metrics: SESSION_METRICS,
    rows: (v) => {
      const counts = sessionCounts(v);
      const country = v.text('countryId').trim().toUpperCase();
      return [
        ['country', /^[A-Z]{2}$/.test(country) && country !== 'ZZ' ? country : NONE_KEY, counts],
        // GA4 names regions and cities in English, as svc's own geolocation does.
        ['region', plainKey(v.text('region')), counts],
        ['city', cityName(v.text('city')), counts],
      ];
    },
  },
  sessionReport('devices', 'devices', 'deviceCategory', 'device', (name) => mappedName(GA4_DEVICE_NAMES, name.toLowerCase())),
  sessionReport('browsers', 'browsers', 'browser', 'browser', (name) => mappedName(GA4_BROWSER_NAMES, name)),
  sessionReport('operating systems', 'operating_systems', 'operatingSystem', 'os', (name) => mappedName(GA4_OS_NAMES, name)),
  {
    name: 'custom events',
    table: 'custom_events',
    dimensions: ['eventName'],
    metrics: ['totalUsers', 'eventCount'],
    rows: (v) => {
      const given = v.text('eventName');
      if (GA4_AUTOMATIC_EVENTS.has(given)) return [];
      // svc's event names are lowercase (docs/tracker.md): `Sign_Up` counts with collected `sign_up`.
      const name = given.toLowerCase();
      if (!EVENT_NAME.test(name) || name === 'pageview') throw new BadLine(`event name ${JSON.stringify(given.slice(0, 80))} is not one svc takes (a-z, 0-9, _ and -, 1 to 64)`);
      return [['event', name, { visitors: whole(v, 'totalUsers'), pageviews: 0, events: whole(v, 'eventCount'), sessions: null, bounces: null, durationMs: null }]];
    },
  },
];
