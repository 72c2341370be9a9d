// Bot detection: by User-Agent (isbot; an empty UA is a bot) and by network (the address belongs
// to a reviewed hosting/cloud ASN: real visitors do not browse from data centres).
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { isbot } from 'isbot';
import { LRUCache } from 'lru-cache';
import { builtFile } from '../core/paths.js';
import { ipv4ToNumber, ipv6ToBigInt } from './ip.js';

// isbot is one large regular expression; traffic repeats a few thousand User-Agents.
const verdicts = new LRUCache<string, boolean>({ max: 10_000 });

export function isBotUserAgent(ua: string | undefined | null): boolean {
  if (!ua || ua.trim().length === 0) return true;
  let bot = verdicts.get(ua);
  if (bot === undefined) {
    bot = isbot(ua);
    verdicts.set(ua, bot);
  }
  return bot;
}

interface RangeTable<T> {
  starts: T[];
  ends: T[];
  asns: number[];
}

function find<T>(table: RangeTable<T>, value: T): number | null {
  let lo = 0;
  let hi = table.starts.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (table.starts[mid]! <= value) lo = mid + 1;
    else hi = mid - 1;
  }
  // hi: last range starting at or before value
  return hi >= 0 && value <= table.ends[hi]! ? table.asns[hi]! : null;
}

/** Address ranges of hosting networks, built from @ip-location-db/asn by `npm run build`. */
export class HostingNetworks {
  private constructor(
    private readonly v4: RangeTable<number>,
    private readonly v6: RangeTable<bigint>,
    readonly hostingAsns: ReadonlySet<number>,
  ) {}

  private static loaded: HostingNetworks | undefined;

  /** Loaded once per process: the table is read-only and shared. */
  static load(): HostingNetworks {
    if (this.loaded) return this.loaded;
    const data = JSON.parse(readFileSync(builtFile('data/hosting-networks.json'), 'utf8')) as {
      v4: Array<[number, number, number]>;
      v6: Array<[string, string, number]>;
    };
    const v4 = { starts: data.v4.map((r) => r[0]), ends: data.v4.map((r) => r[1]), asns: data.v4.map((r) => r[2]) };
    const v6 = { starts: data.v6.map((r) => BigInt(r[0])), ends: data.v6.map((r) => BigInt(r[1])), asns: data.v6.map((r) => r[2]) };
    const asns = new Set([...v4.asns, ...v6.asns]);
    this.loaded = new HostingNetworks(v4, v6, asns);
    return this.loaded;
  }

  /** The hosting ASN an address belongs to, or null. */
  hostingAsnOf(ip: string): number | null {
    const family = isIP(ip);
    if (family === 4) return find(this.v4, ipv4ToNumber(ip));
    if (family === 6) return find(this.v6, ipv6ToBigInt(ip));
    return null;
  }

  isHostingAsn(asn: number): boolean {
    return this.hostingAsns.has(asn);
  }
}
