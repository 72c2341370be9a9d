// The `svc` command run as a child process, as a user runs it: the test's environment without the
// test runner's variables and any SVC_ setting of its own, plus `env` (the server, its token, a data folder).
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

const ENTRY = resolve('src/cli/svc.ts');

export interface SvcRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runSvc(args: readonly string[], env: Record<string, string>): Promise<SvcRun> {
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('NODE_TEST') && !k.startsWith('SVC_')) childEnv[k] = v;
  Object.assign(childEnv, env);
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, ...args], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}
