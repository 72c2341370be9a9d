// Single sign-on with one OpenID Connect provider (SVC_OIDC_*; docs/accounts.md), through the
// openid-client library: the authorization code flow with PKCE (S256), `state` and `nonce`. The
// provider's configuration is read at start and kept; while it cannot be read, each start of a flow
// (and a timer) tries again, and password sign-in works meanwhile. A flow is stored server-side for
// 10 minutes and used once; at most MAX_SSO_FLOWS are stored, and each start counts as a sign-in
// attempt of its client. Only a verified email is taken from the provider's ID token.
import { request as httpsRequest } from 'node:https';
import * as oidc from 'openid-client';
import type { Clock } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import { sha256Hex } from '../core/ids.js';
import { safeNext } from '../core/next-path.js';
import type { SsoFailure } from '../core/single-sign-on.js';
import type { OidcConfig } from '../config.js';
import type { AccountStore } from '../storage/meta/account-types.js';
import type { AccountService } from './service.js';
import type { NewSession } from './sessions.js';
import { checkEmail } from './service.js';

export const SSO_FLOW_VALID_MS = 10 * 60_000;
/** Flows stored at once: a client that starts flows it never finishes fills this, then waits for them to expire. */
export const MAX_SSO_FLOWS = 10_000;
/** The longest a request to the provider may take. */
const PROVIDER_TIMEOUT_S = 10;
/** A state longer than this was never one of ours (randomState's are 43 characters). */
const MAX_STATE_LENGTH = 256;
/** The largest answer read from the provider when the test CA is given. */
const MAX_PROVIDER_ANSWER_BYTES = 1_048_576;

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
   * of `origin`, else `/`). Counted as a sign-in attempt of the client.
   */
  async begin(rawNext: string | undefined, origin: string, address: string): Promise<string> {
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
    const now = this.options.clock.now();
    const stored = await this.options.store.createSsoFlow({ stateHash: sha256Hex(state), nonce, codeVerifier, next, expiresAt: now + SSO_FLOW_VALID_MS }, now, MAX_SSO_FLOWS);
    if (!stored) throw new SsoRefusal('busy', next, `${MAX_SSO_FLOWS} sign-ins are under way`);
    const url = oidc.buildAuthorizationUrl(this.client(), {
      redirect_uri: this.config.redirectUri,
      scope: 'openid email',
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    });
    return url.href;
  }

  /**
   * Finishes the flow of a callback's query (`search`, from `?`): the state's flow is taken (used
   * once), the code exchanged, the ID token checked (signature by the provider's keys, iss, aud,
   * exp, nonce) and its verified email signed in.
   */
  async complete(search: string): Promise<{ session: NewSession; next: string }> {
    const callback = new URL(this.config.redirectUri);
    callback.search = search;
    const state = callback.searchParams.get('state');
    const flow = state !== null && state.length <= MAX_STATE_LENGTH ? await this.options.store.takeSsoFlow(sha256Hex(state), this.options.clock.now()) : undefined;
    if (!flow) throw new SsoRefusal('state', '/', 'a callback of no flow under way (its state was used, expired or never given)');
    const error = callback.searchParams.get('error');
    if (error !== null) throw new SsoRefusal('denied', flow.next, `the provider answered ${JSON.stringify(error.slice(0, 100))}`);
    await this.discover();
    if (!this.server) throw new SsoRefusal('provider', flow.next, 'the provider\'s configuration is not read yet');
    let claims: oidc.IDToken | undefined;
    try {
      const tokens = await oidc.authorizationCodeGrant(this.client(), callback, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: state!,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (err) {
      const unreachable = err instanceof TypeError || (err instanceof oidc.ClientError && err.code === 'OAUTH_TIMEOUT');
      throw new SsoRefusal(unreachable ? 'provider' : 'check', flow.next, `the code exchange or the ID token failed: ${describe(err)}`);
    }
    if (claims?.email_verified !== true || typeof claims.email !== 'string') {
      throw new SsoRefusal('unverified', flow.next, `the ID token of subject ${JSON.stringify(claims?.sub)} has no verified email`);
    }
    const email = checkEmailOrUndefined(claims.email);
    if (!email) throw new SsoRefusal('check', flow.next, 'the ID token\'s email is no email address');
    const signedIn = await this.options.accounts.singleSignOn(email);
    if (!signedIn) throw new SsoRefusal('noAccount', flow.next, `${email} has no account, invitation or sign-in domain here`);
    return { session: signedIn.session, next: flow.next };
  }

  /**
   * The client of one request to the provider. Its clock is svc's (the ID token's `exp` is checked
   * against it); a new one per callback also reads the provider's keys anew, so a key the provider
   * rotated in is found by its `kid` on the first sign-in it signs.
   */
  private client(): oidc.Configuration {
    const skewS = Math.round((this.options.clock.now() - Date.now()) / 1000);
    const client = new oidc.Configuration(this.server!, this.config.clientId, { client_secret: this.config.clientSecret, [oidc.clockSkew]: skewS }, oidc.ClientSecretBasic(this.config.clientSecret));
    client.timeout = PROVIDER_TIMEOUT_S;
    const fetchOption = this.fetchOption();
    if (fetchOption[oidc.customFetch]) client[oidc.customFetch] = fetchOption[oidc.customFetch];
    return client;
  }

  private fetchOption(): { [oidc.customFetch]?: oidc.CustomFetch } {
    return this.options.ca === undefined ? {} : { [oidc.customFetch]: fetchTrusting(this.options.ca) };
  }
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
