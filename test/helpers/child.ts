// svc as a real process (dist/main.js, so `npm run build` first), for what only a process shows:
// signals, kill -9, the modes of the files it creates.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { ADMIN_TOKEN } from './server.js';

export interface ServiceProcess {
  child: ChildProcessWithoutNullStreams;
  url: string;
  /** Everything the process wrote to stdout and stderr so far. */
  logs(): string;
  /** Resolves with the exit code (or signal) once the process's output is all read. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `node dist/main.js` on `dataDir` (any port, the test admin token) and waits until it listens. */
export async function spawnService(dataDir: string, env: Record<string, string> = {}): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['dist/main.js'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', SVC_DATA_DIR: dataDir, SVC_ADMIN_TOKEN: ADMIN_TOKEN, SVC_LOG_LEVEL: 'info', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let logs = '';
  child.stderr.on('data', (d) => (logs += d));
  child.stdout.on('data', (d) => (logs += d));
  // 'close', not 'exit': only then has everything the child wrote been read into logs.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  const url = await new Promise<string>((resolve, reject) => {
    const look = () => {
      const m = /svc listening on (http:\/\/[\d.:]+)/.exec(logs);
      if (m) resolve(m[1]!);
    };
    child.stdout.on('data', look);
    exited.then(({ code }) => reject(new Error(`exited ${code} before listening:\n${logs}`)));
  });
  return { child, url, logs: () => logs, exited };
}
