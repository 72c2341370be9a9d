// `npm start`'s entry point as a separate process, for tests of crashes and of several processes
// on one database.
import { spawn, type ChildProcess } from 'node:child_process';
import { testCertificates } from './tls.js';

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

/**
 * The service in a child process, trusting the test CA the standard way. It picks its own port
 * (PORT=0) and says which in its log: a port found free beforehand could be taken by another
 * process before the child binds it.
 */
export function spawnService(dataDir: string, adminToken: string, env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      SVC_DATA_DIR: dataDir,
      SVC_ADMIN_TOKEN: adminToken,
      SVC_WEBHOOK_ALLOW_PRIVATE: '1',
      SVC_LOG_LEVEL: 'info',
      NODE_EXTRA_CA_CERTS: testCertificates().caFile,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/** The URL a child from spawnService listens on, read from its log (which is drained meanwhile). */
export function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let logs = '';
    child.stdout!.on('data', (d) => {
      if (logs.length < 100_000) logs += d;
      const m = /svc listening on (http:\/\/[\d.:]+)/.exec(logs);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code} before listening:\n${logs}`)));
    // Starting through tsx compiles the whole service: over 10 s on a loaded machine.
    setTimeout(() => reject(new Error(`not listening after 60 s:\n${logs}`)), 60_000).unref();
  });
}
