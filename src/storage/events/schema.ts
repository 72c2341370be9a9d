// The raw-event row: one enriched, sessionized tracker event. Shared by every EventStore adapter.
//
// Session-scoped values (entry page, referrer, utm_*, geo, browser, os, device) are copied from the
// session's first event onto every event of the session at ingest, so that a filter on a
// session-scoped dimension is a plain column predicate on raw events. Only `exit` (the session's
// last pageview) cannot be known at ingest; it is derived at query time.
import type { ColumnSpec, ColumnType, TableSpec } from './table-spec.js';

export interface StoredEvent {
  siteId: string; // public id of the site
  ts: number; // epoch milliseconds, UTC
  day: string; // site-local calendar day (YYYY-MM-DD) of `ts`: the day whose salt hashed visitorId
  visitorId: bigint; // first 8 bytes of SHA-256(salt ‖ site ‖ ip ‖ ua), as signed 64-bit
  sessionId: bigint; // random 63-bit id from the live-session cache
  sessionStart: boolean; // true on the first event of the session
  name: string; // 'pageview' | 'engage' | 'outbound' | 'download' | custom name
  page: string; // path of this event's page, without query or fragment
  hostname: string | null; // host of this event's page, lowercased, without port (null: rows stored before it was kept)
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
  revenueMinor: number | null; // custom events only: revenue in minor units (cents) of revenueCurrency
  revenueCurrency: string | null; // three capital letters, with revenueMinor
  lcp: number | null; // engage only, with data-vitals: largest contentful paint, ms
  inp: number | null; // engage only: interaction to next paint, ms
  cls: number | null; // engage only: cumulative layout shift, thousandths
  ttfb: number | null; // engage only: time to first byte, ms
  importId?: string | null; // the import (GoatCounter's, Umami's export) that wrote it, so that deleting or replacing the import finds it; null: collected
}

export type EventColumnValue = string | number | bigint | boolean | null;

interface EventColumn extends ColumnSpec {
  value(e: StoredEvent): EventColumnValue; // DATE columns give 'YYYY-MM-DD'; BIGINT a bigint or a safe integer
}

const col = (name: string, type: ColumnType, nullable: boolean, value: EventColumn['value']): EventColumn => ({ name, type, nullable, value });

/** The `events` table, column by column: name, portable SQL type, and where its value comes from. */
export const EVENT_COLUMNS: readonly EventColumn[] = [
  col('site_id', 'VARCHAR', false, (e) => e.siteId),
  col('ts', 'BIGINT', false, (e) => e.ts),
  col('day', 'DATE', false, (e) => e.day),
  col('visitor_id', 'BIGINT', false, (e) => e.visitorId),
  col('session_id', 'BIGINT', false, (e) => e.sessionId),
  col('session_start', 'BOOLEAN', false, (e) => e.sessionStart),
  col('name', 'VARCHAR', false, (e) => e.name),
  col('page', 'VARCHAR', false, (e) => e.page),
  col('entry_page', 'VARCHAR', true, (e) => e.entryPage),
  col('referrer', 'VARCHAR', true, (e) => e.referrer),
  col('utm_source', 'VARCHAR', true, (e) => e.utmSource),
  col('utm_medium', 'VARCHAR', true, (e) => e.utmMedium),
  col('utm_campaign', 'VARCHAR', true, (e) => e.utmCampaign),
  col('country', 'VARCHAR', true, (e) => e.country),
  col('region', 'VARCHAR', true, (e) => e.region),
  col('city', 'VARCHAR', true, (e) => e.city),
  col('browser', 'VARCHAR', true, (e) => e.browser),
  col('os', 'VARCHAR', true, (e) => e.os),
  col('device', 'VARCHAR', true, (e) => e.device),
  col('screen_width', 'INTEGER', true, (e) => e.screenWidth),
  col('language', 'VARCHAR', true, (e) => e.language),
  col('props', 'VARCHAR', true, (e) => e.props),
  col('engaged_ms', 'INTEGER', true, (e) => e.engagedMs),
  col('scroll_depth', 'INTEGER', true, (e) => e.scrollDepth),
  col('revenue_minor', 'BIGINT', true, (e) => e.revenueMinor ?? null), // ?? null: rows spooled before the column existed
  col('revenue_currency', 'VARCHAR', true, (e) => e.revenueCurrency ?? null),
  col('hostname', 'VARCHAR', true, (e) => e.hostname ?? null), // ?? null: rows spooled before the column existed
  col('lcp', 'INTEGER', true, (e) => e.lcp ?? null),
  col('inp', 'INTEGER', true, (e) => e.inp ?? null),
  col('cls', 'INTEGER', true, (e) => e.cls ?? null),
  col('ttfb', 'INTEGER', true, (e) => e.ttfb ?? null),
  col('import_id', 'VARCHAR', true, (e) => e.importId ?? null),
];

/** The `events` table, which every adapter creates itself (`EventStore.init`); sorted by instant. */
export const EVENTS_TABLE: TableSpec = { name: 'events', columns: EVENT_COLUMNS, dayColumn: 'day', key: ['ts'] };
