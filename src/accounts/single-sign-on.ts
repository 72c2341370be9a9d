// Single sign-on with one OpenID Connect provider (SVC_OIDC_*; docs/accounts.md), through the
// openid-client library: the authorization code flow with PKCE (S256), `state` and `nonce`. The
// provider's configuration is read at start and kept; while it cannot be read, each start of a flow
// (and a timer) tries again, and password sign-in works meanwhile. A flow is stored server-side for
// 10 minutes, used once and bound to the browser that started it (a cookie's secret); at most
// MAX_SSO_FLOWS are stored, MAX_SSO_FLOWS_PER_NETWORK of one client network, and each start counts
// as a sign-in attempt of its client. The ID token's signature is verified against the provider's
// keys; its email claims, or the UserInfo endpoint's where it has none, give the verified email.
import { request as httpsRequest } from 'node:https';
import * as oidc from 'openid-client';
import type { Clock } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import { sha256Hex } from '../core/ids.js';
import { truncatedIp } from '../ingest/ip.js';
import { safeNext } from '../core/next-path.js';
import type { SsoFailure } from '../core/single-sign-on.js';
import type { OidcConfig } from '../config.js';
import type { SsoFlow } from '../entities/accounts.js';
import type { AccountStore } from '../storage/meta/account-types.js';
import type { AccountService } from './service.js';
import type { NewSession } from './sessions.js';
import { checkEmail } from './service.js';

export const SSO_FLOW_VALID_MS = 10 * 60_000;
/** Flows stored at once: clients that start flows they never finish fill this, then wait for them to expire. */
export const MAX_SSO_FLOWS = 10_000;
/** Flows of one client network (IPv4 /24, IPv6 /64) stored at once: one network cannot fill MAX_SSO_FLOWS. */
export const MAX_SSO_FLOWS_PER_NETWORK = 200;
/** How far in the future an ID token's `iat` may be (the two clocks' drift). */
const MAX_IAT_AHEAD_S = 60;
/** The longest a request to the provider may take. */
const PROVIDER_TIMEOUT_S = 10;
/** A state longer than this was never one of ours (randomState's are 43 characters). */
const MAX_STATE_LENGTH = 256;
/** The largest answer read from the provider when the test CA is given. */
const MAX_PROVIDER_ANSWER_BYTES = 1_048_576;
/** The browser cookie's secret: 43 base64url characters (randomState's). */
const BROWSER_SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A flow that did not sign in: the sign-in page's reason, where the browser was going, and what the log says. */
export class SsoRefusal extends Error {
  constructor(
    readonly failure: SsoFailure,
    readonly next: string,
    detail: string,
  ) {
    super(detail);
  }
}

export interface SingleSignOnOptions {
  accounts: AccountService;
  store: AccountStore;
  clock: Clock;
  warn(message: string): void;
  /** A CA certificate the provider's HTTPS is trusted by (tests); else Node's store and NODE_EXTRA_CA_CERTS. */
  ca?: string;
  /** How long after a failed read of the provider's configuration the timer tries again (doubling to 5 minutes). */
  retryMs?: number;
}

