import { isIP } from 'node:net';

/** Canonical text of an IP: IPv4-mapped IPv6 (::ffff:1.2.3.4) becomes plain IPv4. */
export function normalizeIp(ip: string | undefined | null): string | null {
  if (!ip) return null;
  let text = ip.trim();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(text);
  if (mapped) text = mapped[1]!;
  return isIP(text) === 0 ? null : text.toLowerCase();
}

/** A dotted IPv4 address (already validated) as an unsigned 32-bit number, without allocating. */
export function ipv4ToNumber(ip: string): number {
  let value = 0;
  let octet = 0;
  for (let i = 0; i < ip.length; i++) {
    const c = ip.charCodeAt(i);
    if (c === 46) {
      value = value * 256 + octet;
      octet = 0;
    } else octet = octet * 10 + (c - 48);
  }
  return value * 256 + octet;
}

/** Expands an IPv6 address into its 8 hextets. */
function ipv6Hextets(ip: string): number[] {
  let text = ip;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const n = ipv4ToNumber(v4[1]!);
    text = text.slice(0, -v4[1]!.length) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const fill = tail !== undefined ? 8 - h.length - t.length : 0;
  return [...h, ...Array(fill).fill('0'), ...t].map((x) => parseInt(x, 16));
}

export function ipv6ToBigInt(ip: string): bigint {
  return ipv6Hextets(ip).reduce((acc, h) => (acc << 16n) + BigInt(h), 0n);
}

/** The network a rate limit counts by: IPv4 /24, IPv6 /64. */
export function truncatedIp(ip: string): string {
  // Called per event with a normalized address: a dotted IPv4 has no colon.
  if (!ip.includes(':')) return `${ip.slice(0, ip.lastIndexOf('.'))}.0/24`;
  return ipv6Hextets(ip).slice(0, 4).map((h) => h.toString(16)).join(':') + '::/64';
}

/**
 * The client a per-client limit counts by (open connections, sign-in attempts, sign-in rate): an IPv4
 * address alone, an IPv6 address by its /64, the smallest block one subscriber is usually given.
 * Takes a normalized address (normalizeIp); anything else is its own group.
 */
export function clientGroup(ip: string): string {
  return ip.includes(':') ? truncatedIp(ip) : ip;
}
