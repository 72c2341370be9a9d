// A real OpenID Connect provider for single sign-on tests: the `oidc-provider` package, over HTTPS
// on 127.0.0.1 with the test CA's certificate. Its sign-in page is a form that picks one of the
// test's accounts (`Provider account`, `Continue`); consent is given by the grant it loads, so one
// form stands between the authorization request and the callback. Keys rotate by restarting it
// with new ones on the same address.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { testCertificates } from './test-certificates.js';

export interface ProviderAccount {
  email: string;
  email_verified: boolean;
}

export interface TestProviderOptions {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** The port to listen on (a restart keeps the issuer); a free one by default. */
  port?: number;
  /** Seconds an ID token is valid (the provider's default is an hour). */
  idTokenTtlS?: number;
}

export interface TestProvider {
  issuer: string;
  port: number;
  /** The accounts its sign-in form offers, by id. */
  accounts: Map<string, ProviderAccount>;
  /** The `kid` of the key it signs with. */
  kid: string;
  stop(): Promise<void>;
}

/** A fresh RSA signing key as a private JWK with its own `kid`. */
function signingKey(): { kid: string; jwk: Record<string, unknown> } {
  const kid = randomUUID();
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { kid, jwk: { ...privateKey.export({ format: 'jwk' }), kid, use: 'sig', alg: 'RS256' } };
}

const page = (body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test provider</title></head><body>${body}</body></html>`;

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function startTestProvider(options: TestProviderOptions, accounts = new Map<string, ProviderAccount>()): Promise<TestProvider> {
  const { kid, jwk } = signingKey();
  const server: Server = createServer({ key: testCertificates().key, cert: testCertificates().cert });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const issuer = `https://127.0.0.1:${port}`;
  const configuration: Configuration = {
    clients: [{ client_id: options.clientId, client_secret: options.clientSecret, redirect_uris: [options.redirectUri], grant_types: ['authorization_code'], response_types: ['code'] }],
    jwks: { keys: [jwk as never] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    // The ID token carries the email claims itself, as most providers' do when `email` is asked.
    conformIdTokenClaims: false,
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
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const interaction = /^\/interaction\/([^/?]+)/.exec(req.url ?? '');
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
  return {
    issuer,
    port,
    accounts,
    kid,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve()).closeAllConnections()),
  };
}