export class SingleSignOn {
  private server: oidc.ServerMetadata | undefined;
  private reading: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    readonly config: OidcConfig,
    private readonly options: SingleSignOnOptions,
  ) {}

  /** Reads the provider's configuration now, and again on a timer until it succeeds. */
  start(): void {
    const retry = (delayMs: number) => {
      this.timer = setTimeout(() => void this.discover().then(() => this.server || retry(Math.min(delayMs * 2, 300_000))), delayMs);
      this.timer.unref();
    };
    void this.discover().then(() => this.server || retry(this.options.retryMs ?? 15_000));
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** One read at a time of the provider's `/.well-known/openid-configuration`; a failure is logged. */
  private discover(): Promise<void> {
    if (this.server || this.stopped) return Promise.resolve();
    this.reading ??= oidc
      .discovery(new URL(this.config.issuer), this.config.clientId, this.config.clientSecret, undefined, { timeout: PROVIDER_TIMEOUT_S, ...this.fetchOption() })
      .then(
        (configuration) => {
          this.server = configuration.serverMetadata();
        },
        (err: unknown) => this.options.warn(`single sign-on: the provider's configuration (${this.config.issuer}) could not be read, password sign-in still works: ${describe(err)}`),
      )
      .finally(() => {
        this.reading = undefined;
      });
    return this.reading;
  }

  /**
   * The provider's authorization address of a new flow that lands on `rawNext` (a same-origin path
   * of `origin`, else `/`), and the secret of the cookie that binds it to this browser (the one the
   * browser holds, `browserSecret`, when it holds one: flows started in two tabs both finish).
   * Counted as a sign-in attempt of the client.
   */
  async begin(rawNext: string | undefined, origin: string, address: string, browserSecret: string | undefined): Promise<{ url: string; browserSecret: string }> {
    const next = safeNext(rawNext, origin);
    try {
      await this.options.accounts.admitSignIn(address);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'RATE_LIMITED') throw new SsoRefusal('busy', next, `the client ${address} started too many sign-ins`);
      throw err;
    }
    await this.discover();
    if (!this.server) throw new SsoRefusal('provider', next, 'the provider\'s configuration is not read yet');
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const secret = browserSecret !== undefined && BROWSER_SECRET_PATTERN.test(browserSecret) ? browserSecret : oidc.randomState();
    const now = this.options.clock.now();
    const network = truncatedIp(address);
    const flow = { stateHash: sha256Hex(state), nonce, codeVerifier, next, expiresAt: now + SSO_FLOW_VALID_MS, browserHash: sha256Hex(secret), network };
    const stored = await this.options.store.createSsoFlow(flow, now, { total: MAX_SSO_FLOWS, perNetwork: MAX_SSO_FLOWS_PER_NETWORK });
    if (stored === 'full') throw new SsoRefusal('busy', next, `${MAX_SSO_FLOWS} sign-ins are under way`);
    if (stored === 'network-full') throw new SsoRefusal('busy', next, `${MAX_SSO_FLOWS_PER_NETWORK} sign-ins of the network ${network} are under way`);
    const url = oidc.buildAuthorizationUrl(this.client(), {
      redirect_uri: this.config.redirectUri,
      scope: 'openid email',
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, browserSecret: secret };
  }

  /**
   * Finishes the flow of a callback's query (`search`, from `?`) in the browser holding
   * `browserSecret`: the state's flow is taken (used once) and must be this browser's, the code
   * exchanged, the ID token checked (verifiedClaims) and its verified email signed in.
   */
  async complete(search: string, browserSecret: string | undefined): Promise<{ session: NewSession; next: string }> {
    const callback = new URL(this.config.redirectUri);
    callback.search = search;
    const state = callback.searchParams.get('state');
    const flow = state !== null && state.length <= MAX_STATE_LENGTH ? await this.options.store.takeSsoFlow(sha256Hex(state), this.options.clock.now()) : undefined;
    if (!flow) throw new SsoRefusal('state', '/', 'a callback of no flow under way (its state was used, expired or never given)');
    if (browserSecret === undefined || !BROWSER_SECRET_PATTERN.test(browserSecret) || sha256Hex(browserSecret) !== flow.browserHash) {
      throw new SsoRefusal('browser', '/', 'a callback in a browser that did not start its flow (no or another flow cookie)');
    }
    const error = callback.searchParams.get('error');
    if (error !== null) throw new SsoRefusal('denied', flow.next, `the provider answered ${JSON.stringify(error.slice(0, 100))}`);
    await this.discover();
    if (!this.server) throw new SsoRefusal('provider', flow.next, 'the provider\'s configuration is not read yet');
    const { email, verified, subject } = await this.verifiedClaims(callback, state!, flow);
    if (email === undefined) throw new SsoRefusal('noEmail', flow.next, `neither the ID token nor UserInfo of subject ${JSON.stringify(subject)} has an email claim`);
    if (!verified) throw new SsoRefusal('unverified', flow.next, `the provider says the email of subject ${JSON.stringify(subject)} is not verified`);
    const checked = checkEmailOrUndefined(email);
    if (!checked) throw new SsoRefusal('check', flow.next, 'the provider\'s email is no email address');
    const signedIn = await this.options.accounts.singleSignOn(checked);
    if (signedIn === 'noAccount') throw new SsoRefusal('noAccount', flow.next, `${checked} has no account, invitation or sign-in domain here`);
    if (signedIn === 'unconfirmed') throw new SsoRefusal('unconfirmed', flow.next, `the account of ${checked} has an unconfirmed email: single sign-on does not take it over`);
    return { session: signedIn.session, next: flow.next };
  }

  /**
   * The code exchanged for tokens, the ID token checked (its signature by a key of the provider's
   * JWKS, by `kid`, in an advertised asymmetric algorithm; iss, aud, azp, exp, iat, nonce), and the
   * email claims: the ID token's, or where it lacks them the UserInfo endpoint's (whose `sub` must be
   * the ID token's).
   */
  private async verifiedClaims(callback: URL, state: string, flow: SsoFlow): Promise<{ email: string | undefined; verified: boolean; subject: string }> {
    const client = this.client();
    let claims: oidc.IDToken;
    let tokens: oidc.TokenEndpointResponse;
    try {
      tokens = await oidc.authorizationCodeGrant(client, callback, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      claims = (tokens as oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers).claims()!;
    } catch (err) {
      throw new SsoRefusal(unreachable(err) ? 'provider' : 'check', flow.next, `the code exchange or the ID token failed: ${describe(err)}`);
    }
    const nowS = Math.floor(this.options.clock.now() / 1000);
    if (claims.iat > nowS + MAX_IAT_AHEAD_S) throw new SsoRefusal('check', flow.next, `the ID token's iat ${claims.iat} is more than ${MAX_IAT_AHEAD_S} s ahead of ${nowS}`);
    if (claims.azp !== undefined && claims.azp !== this.config.clientId) throw new SsoRefusal('check', flow.next, `the ID token's azp ${JSON.stringify(claims.azp)} is not this client`);
    if (typeof claims.email === 'string' && claims.email_verified !== undefined) return { email: claims.email, verified: claims.email_verified === true, subject: claims.sub };
    if (this.server?.userinfo_endpoint === undefined) return { email: undefined, verified: false, subject: claims.sub };
    try {
      const info = await oidc.fetchUserInfo(client, tokens.access_token, claims.sub);
      return { email: typeof info.email === 'string' ? info.email : undefined, verified: info.email_verified === true, subject: claims.sub };
    } catch (err) {
      throw new SsoRefusal(unreachable(err) ? 'provider' : 'check', flow.next, `the UserInfo request failed: ${describe(err)}`);
    }
  }

  /**
   * The client of one request to the provider. Its clock is svc's (the ID token's `exp` is checked
   * against it); a new one per callback also reads the provider's keys anew, so a key the provider
   * rotated in is found by its `kid` on the first sign-in it signs.
   */
  private client(): oidc.Configuration {
    const skewS = Math.round((this.options.clock.now() - Date.now()) / 1000);
    // Only the advertised algorithms of a key in the provider's JWKS: never `none`, never an HMAC
    // (whose key would be the client secret, which svc does not configure as a signing key).
    const algorithms = (this.server!.id_token_signing_alg_values_supported ?? ['RS256']).filter((alg) => alg !== 'none' && !alg.startsWith('HS'));
    const server = { ...this.server!, id_token_signing_alg_values_supported: algorithms };
    const client = new oidc.Configuration(server, this.config.clientId, { client_secret: this.config.clientSecret, [oidc.clockSkew]: skewS }, oidc.ClientSecretBasic(this.config.clientSecret));
    client.timeout = PROVIDER_TIMEOUT_S;
    const fetchOption = this.fetchOption();
    if (fetchOption[oidc.customFetch]) client[oidc.customFetch] = fetchOption[oidc.customFetch];
    // openid-client takes an ID token from the token endpoint unverified unless asked: this checks its signature by the JWKS.
    oidc.enableNonRepudiationChecks(client);
    return client;
  }

  private fetchOption(): { [oidc.customFetch]?: oidc.CustomFetch } {
    return this.options.ca === undefined ? {} : { [oidc.customFetch]: fetchTrusting(this.options.ca) };
  }
}

/** A failure of reaching the provider (as against an answer that failed a check). */
function unreachable(err: unknown): boolean {
  return err instanceof TypeError || (err instanceof oidc.ClientError && err.code === 'OAUTH_TIMEOUT');
}

function checkEmailOrUndefined(value: string): string | undefined {
  try {
    return checkEmail(value);
  } catch {
    return undefined;
  }
}

/** An error's message with its code and cause, for the log line. */
function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { code?: unknown }).code;
  const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return `${err.message}${typeof code === 'string' ? ` (${code})` : ''}${cause}`;
}

/** fetch over HTTPS trusting `ca` (Node's fetch takes no CA of its own). */
function fetchTrusting(ca: string): oidc.CustomFetch {
  return (url, options) =>
    new Promise<Response>((resolve, reject) => {
      const request = httpsRequest(url, { method: options.method, headers: options.headers, ca, signal: options.signal }, (answer) => {
        const chunks: Buffer[] = [];
        let size = 0;
        answer.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_PROVIDER_ANSWER_BYTES) answer.destroy(new Error('the provider\'s answer is too large'));
          else chunks.push(chunk);
        });
        answer.on('error', reject);
        answer.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(answer.headers)) for (const one of [value ?? []].flat()) headers.append(name, one);
          const status = answer.statusCode ?? 502;
          resolve(new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status, headers }));
        });
      });
      request.on('error', reject);
      const body = options.body;
      request.end(body === null || body === undefined ? undefined : body instanceof URLSearchParams ? body.toString() : (body as string | Uint8Array));
    });
}
