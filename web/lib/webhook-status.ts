// An alert delivery's status and a refused webhook URL in words, each refusal with how to fix it
// (the URL rules of docs/webhooks.md). test/web/lib.test.ts holds these reasons to the server's list.

/** Each reason of the server's RejectionReason (src/alerts/url-safety.ts), in words. */
export const REFUSALS = {
  'control-character': 'The URL contains a control character (a line break or tab, say): type it again without them.',
  scheme: 'The URL must start with https:// (plain http and other schemes are refused).',
  credentials: 'The URL contains a user name or password: remove them, and let the signing secret prove the sender.',
  port: 'Port 0 cannot be reached: remove the port or use the receiver’s real one.',
  localhost: 'localhost is this server itself: use a public name of the receiver.',
  internal: 'The host is a name of a private network (no dot, or .internal, .local, .lan…): use a public DNS name.',
  'ip-literal': 'The host is an IP address: use the receiver’s DNS name instead.',
  'private-address': 'The host resolves to a private or reserved address: use a name that resolves to a public address.',
  dns: 'The host name does not resolve: check its spelling and its DNS records.',
} as const;

const isRefusal = (reason: string): reason is keyof typeof REFUSALS => Object.hasOwn(REFUSALS, reason);

/** A `rejected:<reason>` status or refusal message in words; undefined for anything else. */
export function refusalInWords(text: string): string | undefined {
  const reason = /^rejected:([a-z-]+)/.exec(text)?.[1];
  return reason !== undefined && isRefusal(reason) ? REFUSALS[reason] : undefined;
}

/** An attempt's or delivery's status as a short phrase. */
export function statusInWords(status: string): string {
  if (status === 'succeeded') return 'Delivered';
  if (status === 'pending') return 'Pending';
  if (status === 'failed:timeout') return 'Failed: no answer within 10 s';
  if (status === 'failed:network') return 'Failed: no connection (refused, reset or TLS failure)';
  const http = /^failed:http-(\d+)$/.exec(status)?.[1];
  if (http !== undefined) return `Failed: the receiver answered HTTP ${http}`;
  const refusal = refusalInWords(status);
  return refusal === undefined ? status : `Refused: ${refusal}`;
}
