// Validation of the tracker event body (docs/tracker.md, "What is sent"), shared by the
// collection endpoint and the import route. Pure functions: input in, a clean event or a reason out.
import { parseRevenue, type Money } from '../core/money.js';
import { VITAL_NAMES, WEB_VITALS, type WebVital } from '../core/vocabulary.js';
import type { DropReason } from './drop-reasons.js';

export const MAX_BODY_BYTES = 4096;
export const MAX_PROPS_BYTES = 2048;
export const MAX_PROP_STRING = 500;
export const EVENT_NAME = /^[a-z0-9_-]{1,64}$/;
export const BUILT_IN_EVENTS = ['pageview', 'engage', 'outbound', 'download'] as const;

export type PropValue = string | number | boolean;

/** A tracker event that passed every shape, name and props rule. */
export interface TrackerEvent {
  s: string;
  u: string;
  r: string | null;
  w: number | null;
  l: string | null;
  name: string; // 'pageview' when `e` was absent
  props: Record<string, PropValue> | null;
  revenue: Money | null;
  /** Whether the event came with revenue that was not valid (or not on a custom event) and is kept without it. */
  revenueDropped: boolean;
  /** An engage event's web vitals that passed their bounds (the others are left out of it and of its props). */
  vitals: Partial<Record<WebVital, number>> | null;
}

export type ShapeResult = { ok: true; event: TrackerEvent } | { ok: false; reason: DropReason };

const fail = (reason: DropReason): ShapeResult => ({ ok: false, reason });

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A string cut to `max` (a long value is cut, never a reason to drop), null when absent, undefined when not a string. */
function optionalString(v: unknown, max: number): string | null | undefined {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') return undefined; // undefined: invalid
  return v.length > max ? truncate(v, max) : v;
}

/**
 * A cut never splits a surrogate pair (an emoji): stored text holds no lone high surrogate the
 * client never sent, the dangling half is dropped.
 */
function truncate(v: string, max: number): string {
  const cut = v.slice(0, max);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

// Any client (a tracker that cut a string mid-emoji, a hand-made request) can send a lone UTF-16
// surrogate; stored text must be well formed, so each becomes U+FFFD.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function wellFormed(v: string): string {
  return v.replace(LONE_SURROGATE, '\ufffd');
}

/**
 * Cleans props: nested objects, arrays, null, NaN and Infinity are dropped silently, as are keys
 * outside 1..64 characters and keys that could pollute prototypes; strings are cut to 500
 * characters. Returns null when nothing is left, or 'too_large' when the JSON exceeds 2048 bytes.
 */
export function cleanProps(raw: Record<string, unknown>): Record<string, PropValue> | null | 'too_large' {
  const clean: Record<string, PropValue> = Object.create(null);
  let kept = 0;
  for (const key of Object.keys(raw)) {
    if (key.length < 1 || key.length > 64 || key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
    const v = raw[key];
    if (typeof v === 'string') clean[key] = wellFormed(v.length > MAX_PROP_STRING ? truncate(v, MAX_PROP_STRING) : v);
    else if (typeof v === 'number' && Number.isFinite(v)) clean[key] = v;
    else if (typeof v === 'boolean') clean[key] = v;
    else continue;
    kept++;
  }
  if (kept === 0) return null;
  if (Buffer.byteLength(JSON.stringify(clean)) > MAX_PROPS_BYTES) return 'too_large';
  return clean;
}

/** Props the built-in events must carry; anything else about them is a bad event. */
function builtInPropsValid(name: string, props: Record<string, PropValue> | null): boolean {
  if (name === 'engage') {
    const t = props?.t;
    const d = props?.d;
    return typeof t === 'number' && t >= 0 && t <= 86_400_000 && typeof d === 'number' && d >= 0 && d <= 100;
  }
  if (name === 'outbound' || name === 'download') return typeof props?.url === 'string' && props.url.length > 0;
  return true;
}

/** Validates a parsed JSON value as a tracker event (`v`: its revenue, `{amount, currency}`). */
export function validateEvent(body: unknown): ShapeResult {
  if (!isPlainObject(body)) return fail('bad_shape');
  const { s, u, e, p, w, v } = body;
  if (typeof s !== 'string' || s.length < 1 || s.length > 64) return fail('bad_shape');
  // Live bodies are bounded by the 4096-byte limit; imported lines by this.
  if (typeof u !== 'string' || u.length < 1 || u.length > 8192) return fail('bad_shape');
  if (!u.startsWith('/') && !/^https?:\/\//i.test(u)) return fail('bad_shape');
  const r = optionalString(body.r, 2048);
  const l = optionalString(body.l, 35);
  if (r === undefined || l === undefined) return fail('bad_shape');
  let width: number | null = null;
  if (w !== undefined && w !== null) {
    if (typeof w !== 'number' || !Number.isInteger(w) || w < 0 || w > 100_000) return fail('bad_shape');
    width = w;
  }

  let name = 'pageview';
  if (e !== undefined) {
    if (typeof e !== 'string' || !EVENT_NAME.test(e) || e === 'pageview') return fail('bad_name');
    name = e;
  }

  let props: Record<string, PropValue> | null = null;
  if (p !== undefined && p !== null) {
    if (!isPlainObject(p)) return fail('bad_props');
    const cleaned = cleanProps(p);
    if (cleaned === 'too_large') return fail('bad_props');
    props = cleaned;
  }
  if (!builtInPropsValid(name, props)) return fail('bad_props');

  // Revenue never costs the event: bad revenue, or revenue on a built-in event, is left out.
  const sent = v !== undefined && v !== null;
  const revenue = sent && !(BUILT_IN_EVENTS as readonly string[]).includes(name) ? parseRevenue(v) : null;
  const vitals = name === 'engage' ? takeVitals(props!) : null;
  return { ok: true, event: { s, u, r, w: width, l, name, props, revenue, revenueDropped: sent && revenue === null, vitals } };
}

/**
 * The web vitals of an engage event's props: each a whole number within its bounds (WEB_VITALS).
 * Like a bad prop value, a bad measurement is left out silently (of the props too), never the event.
 */
function takeVitals(props: Record<string, PropValue>): Partial<Record<WebVital, number>> | null {
  let vitals: Partial<Record<WebVital, number>> | null = null;
  for (const name of VITAL_NAMES) {
    if (!Object.hasOwn(props, name)) continue;
    const value = props[name];
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= WEB_VITALS[name].max) (vitals ??= {})[name] = value;
    else delete props[name];
  }
  return vitals;
}

/** Parses and validates a raw body (already known to be at most MAX_BODY_BYTES). */
export function parseEventBody(body: Buffer): ShapeResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return fail('bad_json');
  }
  return validateEvent(parsed);
}
