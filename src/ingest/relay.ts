// Trusted relay: a proxy holding a relay key may pass the visitor's IP and place in X-Svc-Client-*
// headers. Without a valid X-Svc-Relay-Key the headers are ignored. X-Forwarded-For is never read.
import { LRUCache } from 'lru-cache';
import type { MaybePromise } from '../core/clock.js';
import { sha256Hex } from '../core/ids.js';
import type { MetaStore } from '../storage/meta/types.js';
import { normalizeIp } from './ip.js';

export interface RelayHeaders {
  relayKey?: string;
  clientIp?: string;
  clientCountry?: string;
  clientRegion?: string;
  clientCity?: string;
  clientAsn?: string;
}

/** What a trusted relay told us about the visitor. */
export interface RelayedVisitor {
  ip: string | null;
  country: string | null;
  region: string | null;
  city: string | null;
  asn: number | null;
}

const text = (v: string | undefined, max: number) => {
  const t = v?.trim();
  return t && t.length <= max ? t : null;
};

export function relayedVisitor(h: RelayHeaders): RelayedVisitor {
  const country = text(h.clientCountry, 2)?.toUpperCase() ?? null;
  const asn = h.clientAsn && /^(AS)?\d{1,10}$/i.test(h.clientAsn.trim()) ? Number(h.clientAsn.trim().replace(/^AS/i, '')) : null;
  return {
    ip: normalizeIp(h.clientIp),
    country: country && /^[A-Z]{2}$/.test(country) ? country : null,
    region: text(h.clientRegion, 128),
    city: text(h.clientCity, 128),
    asn,
  };
}

export class RelayKeys {
  // Valid keys are cached long (relay keys are not revocable through the API); invalid ones
  // briefly, so a scanner cycling keys cannot turn every event into a database read.
  private readonly known = new LRUCache<string, boolean>({ max: 10_000, ttl: 60_000 });

  constructor(private readonly meta: MetaStore) {}

  // Keyed by the key itself (held in memory only, like any request header) so that a hit costs
  // no hashing; the store is asked by fingerprint.
  isValid(key: string | undefined): MaybePromise<boolean> {
    if (!key || key.length > 128) return false;
    const cached = this.known.get(key);
    if (cached !== undefined) return cached;
    return this.meta.relayKeyExists(sha256Hex(key)).then((valid) => {
      this.known.set(key, valid, { ttl: valid ? 600_000 : 10_000 });
      return valid;
    });
  }
}
