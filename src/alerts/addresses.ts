// Classification of resolved IP addresses for webhook targets: only globally routable unicast
// addresses are public. Written out by hand (no net.BlockList) because IPv4 embedded in IPv6
// (mapped, NAT64, 6to4) must be unwrapped and judged by the IPv4 rules.
import { isIPv4, isIPv6 } from 'node:net';

/** Why an address is not public; `undefined` means public. */
export type AddressClass =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'documentation'
  | 'unique-local';

/** Classes a developer may target with SVC_WEBHOOK_ALLOW_PRIVATE=1: unicast hosts on own networks. */
const RELAXABLE: ReadonlySet<AddressClass> = new Set(['loopback', 'private', 'link-local', 'cgnat', 'unique-local']);

export function isRelaxable(cls: AddressClass): boolean {
  return RELAXABLE.has(cls);
}

type Ipv4Range = [base: number, prefix: number, cls: AddressClass];

function v4(text: string): number {
  const [a, b, c, d] = text.split('.').map(Number) as [number, number, number, number];
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

// IANA IPv4 special-purpose registry, most specific first where ranges nest.
const IPV4_RANGES: Ipv4Range[] = [
  [v4('255.255.255.255'), 32, 'broadcast'],
  [v4('0.0.0.0'), 8, 'unspecified'],
  [v4('10.0.0.0'), 8, 'private'],
  [v4('100.64.0.0'), 10, 'cgnat'],
  [v4('127.0.0.0'), 8, 'loopback'],
  [v4('169.254.0.0'), 16, 'link-local'],
  [v4('172.16.0.0'), 12, 'private'],
  [v4('192.0.0.0'), 24, 'reserved'], // IETF protocol assignments
  [v4('192.0.2.0'), 24, 'documentation'],
  [v4('192.88.99.0'), 24, 'reserved'], // 6to4 relay anycast (deprecated)
  [v4('192.168.0.0'), 16, 'private'],
  [v4('198.18.0.0'), 15, 'reserved'], // benchmarking
  [v4('198.51.100.0'), 24, 'documentation'],
  [v4('203.0.113.0'), 24, 'documentation'],
  [v4('224.0.0.0'), 4, 'multicast'],
  [v4('240.0.0.0'), 4, 'reserved'],
];

function inV4Range(addr: number, base: number, prefix: number): boolean {
  const mask = prefix === 0 ? 0 : (~0 << (32 - prefix)) >>> 0;
  return ((addr & mask) >>> 0) === base;
}

function classifyIpv4Number(addr: number): AddressClass | undefined {
  for (const [base, prefix, cls] of IPV4_RANGES) if (inV4Range(addr, base, prefix)) return cls;
  return undefined;
}

/** The eight 16-bit groups of a valid IPv6 address (zone id removed). */
export function ipv6Groups(text: string): number[] {
  const bare = text.replace(/^\[|\]$/g, '').split('%')[0]!;
  let head = bare;
  const tail: number[] = [];
  // A trailing dotted quad stands for the last two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  if (dotted) {
    const n = v4(dotted[1]!);
    tail.push(n >>> 16, n & 0xffff);
    head = bare.slice(0, -dotted[1]!.length);
    if (!head.endsWith('::')) head = head.slice(0, -1); // drop the ':' before the quad
  }
  const [left, right] = head.includes('::') ? head.split('::') : [head, undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').filter((g) => g !== '').map((g) => parseInt(g, 16)) : []);
  const leftGroups = parse(left);
  const rightGroups = [...parse(right), ...tail];
  if (right === undefined) return [...leftGroups, ...tail];
  const zeros = new Array(8 - leftGroups.length - rightGroups.length).fill(0);
  return [...leftGroups, ...zeros, ...rightGroups];
}

function embeddedV4(groups: number[], hi: number): number {
  return ((groups[hi]! << 16) | groups[hi + 1]!) >>> 0;
}

function classifyIpv6(text: string): AddressClass | undefined {
  const g = ipv6Groups(text);
  const prefixZero = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (prefixZero(8)) return 'unspecified';
  if (prefixZero(7) && g[7] === 1) return 'loopback';
  // ::ffff:a.b.c.d (IPv4-mapped) and 64:ff9b::a.b.c.d (NAT64): judged by the embedded IPv4.
  if (prefixZero(5) && g[5] === 0xffff) return classifyIpv4Number(embeddedV4(g, 6));
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return classifyIpv4Number(embeddedV4(g, 6));
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return 'private'; // local-use NAT64 (RFC 8215)
  if (g[0] === 0x2002) return classifyIpv4Number(embeddedV4(g, 1)); // 6to4
  if ((g[0]! & 0xfe00) === 0xfc00) return 'unique-local';
  if ((g[0]! & 0xffc0) === 0xfe80) return 'link-local';
  if ((g[0]! & 0xffc0) === 0xfec0) return 'private'; // deprecated site-local
  if ((g[0]! & 0xff00) === 0xff00) return 'multicast';
  if (g[0] === 0x2001 && g[1] === 0x0db8) return 'documentation';
  if (g[0] === 0x2001 && g[1]! < 0x0200) return 'reserved'; // 2001::/23 incl. Teredo
  if (g[0] === 0x3fff && g[1]! < 0x1000) return 'documentation'; // 3fff::/20
  // Only 2000::/3 is allocated global unicast; everything else (::/96 compatible, 100::/64 …).
  if ((g[0]! & 0xe000) !== 0x2000) return 'reserved';
  return undefined;
}

/** Why `address` (an IPv4 or IPv6 literal as DNS returns it) is not public, or undefined. */
export function classifyAddress(address: string): AddressClass | undefined {
  if (isIPv4(address)) return classifyIpv4Number(v4(address));
  if (isIPv6(address.replace(/^\[|\]$/g, ''))) return classifyIpv6(address);
  return 'reserved';
}
