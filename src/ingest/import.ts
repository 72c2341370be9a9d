// Import lines (docs/admin-api.md, "Import lines"): `{ts, ua, u, ip?, r?, w?, l?, e?, p?, revenue?,
// sd?, country?, region?, city?, browser?, os?, device?, session?}`. Validated with the tracker's own
// rules; country/region/city override geolocation as a trusted relay would, browser/os/device the
// User-Agent's families, and `session` names the event's session (another tool's visit).
import { StringDecoder } from 'node:string_decoder';
import type { DropReason } from './drop-reasons.js';
import { validateEvent } from './event-shape.js';
import { MAX_IMPORT_LINE_BYTES, parseImportTimestamp } from './import-contract.js';
import { normalizeIp } from './ip.js';
import { isDeviceClass } from '../core/vocabulary.js';
import { newCandidate, type Candidate } from './pipeline.js';

export type ImportLineResult = { ok: true; candidate: Candidate } | { ok: false; reason: DropReason; detail?: string };

const optionalText = (v: unknown, max: number): string | null | undefined =>
  v === undefined || v === null ? null : typeof v === 'string' && v.length <= max ? v.trim() || null : undefined;

/** An NDJSON line of an import, parsed and checked (checkImportLine). */
export function parseImportLine(line: string, sitePublicId: string, now: number): ImportLineResult {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return { ok: false, reason: 'bad_json' };
  }
  return checkImportLine(raw, sitePublicId, now);
}

/**
 * A line of an import as a value (a parsed NDJSON line, or the object a reader of another tool's
 * export makes) checked with the tracker's rules: its candidate event, or why it is rejected.
 */
export function checkImportLine(raw: unknown, sitePublicId: string, now: number): ImportLineResult {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, reason: 'bad_shape', detail: 'not an object' };
  const o = raw as Record<string, unknown>;
  const ts = parseImportTimestamp(o.ts, now);
  if (ts === null) {
    return { ok: false, reason: 'bad_shape', detail: 'ts must be epoch milliseconds or an ISO 8601 instant, from 2000 on and at most a day ahead of the server clock' };
  }
  if (typeof o.ua !== 'string' || o.ua.length > 1024) return { ok: false, reason: 'bad_shape', detail: 'ua must be a string' };
  let ip: string | null = null;
  if (o.ip !== undefined && o.ip !== null) {
    ip = typeof o.ip === 'string' ? normalizeIp(o.ip) : null;
    if (ip === null) return { ok: false, reason: 'bad_shape', detail: 'ip is not an IP address' };
  }
  const country = optionalText(o.country, 2);
  const region = optionalText(o.region, 128);
  const city = optionalText(o.city, 128);
  if (country === undefined || region === undefined || city === undefined || (country !== null && !/^[A-Za-z]{2}$/.test(country))) {
    return { ok: false, reason: 'bad_shape', detail: 'country must be ISO 3166-1 alpha-2; region and city strings' };
  }
  const browser = optionalText(o.browser, 64);
  const os = optionalText(o.os, 64);
  const device = o.device === undefined || o.device === null ? null : isDeviceClass(o.device) ? o.device : undefined;
  if (browser === undefined || os === undefined || device === undefined) {
    return { ok: false, reason: 'bad_shape', detail: 'browser and os must be strings of at most 64 characters; device desktop, mobile or tablet' };
  }
  const session = optionalText(o.session, 128);
  if (session === undefined) return { ok: false, reason: 'bad_shape', detail: 'session must be a string of at most 128 characters' };
  // `sd` is an engage event's scroll depth, its `p.d` (checked with the tracker's rules for it).
  let p = o.p;
  if (o.sd !== undefined) {
    if (o.e !== 'engage') return { ok: false, reason: 'bad_shape', detail: 'sd is the scroll depth of an engage event' };
    if (p === undefined || p === null) p = { d: o.sd };
    else if (typeof p === 'object' && !Array.isArray(p)) p = { ...p, d: o.sd };
  }
  const shape = validateEvent({ s: sitePublicId, u: o.u, r: o.r, w: o.w, l: o.l, e: o.e, p, v: o.revenue });
  if (!shape.ok) return { ok: false, reason: shape.reason };
  const candidate = newCandidate(ts, o.ua, ip);
  candidate.event = shape.event;
  if (country || region || city) candidate.placeOverride = { country: country?.toUpperCase() ?? null, region, city };
  if (browser || os || device) candidate.agentOverride = { browser, os, device };
  candidate.sessionName = session;
  return { ok: true, candidate };
}

const withoutCr = (text: string) => (text.endsWith('\r') ? text.slice(0, -1) : text);

/**
 * The fields of an import line as a value: a reader of another tool's export (src/imports) makes
 * them, rather than NDJSON text that would be parsed again.
 */
export type ImportLineFields = Readonly<Record<string, unknown>>;

/** A line of an import, numbered from 1: NDJSON text, or (from a reader) its fields. */
export interface ImportLine<T extends string | ImportLineFields = string> {
  line: T;
  number: number;
  tooLong: boolean;
}

/**
 * Splits a byte stream into lines, handed over a chunk's worth at a time (a step of an async
 * iterator per line costs more than parsing it); a line over the limit is reported, not buffered.
 */
export async function* ndjsonLines(stream: AsyncIterable<Buffer | string> | Iterable<Buffer | string>): AsyncGenerator<ImportLine[]> {
  let carry = '';
  let skipping = false;
  let number = 0;
  // A multi-byte character may be split between two chunks: the decoder keeps the partial bytes.
  const decoder = new StringDecoder('utf8');
  for await (const chunk of stream) {
    const text = carry + (typeof chunk === 'string' ? chunk : decoder.write(chunk));
    const parts = text.split('\n');
    carry = parts.pop() ?? '';
    const lines: ImportLine[] = [];
    for (const part of parts) {
      number++;
      if (skipping) {
        skipping = false;
        lines.push({ line: '', number, tooLong: true });
        continue;
      }
      // A UTF-16 unit takes at most 3 bytes in UTF-8: a line this short needs no byte count.
      const tooLong = part.length > MAX_IMPORT_LINE_BYTES / 3 && Buffer.byteLength(part) > MAX_IMPORT_LINE_BYTES;
      lines.push({ line: withoutCr(part), number, tooLong });
    }
    if (carry.length > MAX_IMPORT_LINE_BYTES) {
      carry = '';
      skipping = true;
    }
    if (lines.length > 0) yield lines;
  }
  carry += decoder.end();
  if (skipping) yield [{ line: '', number: number + 1, tooLong: true }];
  else if (carry.trim().length > 0) yield [{ line: withoutCr(carry), number: number + 1, tooLong: false }];
}
