// A real OpenID Connect provider for single sign-on tests: the `oidc-provider` package, over HTTPS
// on 127.0.0.1 with the test CA's certificate. Its sign-in page is a form that picks one of the
// test's accounts (`Provider account`, `Continue`); consent is given by the grant it loads, so one
// form stands between the authorization request and the callback. Keys rotate by restarting it
// with new ones on the same address. By default it returns the email claims from UserInfo only
// (the library's default, as OpenID Connect Core has it); `claimsInIdToken` puts them in the ID
// token too. `wrongSignature` makes its token endpoint hand out ID tokens signed wrongly.
import { createHmac, createPrivateKey, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { testCertificates } from './test-certificates.js';

/** An account's claims: no email at all is one a provider may have. */
export interface ProviderAccount {
  email?: string;
  email_verified?: boolean;
}

export interface TestProviderOptions {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** The port to listen on (a restart keeps the issuer); a free one by default. */
  port?: number;
  /** Seconds an ID token is valid (the provider's default is an hour). */
  idTokenTtlS?: number;
  /** The email claims in the ID token as well as from UserInfo (the library's default: UserInfo only). */
  claimsInIdToken?: boolean;
}

/**
 * How the token endpoint signs the ID tokens it hands out, when not as it should: `none` (unsigned),
 * `hs256` (an HMAC keyed with the client secret), `foreignKey` (RS256 by a key outside its JWKS,
 * under its key's `kid`), `iatAhead` (its own key, but issued a day in the future).
 */
export type WrongSignature = 'none' | 'hs256' | 'foreignKey' | 'iatAhead';

export interface TestProvider {
  issuer: string;
  port: number;
  /** The accounts its sign-in form offers, by id. */
  accounts: Map<string, ProviderAccount>;
  /** The `kid` of the key it signs with. */
  kid: string;
  /** Set to make the next tokens' ID tokens signed wrongly; undefined signs them as the library does. */
  wrongSignature: WrongSignature | undefined;
  stop(): Promise<void>;
}

/** A fresh RSA signing key as a private JWK with its own `kid`. */
function signingKey(): { kid: string; jwk: Record<string, unknown> } {
  const kid = randomUUID();
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { kid, jwk: { ...privateKey.export({ format: 'jwk' }), kid, use: 'sig', alg: 'RS256' } };
}

const page = (body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test provider</title></head><body>${body}</body></html>`;

const base64url = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** The ID token `jwt` signed again the `wrong` way (its claims kept, but for iatAhead's times). */
function signWrongly(jwt: string, wrong: WrongSignature, own: { kid: string; jwk: Record<string, unknown> }, clientSecret: string): string {
  const claims = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, number>;
  if (wrong === 'iatAhead') Object.assign(claims, { iat: claims.iat! + 86_400, exp: claims.exp! + 86_400 });
  const alg = wrong === 'none' ? 'none' : wrong === 'hs256' ? 'HS256' : 'RS256';
  const input = `${base64url({ alg, typ: 'JWT', ...(alg === 'RS256' ? { kid: own.kid } : {}) })}.${base64url(claims)}`;
  if (wrong === 'none') return `${input}.`;
  if (wrong === 'hs256') return `${input}.${createHmac('sha256', clientSecret).update(input).digest('base64url')}`;
  const key = wrong === 'iatAhead' ? createPrivateKey({ key: own.jwk as never, format: 'jwk' }) : generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
}

/** Has the token endpoint's answer on `res` carry its ID token as `rewrite` makes it. */
function rewriteIdToken(res: ServerResponse, rewrite: (idToken: string) => string): void {
  const end = res.end.bind(res) as (body?: unknown) => ServerResponse;
  res.end = ((body?: unknown) => {
    if (body === undefined || body === null || typeof body === 'function') return end(body);
    const answer = JSON.parse(Buffer.from(body as string).toString('utf8')) as { id_token?: string };
    if (answer.id_token) answer.id_token = rewrite(answer.id_token);
    const text = JSON.stringify(answer);
    res.setHeader('content-length', Buffer.byteLength(text));
    return end(text);
  }) as ServerResponse['end'];
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function startTestProvider(options: TestProviderOptions, accounts = new Map<string, ProviderAccount>()): Promise<TestProvider> {
  const own = signingKey();
  const { kid, jwk } = own;
  const server: Server = createServer({ key: testCertificates().key, cert: testCertificates().cert });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const issuer = `https://127.0.0.1:${port}`;
  const configuration: Configuration = {
    clients: [{ client_id: options.clientId, client_secret: options.clientSecret, redirect_uris: [options.redirectUri], grant_types: ['authorization_code'], response_types: ['code'] }],
    jwks: { keys: [jwk as never] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    // false: the ID token carries the email claims itself, as many providers' do when `email` is asked.
    conformIdTokenClaims: !options.claimsInIdToken,
    features: { devInteractions: { enabled: false } },
    cookies: { keys: [randomUUID()] },
    ttl: { IdToken: options.idTokenTtlS ?? 3600 },
    async findAccount(_ctx: KoaContextWithOIDC, id: string) {
      const account = accounts.get(id);
      return account && { accountId: id, claims: async () => ({ sub: id, ...account }) };
    },
    // Consent is the test's: every grant asked for is given.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope('openid email');
      await grant.save();
      return grant;
    },
  };
  const provider = new Provider(issuer, configuration);
  const oidcHandler = provider.callback();
  const handle: TestProvider = {
    issuer,
    port,
    accounts,
    kid,
    wrongSignature: undefined,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve()).closeAllConnections()),
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const interaction = /^\/interaction\/([^/?]+)/.exec(req.url ?? '');
    const wrong = handle.wrongSignature;
    if (wrong !== undefined && req.url === '/token') rewriteIdToken(res, (idToken) => signWrongly(idToken, wrong, own, options.clientSecret));
    if (!interaction) return void oidcHandler(req, res);
    void (async () => {
      if (req.method === 'GET') {
        await provider.interactionDetails(req, res);
        const choices = [...accounts.keys()].map((id) => `<option value="${id}">${id}</option>`).join('');
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(page(`<form method="post"><label>Provider account <select name="account">${choices}</select></label><button type="submit">Continue</button></form>`));
        return;
      }
      const account = (await readForm(req)).get('account') ?? '';
      await provider.interactionFinished(req, res, { login: { accountId: account } }, { mergeWithLastSubmission: false });
    })().catch((err: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(err));
    });
  });
  return handle;
}
