// One webhook attempt: check the URL (with DNS), connect to the checked address only, POST the
// signed body, and turn whatever happens into an attempt status. Redirects are never followed:
// node:https does not follow them, and a 3xx is simply a non-2xx status.
import { request, type RequestOptions } from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkUrlTarget, type ResolvedAddress, type Resolver, type UrlPolicy } from './url-safety.js';

export type AttemptStatus = 'succeeded' | `failed:http-${number}` | 'failed:timeout' | 'failed:network' | `rejected:${string}`;

export interface SenderOptions {
  policy: UrlPolicy;
  resolve: Resolver;
  timeoutMs: number;
  /** Extra trusted CA certificates (tests); production trusts Node's store and NODE_EXTRA_CA_CERTS. */
  ca?: string | Buffer;
}

export interface WebhookRequest {
  url: string;
  body: string;
  /** Called right before the request is written, so the signature carries the send-time clock. */
  headers: () => Record<string, string>;
}

/** A lookup that answers the already-checked address and never asks DNS again. */
function pinnedLookup(target: ResolvedAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as unknown as LookupFunction;
}

/** Whether a failed attempt is worth repeating: URL-policy refusals will not change, DNS may. */
export function isRetryable(status: AttemptStatus): boolean {
  return status !== 'succeeded' && (!status.startsWith('rejected:') || status === 'rejected:dns');
}

export async function sendWebhook(req: WebhookRequest, options: SenderOptions): Promise<AttemptStatus> {
  const checked = await checkUrlTarget(req.url, options.policy, options.resolve);
  if (!checked.ok) return `rejected:${checked.reason}`;
  const { url, host, target } = checked;
  const headers = req.headers();
  const requestOptions: RequestOptions = {
    method: 'POST',
    host,
    port: url.port === '' ? 443 : Number(url.port),
    path: `${url.pathname}${url.search}`,
    // SNI and certificate check use the name; an IP literal target (allowed in development) has none.
    servername: target.address === host ? undefined : host,
    headers: { ...headers, 'content-length': String(Buffer.byteLength(req.body)), 'user-agent': 'svc-webhooks/1' },
    lookup: pinnedLookup(target),
    // A fresh connection per attempt: a pooled socket would skip the check made for this attempt.
    agent: false,
    ca: options.ca,
  };

  return new Promise<AttemptStatus>((resolve) => {
    let settled = false;
    const finish = (status: AttemptStatus) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(status);
    };
    const outgoing = request(requestOptions, (res) => {
      const code = res.statusCode ?? 0;
      // The answer is the status line; the body is read and dropped so the socket can close.
      res.resume();
      res.on('error', () => undefined);
      finish(code >= 200 && code < 300 ? 'succeeded' : `failed:http-${code}`);
      outgoing.destroy();
    });
    const timer = setTimeout(() => {
      finish('failed:timeout');
      outgoing.destroy();
    }, options.timeoutMs);
    outgoing.on('error', () => finish('failed:network'));
    outgoing.end(req.body);
  });
}
