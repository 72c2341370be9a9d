// The raw-event row: one enriched, sessionized tracker event. Shared by every EventStore adapter.
//
// Session-scoped values (entry page, referrer, utm_*, geo, browser, os, device) are copied from the
// session's first event onto every event of the session at ingest, so that a filter on a
// session-scoped dimension is a plain column predicate on raw events. Only `exit` (the session's
// last pageview) cannot be known at ingest; it is derived at query time.

export interface StoredEvent {
  siteId: string; // public id of the site
  ts: number; // epoch milliseconds, UTC
  day: string; // site-local calendar day (YYYY-MM-DD) of `ts`: the day whose salt hashed visitorId
  visitorId: bigint; // first 8 bytes of SHA-256(salt ‖ site ‖ ip ‖ ua), as signed 64-bit
  sessionId: bigint; // random 63-bit id from the live-session cache
  sessionStart: boolean; // true on the first event of the session
  name: string; // 'pageview' | 'engage' | 'outbound' | 'download' | custom name
  page: string; // path of this event's page, without query or fragment
  entryPage: string | null; // session's first pageview page
  referrer: string | null; // session's referrer (ref/source param, else referrer host without www.)
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  country: string | null; // ISO 3166-1 alpha-2
  region: string | null;
  city: string | null;
  browser: string | null;
  os: string | null;
  device: string | null; // 'mobile' | 'tablet' | 'desktop'
  screenWidth: number | null;
  language: string | null;
  props: string | null; // JSON text of the cleaned props, null when none
  engagedMs: number | null; // engage only
  scrollDepth: number | null; // engage only, percent
}

/** Column name, SQL type (portable subset), and how to read the value from a StoredEvent. */
export const EVENT_COLUMNS = [
  ['site_id', 'VARCHAR NOT NULL'],
  ['ts', 'BIGINT NOT NULL'],
  ['day', 'DATE NOT NULL'],
  ['visitor_id', 'BIGINT NOT NULL'],
  ['session_id', 'BIGINT NOT NULL'],
  ['session_start', 'BOOLEAN NOT NULL'],
  ['name', 'VARCHAR NOT NULL'],
  ['page', 'VARCHAR NOT NULL'],
  ['entry_page', 'VARCHAR'],
  ['referrer', 'VARCHAR'],
  ['utm_source', 'VARCHAR'],
  ['utm_medium', 'VARCHAR'],
  ['utm_campaign', 'VARCHAR'],
  ['country', 'VARCHAR'],
  ['region', 'VARCHAR'],
  ['city', 'VARCHAR'],
  ['browser', 'VARCHAR'],
  ['os', 'VARCHAR'],
  ['device', 'VARCHAR'],
  ['screen_width', 'INTEGER'],
  ['language', 'VARCHAR'],
  ['props', 'VARCHAR'],
  ['engaged_ms', 'INTEGER'],
  ['scroll_depth', 'INTEGER'],
] as const;

export type EventColumn = (typeof EVENT_COLUMNS)[number][0];
