// A real nginx (Debian's nginx-light) as a child process of the test, in a prefix dir of its own:
// one process (no master), no daemon, every path nginx writes inside that dir.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitForPort } from '../../support/ports.js';

const NGINX = '/usr/sbin/nginx';

export interface NginxProcess {
  /** Everything nginx wrote to stderr so far. */
  logs(): string;
  stop(): Promise<void>;
}

/** Starts nginx with `http` as its http { } block's content and waits until each of `ports` accepts. */
export async function startNginx(http: string, ports: number[]): Promise<NginxProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-nginx-'));
  const conf = `
daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${http}
}
`;
  writeFileSync(join(dir, 'nginx.conf'), conf);
  const child = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await Promise.race([
      Promise.all(ports.map((port) => waitForPort(port))),
      exited.then((code) => Promise.reject(new Error(`nginx exited ${code}: ${stderr}`))),
    ]);
  } catch (err) {
    await stop();
    throw err;
  }
  return { logs: () => stderr, stop };
}
