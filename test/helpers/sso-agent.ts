// A user agent for single sign-on at the HTTP level: it keeps each origin's cookies, trusts the test
// CA, follows redirects one at a time and fills the test provider's sign-in form, so a test can stop
// at the callback (to replay it, or to let svc's clock move first).
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { testCertificates } from '../../support/test-certificates.js';

export interface AgentAnswer {
  status: number;
  location: string | undefined;
  body: string;
}

export class SsoAgent {
  private readonly cookies = new Map<string, Map<string, string>>();

  /** `address`: the client svc sees, sent as X-Forwarded-For (svc trusts 127.0.0.1 as a proxy in these tests). */
  constructor(
    private readonly svcUrl: string,
    private readonly address?: string,
  ) {}

  /** The cookie `name` the agent holds for the svc origin. */
  svcCookie(name: string): string | undefined {
    return this.cookies.get(new URL(this.svcUrl).origin)?.get(name);
  }

  send(method: 'GET' | 'POST', address: string, form?: URLSearchParams, headers: Record<string, string> = {}): Promise<AgentAnswer> {
    const url = new URL(address, this.svcUrl);
    const jar = this.cookies.get(url.origin) ?? new Map<string, string>();
    this.cookies.set(url.origin, jar);
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const body = form?.toString();
    const options = {
      method,
      headers: { ...headers, ...(cookie ? { cookie } : {}), ...(this.address && url.origin === new URL(this.svcUrl).origin ? { 'x-forwarded-for': this.address } : {}), ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }) },
      ca: testCertificates().ca,
    };
    return new Promise((resolve, reject) => {
      const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, options, (res) => {
        for (const line of res.headers['set-cookie'] ?? []) {
          const [pair = ''] = line.split(';');
          const eq = pair.indexOf('=');
          const name = pair.slice(0, eq).trim();
          if (/max-age=0\b|expires=thu, 01 jan 1970/i.test(line)) jar.delete(name);
          else jar.set(name, pair.slice(eq + 1).trim());
        }
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location && new URL(res.headers.location, url).href, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  /** Starts single sign-on (with `next` if given): the provider's authorization address, or where svc sent the browser instead. */
  async start(next?: string): Promise<string> {
    const answer = await this.send('GET', next === undefined ? '/login/oidc/start' : `/login/oidc/start?${new URLSearchParams({ next })}`);
    if (answer.status !== 302 || !answer.location) throw new Error(`the start answered ${answer.status}`);
    return answer.location;
  }

  /** Signs in at the provider as `account` from its authorization address: svc's callback address, not yet visited. */
  async atProvider(authorizationUrl: string, account: string): Promise<string> {
    let location = authorizationUrl;
    for (let hop = 0; hop < 10; hop++) {
      if (location.startsWith(this.svcUrl)) return location;
      const answer = /\/interaction\//.test(location)
        ? await this.send('GET', location).then(() => this.send('POST', location, new URLSearchParams({ account })))
        : await this.send('GET', location);
      if (!answer.location) throw new Error(`the provider answered ${answer.status} at ${location}: ${answer.body.slice(0, 300)}`);
      location = answer.location;
    }
    throw new Error('the provider never sent the browser back');
  }

  /** Visits svc's callback: where svc sends the browser (next, or /login with a reason). */
  async callback(callbackUrl: string): Promise<string> {
    const answer = await this.send('GET', callbackUrl);
    if (answer.status !== 302 || !answer.location) throw new Error(`the callback answered ${answer.status}: ${answer.body.slice(0, 300)}`);
    return new URL(answer.location, this.svcUrl).pathname + new URL(answer.location, this.svcUrl).search;
  }

  /** The whole flow as `account`: where the browser lands. */
  async signIn(account: string, next?: string): Promise<string> {
    return this.callback(await this.atProvider(await this.start(next), account));
  }

  /** GET of an /app/v1 path with the agent's session: status and JSON body. */
  async app(path: string): Promise<{ status: number; body: any }> {
    const answer = await this.send('GET', `/app/v1${path}`);
    return { status: answer.status, body: answer.body ? JSON.parse(answer.body) : undefined };
  }
}
