// Webhook URL rules (docs/webhooks.md): checked at configuration and again at every send. The static
// check judges the URL text; the DNS check resolves the host once and returns the address the
// connection must be pinned to, so a second lookup (DNS rebinding) can never pick another one.
// The same address rules tell when the tracker snippet loads from an address only local browsers reach.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { classifyAddress, isRelaxable } from './addresses.js';

export type RejectionReason =
  | 'control-character'
  | 'scheme'
  | 'credentials'
  | 'port'
  | 'localhost'
  | 'internal'
  | 'ip-literal'
  | 'private-address'
  | 'dns';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has. Injected so tests can play DNS. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** A resolver that gives up after `ms`: a DNS server that never answers must not hold a sender. */
export function resolverWithTimeout(resolve: Resolver, ms: number): Resolver {
  return (hostname) =>
    new Promise((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`DNS lookup of ${hostname} timed out`)), ms);
      resolve(hostname).then(
        (answers) => {
          clearTimeout(timer);
          ok(answers);
        },
        (err: unknown) => {
          clearTimeout(timer);
          fail(err);
        },
      );
    });
}

export interface UrlPolicy {
  /** SVC_WEBHOOK_ALLOW_PRIVATE: private, loopback and literal addresses and localhost are allowed. */
  allowPrivate: boolean;
}

export type StaticCheck =
  | { ok: true; url: URL; host: string; literal: ResolvedAddress | undefined }
  | { ok: false; reason: RejectionReason };

export type TargetCheck = { ok: true; url: URL; host: string; target: ResolvedAddress } | { ok: false; reason: RejectionReason };

// Names that only mean something inside a private network (RFC 6762 .local, RFC 8375 home.arpa,
// ICANN's reserved .internal, and common intranet suffixes).
const INTERNAL_SUFFIXES = ['internal', 'local', 'localdomain', 'home.arpa', 'lan', 'intranet', 'corp', 'private'];

const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

function hasSuffix(host: string, suffix: string): boolean {
  return host === suffix || host.endsWith(`.${suffix}`);
}

/** Whether a host name (lower case, no trailing dot) only means something inside a private network. */
export function isInternalName(host: string): boolean {
  // A single-label name is completed by the resolver's search domains: an intranet host.
  return !host.includes('.') || INTERNAL_SUFFIXES.some((s) => hasSuffix(host, s));
}

/**
 * Whether browsers outside the machine or its network cannot reach `url`'s host: localhost, an
 * intranet name, or an address that is not public (loopback, private, link-local…).
 */
export function isLocalUrl(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  if (isIP(host) !== 0) return classifyAddress(host) !== undefined;
  return hasSuffix(host, 'localhost') || isInternalName(host);
}

/**
 * The rules that need no network. The WHATWG parser already rewrites every IPv4 notation
 * (decimal `2130706433`, octal `0177.0.0.1`, hex `0x7f.1`, short `127.1`) to a dotted quad, so
 * one `isIP` test after parsing catches them all.
 */
export function checkUrlStatic(text: string, policy: UrlPolicy): StaticCheck {
  // The URL parser drops tabs and line breaks, so the text stored and shown would differ from the
  // URL requested: any C0 or C1 control character, or DEL, is refused in the text itself.
  if (CONTROL_CHARACTER.test(text)) return { ok: false, reason: 'control-character' };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'scheme' };
  }
  if (url.protocol !== 'https:') return { ok: false, reason: 'scheme' };
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'credentials' };
  if (url.port === '0') return { ok: false, reason: 'port' };
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  if (host === '') return { ok: false, reason: 'scheme' };

  const family = isIP(host);
  if (family !== 0) {
    if (!policy.allowPrivate) return { ok: false, reason: 'ip-literal' };
    const cls = classifyAddress(host);
    if (cls !== undefined && !isRelaxable(cls)) return { ok: false, reason: 'private-address' };
    return { ok: true, url, host, literal: { address: host, family: family === 6 ? 6 : 4 } };
  }
  if (hasSuffix(host, 'localhost')) {
    return policy.allowPrivate ? { ok: true, url, host, literal: undefined } : { ok: false, reason: 'localhost' };
  }
  if (isInternalName(host)) return { ok: false, reason: 'internal' };
  return { ok: true, url, host, literal: undefined };
}

/** Every resolved address must be acceptable; one bad answer condemns the name. */
export function judgeAddresses(addresses: readonly ResolvedAddress[], policy: UrlPolicy): RejectionReason | undefined {
  if (addresses.length === 0) return 'dns';
  for (const { address } of addresses) {
    const cls = classifyAddress(address);
    if (cls !== undefined && !(policy.allowPrivate && isRelaxable(cls))) return 'private-address';
  }
  return undefined;
}

/**
 * The full check done before each send: static rules, then one resolution whose every answer must
 * be public. The returned `target` is the address to connect to.
 */
export async function checkUrlTarget(text: string, policy: UrlPolicy, resolve: Resolver): Promise<TargetCheck> {
  const checked = checkUrlStatic(text, policy);
  if (!checked.ok) return checked;
  const { url, host, literal } = checked;
  if (literal) return { ok: true, url, host, target: literal };
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolve(host);
  } catch {
    return { ok: false, reason: 'dns' };
  }
  const reason = judgeAddresses(addresses, policy);
  if (reason) return { ok: false, reason };
  return { ok: true, url, host, target: addresses[0]! };
}

/**
 * The check done when a rule is configured: static rules, and a resolution that refuses a name
 * pointing at a private address now. A name that does not resolve yet is accepted (the receiver
 * may not be deployed); every send checks again and records `rejected:dns`.
 */
export async function checkUrlAtConfiguration(text: string, policy: UrlPolicy, resolve: Resolver): Promise<RejectionReason | undefined> {
  const checked = await checkUrlTarget(text, policy, resolve);
  if (checked.ok || checked.reason === 'dns') return undefined;
  return checked.reason;
}
