// The set-up of single sign-on tests: addresses for svc and the test provider, and the variables and
// options that make svc use that provider (its test CA trusted, its client registered).
import { freePort } from '../../support/ports.js';
import { testCertificates } from '../../support/test-certificates.js';
import type { TestProviderOptions } from '../../support/oidc-provider.js';
import type { TestServerOptions } from './server.js';

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
