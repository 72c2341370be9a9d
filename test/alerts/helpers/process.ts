// For tests that run the service as a separate process (test/helpers/child.ts) and watch it send
// webhooks to the test receivers.
import { testCertificates } from '../../../support/test-certificates.js';

/** A service process's environment for loopback receivers: private addresses allowed, the test CA trusted the standard way. */
export function webhookReceiverEnv(): Record<string, string> {
  return { SVC_WEBHOOK_ALLOW_PRIVATE: '1', NODE_EXTRA_CA_CERTS: testCertificates().caFile };
}

/** Polls `probe` every 50 ms until it gives a value. */
export async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
