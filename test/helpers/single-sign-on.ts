// The set-up of single sign-on tests: addresses for svc and the test provider, the variables and
// options that make svc use that provider (its test CA trusted, its client registered), and an email
// confirmed through the link svc mails.
import { ManualClock } from '../../src/core/clock.js';
import { freePort } from '../../support/ports.js';
import { testCertificates } from '../../support/test-certificates.js';
import { startTestProvider, type ProviderAccount, type TestProvider, type TestProviderOptions } from '../../support/oidc-provider.js';
import { AppClient } from './app-client.js';
import { startTestServer, type TestServer, type TestServerOptions } from './server.js';
import { startSmtp, type SmtpListener } from './smtp.js';
import { SsoAgent } from './sso-agent.js';

export const SSO_CLIENT = { clientId: 'svc-test', clientSecret: 'svc-test-secret-0123456789' };
export const SSO_NAME = 'Test ID';

export interface SsoAddresses {
  /** svc's port and SVC_PUBLIC_URL. */
  svcPort: number;
  publicUrl: string;
  /** What the test provider starts with (its port fixed, so svc knows its issuer first). */
  provider: TestProviderOptions & { port: number };
  issuer: string;
}

export async function ssoAddresses(idTokenTtlS?: number): Promise<SsoAddresses> {
  const svcPort = await freePort();
  const providerPort = await freePort();
  const publicUrl = `http://127.0.0.1:${svcPort}`;
  return {
    svcPort,
    publicUrl,
    provider: { ...SSO_CLIENT, redirectUri: `${publicUrl}/login/oidc/callback`, port: providerPort, idTokenTtlS },
    issuer: `https://127.0.0.1:${providerPort}`,
  };
}

/** svc's options for the provider of `addresses`; 127.0.0.1 is a trusted proxy, so a client may name its address. */
export function ssoServerOptions(addresses: SsoAddresses): Pick<TestServerOptions, 'env' | 'oidc'> {
  return {
    oidc: { ca: testCertificates().ca, retryMs: 3_600_000 },
    env: {
      PORT: String(addresses.svcPort),
      SVC_PUBLIC_URL: addresses.publicUrl,
      SVC_OIDC_ISSUER: addresses.issuer,
      SVC_OIDC_CLIENT_ID: SSO_CLIENT.clientId,
      SVC_OIDC_CLIENT_SECRET: SSO_CLIENT.clientSecret,
      SVC_OIDC_NAME: SSO_NAME,
      SVC_TRUSTED_PROXIES: '127.0.0.1',
    },
  };
}

export const PASSWORD = 'correct horse battery staple';

export interface Setup {
  svc: TestServer;
  provider: TestProvider;
  addresses: SsoAddresses;
  clock: ManualClock;
  warnings: string[];
  /** The SMTP sink svc mails its confirmation links to. */
  smtp: SmtpListener;
  stop(): Promise<void>;
}

/**
 * A provider (in the library's default configuration unless `claimsInIdToken`), an SMTP sink and an
 * svc that trusts the provider and mails through the sink; svc's clock is a manual one that starts now.
 */
export async function setUp(options: { idTokenTtlS?: number; providerDown?: boolean; claimsInIdToken?: boolean } = {}): Promise<Setup> {
  const addresses = await ssoAddresses(options.idTokenTtlS);
  addresses.provider.claimsInIdToken = options.claimsInIdToken;
  const accounts = new Map<string, ProviderAccount>();
  const provider = options.providerDown ? undefined : await startTestProvider(addresses.provider, accounts);
  const clock = new ManualClock(Date.now());
  const warnings: string[] = [];
  const smtp = await startSmtp();
  const server = ssoServerOptions(addresses);
  const svc = await startTestServer({
    clock,
    log: { info() {}, error() {}, warn: (obj: unknown, message?: string) => warnings.push(`${message ?? ''} ${JSON.stringify(obj)}`) },
    ...server,
    env: { ...server.env, SVC_SMTP_URL: smtp.url },
  });
  const setup: Setup = {
    svc,
    provider: provider ?? { issuer: addresses.issuer, port: addresses.provider.port, accounts, kid: '', wrongSignature: undefined, stop: async () => {} },
    addresses,
    clock,
    warnings,
    smtp,
    stop: async () => {
      await svc.stop();
      await setup.provider.stop();
      await smtp.close();
    },
  };
  return setup;
}

/** The link of the last mail svc sent to `email` (quoted-printable soft line breaks joined again). */
export function mailedLink(smtp: SmtpListener, email: string): string {
  const mail = smtp.mails.findLast((m) => m.to.some((to) => to.toLowerCase() === email.toLowerCase()));
  const text = mail?.data.replace(/=\r?\n/g, '').replace(/=3D/g, '=') ?? '';
  const link = /https?:\/\/\S+\/account\/email\/confirm\/[\w-]{43}/.exec(text)?.[0];
  if (!link) throw new Error(`no confirmation link was mailed to ${email}`);
  return link;
}

/** Follows a confirmation link as a browser does (its page's button): the status and the page. */
export async function followLink(link: string): Promise<{ status: number; text: string }> {
  const res = await fetch(link, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
  return { status: res.status, text: await res.text() };
}

/** Signs in with the password, asks for a link that confirms the email, and follows it. */
export async function confirmEmail(setup: Setup, email: string, password = PASSWORD): Promise<void> {
  const client = new AppClient(setup.svc);
  const signedIn = await client.signIn(email, password);
  if (signedIn.status !== 200) throw new Error(`sign-in failed: ${signedIn.text}`);
  const asked = await client.request('POST', '/app/v1/account/email/confirmation');
  if (asked.status !== 202) throw new Error(`the confirmation was refused: ${asked.text}`);
  const followed = await followLink(mailedLink(setup.smtp, email));
  if (followed.status !== 200) throw new Error(`the link was refused: ${followed.text}`);
}

/** Browsers of a client address each (each client has its own sign-in rate limit), at svc's clock set to now. */
export function agentsOf(setup: () => Setup): () => SsoAgent {
  let clients = 0;
  return () => {
    setup().clock.set(Date.now());
    return new SsoAgent(setup().svc.url, `203.0.113.${++clients}`);
  };
}
