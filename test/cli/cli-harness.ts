// The `svc` command line's tests' harness: a real listening server per test file, the CLI run as a
// child process (`node --import tsx src/cli/svc.ts …`) against it, and readers of its output.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** The CLI's entry, run through tsx. */
export const ENTRY = resolve('src/cli/svc.ts');

/** The test server the CLI talks to, and a scratch folder (its data folder), both of the test file that calls startCliServer. */
export let server: TestServer;
export let scratch: string;

/** Starts the server and the scratch folder before the file's tests, and removes them after. */
export function startCliServer(): void {
  before(async () => {
    server = await startTestServer();
    scratch = mkdtempSync(join(tmpdir(), 'svc-cli-'));
  });
  after(async () => {
    await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  });
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** This process's environment without the test runner's variables nor any of svc's own. */
export function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith('NODE_TEST') && !k.startsWith('SVC_') && k !== 'PORT') env[k] = v;
  }
  return env;
}

/** Runs `svc ARGS` against the test server (overridable through `env`; undefined removes a variable). */
export function svc(args: string[], env: Record<string, string | undefined> = {}, input?: string): Promise<Run> {
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...cleanEnv(), SVC_URL: server.url, SVC_ADMIN_TOKEN: server.adminToken, SVC_DATA_DIR: scratch, ...env })) {
    if (v !== undefined) childEnv[k] = v;
  }
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, ...args], { env: childEnv, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    if (input !== undefined) child.stdin!.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** The value of a `key  value` line in readable output. */
export function field(output: string, key: string): string {
  const line = output.split('\n').find((l) => l.startsWith(key + ' '));
  assert.ok(line, `no "${key}" line in:\n${output}`);
  return line.slice(key.length).trim();
}

export function ok(run: Run): Run {
  assert.equal(run.code, 0, `exit ${run.code}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
  return run;
}

let domainCounter = 0;
export const uniqueDomain = () => `cli${++domainCounter}-${process.pid}.example`;
