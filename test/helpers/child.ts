// svc as a real process (dist/main.js, so `npm run build` first), for what only a process shows:
// signals, kill -9, the modes of the files it creates.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { ADMIN_TOKEN, perAddressCap } from './server.js';

export interface LoggedProcess {
  child: ChildProcessWithoutNullStreams;
  /** Everything the process wrote to stdout and stderr so far. */
  logs(): string;
  /** Resolves with the exit code (or signal) once the process's output is all read. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface ServiceProcess extends LoggedProcess {
  url: string;
}

/** Starts `argv` (argv[0] the program) with exactly `env`, keeping what it writes. */
export function spawnLogged(argv: string[], env: Record<string, string | undefined>, cwd?: string): LoggedProcess {
  const child = spawn(argv[0]!, argv.slice(1), { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let logs = '';
  child.stderr.on('data', (d) => (logs += d));
  child.stdout.on('data', (d) => (logs += d));
  // 'close', not 'exit': only then has everything the child wrote been read into logs.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  return { child, logs: () => logs, exited };
}

/** `npm start`'s command, word by word: the process runs as it is deployed. */
export const START_COMMAND = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } }).scripts.start.split(/\s+/);
const START_FLAGS = START_COMMAND.filter((arg) => arg.startsWith('--'));

/** Starts `node dist/main.js` with `npm start`'s flags on `dataDir` (any port, the test admin token) and waits until it listens; `cwd`: the checkout (bench/memory runs others). */
export async function spawnService(dataDir: string, env: Record<string, string> = {}, cwd?: string): Promise<ServiceProcess> {
  const started = spawnLogged([process.execPath, ...START_FLAGS, 'dist/main.js'], {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    SVC_DATA_DIR: dataDir,
    SVC_ADMIN_TOKEN: ADMIN_TOKEN,
    SVC_LOG_LEVEL: 'info',
    ...env,
    ...perAddressCap(env),
  }, cwd);
  const url = await new Promise<string>((resolve, reject) => {
    const look = () => {
      const m = /svc listening on (http:\/\/[\d.:]+)/.exec(started.logs());
      if (m) resolve(m[1]!);
    };
    started.child.stdout.on('data', look);
    started.exited.then(({ code }) => reject(new Error(`exited ${code} before listening:\n${started.logs()}`)));
  });
  return { ...started, url };
}
