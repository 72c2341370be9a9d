// svc seen from outside, on either profile: the embedded one (the built service as a child process on
// a data folder of its own) or the scale-out one (deploy/compose.yml's processes behind their proxy,
// each on a data folder of its own). The client speaks HTTP only, as an operator and an API user do:
// the admin API, the read API, the collection endpoint, import uploads and the export.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { until } from '../alerts/helpers/process.js';
import { spawnService } from '../helpers/child.js';
import { parseCsv } from '../helpers/csv.js';
import { startDeployment } from '../helpers/deployment.js';
import { uploadImport } from '../helpers/import-jobs.js';
import { ADMIN_TOKEN } from '../helpers/server.js';

export interface Profile {
  name: string;
  /** The service's one public address (the proxy's on the scale-out profile). */
  url: string;
  /** How long an import job may take: a scale-out worker takes queued jobs on its own schedule. */
  jobTimeoutMs: number;
  /** What the service's processes logged at level error or above so far: a failed check's message quotes them. */
  loggedErrors(): string;
  stop(): Promise<void>;
}

/** The lines of a process's JSON log at level error (50) or above. */
function errorLines(logs: string): string[] {
  return logs.split('\n').filter((line) => /^\{"level":(5|6)\d/.test(line));
}

/** The checks read more than the default 10 answers a minute. */
const READ_LIMIT = { SVC_API_RATE_LIMIT: '100000/60s' };

export async function startEmbedded(): Promise<Profile> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-contract-'));
  const service = await spawnService(dataDir, READ_LIMIT);
  return {
    name: 'embedded',
    url: service.url,
    jobTimeoutMs: 30_000,
    loggedErrors: () => errorLines(service.logs()).join('\n'),
    async stop() {
      service.child.kill('SIGTERM');
      await service.exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function startScaleOut(): Promise<Profile> {
  const deployment = await startDeployment({ extraEnv: READ_LIMIT });
  return {
    name: 'scale-out',
    url: deployment.url,
    jobTimeoutMs: 60_000,
    loggedErrors: () => deployment.instances.flatMap((i) => errorLines(i.process.logs()).map((line) => `${i.name}: ${line}`)).join('\n'),
    stop: () => deployment.stop(),
  };
}

export type Params = Record<string, string | number | string[]>;

/** A query string; an array value repeats its parameter (`filter`). */
function query(params: Params): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) for (const one of [value].flat()) search.append(name, String(one));
  return search.toString();
}

export class OutsideClient {
  apiKey = '';

  constructor(readonly profile: Profile) {}

  /** Behind an answer of 500 or more, what the service logged as errors (the cause a check's message then shows). */
  private errorsBehind(status: number): string {
    return status >= 500 ? `\nthe service logged:\n${this.profile.loggedErrors()}` : '';
  }

  async admin<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const res = await fetch(`${this.profile.url}/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  /** An admin call that must answer `status`: its body. */
  async adminOk<T = any>(status: number, method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.admin<T>(method, path, body);
    assert.equal(res.status, status, `${method} ${path}: ${JSON.stringify(res.body)}${this.errorsBehind(res.status)}`);
    return res.body;
  }

  /** `GET /v1/sites/:siteId/<what>` with the org's key: the status and the parsed body. */
  async read(siteId: string, what: string, params: Params): Promise<{ status: number; body: any }> {
    const res = await fetch(`${this.profile.url}/v1/sites/${siteId}/${what}?${query(params)}`, { headers: { authorization: `Bearer ${this.apiKey}` } });
    return { status: res.status, body: await res.json() };
  }

  /** A read that must answer 200: its body. */
  async readOk(siteId: string, what: string, params: Params): Promise<any> {
    const res = await this.read(siteId, what, params);
    assert.equal(res.status, 200, `${what}?${query(params)}: ${JSON.stringify(res.body)}${this.errorsBehind(res.status)}`);
    return res.body;
  }

  /** NDJSON events through the admin API's import; every line must be accepted. */
  async importEvents(siteId: string, lines: Array<Record<string, unknown>>): Promise<void> {
    const res = await fetch(`${this.profile.url}/admin/v1/sites/${siteId}/events/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
      body: lines.map((line) => JSON.stringify(line)).join('\n') + '\n',
    });
    const report = await res.json();
    assert.deepEqual([res.status, report.accepted, report.rejected], [200, lines.length, 0], JSON.stringify(report));
  }

  /** POST /api/e as a browser on `domain` sends it. */
  async collect(domain: string, userAgent: string, event: Record<string, unknown>): Promise<void> {
    const res = await fetch(`${this.profile.url}/api/e`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: `https://${domain}`, 'user-agent': userAgent },
      body: JSON.stringify(event),
    });
    await res.arrayBuffer();
    assert.equal(res.status, 202);
  }

  /** Uploads a CSV export of `source` and waits for its job to end: the job as the list shows it. */
  async imported(siteId: string, source: 'umami' | 'goatcounter', csv: string): Promise<any> {
    const headers = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'text/csv' };
    const created = await uploadImport({ url: this.profile.url, adminToken: ADMIN_TOKEN }, siteId, csv, `source=${source}&name=${source}-export.csv`, headers);
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const job = await until(
      `the ${source} import to end`,
      async () => {
        const { imports } = await this.adminOk(200, 'GET', `/sites/${siteId}/imports`);
        const found = imports.find((j: { importId: string }) => j.importId === created.body.importId);
        return found?.status === 'done' || found?.status === 'failed' ? found : undefined;
      },
      this.profile.jobTimeoutMs,
    );
    assert.equal(job.status, 'done', job.error);
    return job;
  }

  /** The export's files, by name, each as its records (header first). */
  async exportTables(siteId: string, from: string, to: string): Promise<Map<string, string[][]>> {
    const res = await fetch(`${this.profile.url}/admin/v1/sites/${siteId}/export?from=${from}&to=${to}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    assert.equal(res.status, 200);
    const files = new Map<string, string[][]>();
    for (const [name, text] of unzip(Buffer.from(await res.arrayBuffer()))) {
      files.set(name, text.split(/\r?\n/).filter((line) => line !== '').map((line) => parseCsv(line)[0]!));
    }
    return files;
  }
}

/** The entries of a ZIP archive (stored or deflated) as text, read through its central directory. */
export function unzip(zip: Buffer): Map<string, string> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(end >= 0, 'a ZIP archive ends with its end-of-directory record');
  const files = new Map<string, string>();
  let at = zip.readUInt32LE(end + 16);
  for (let entry = zip.readUInt16LE(end + 10); entry > 0; entry--) {
    const [method, size, nameLength] = [zip.readUInt16LE(at + 10), zip.readUInt32LE(at + 20), zip.readUInt16LE(at + 28)];
    const local = zip.readUInt32LE(at + 42);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + size);
    files.set(zip.toString('utf8', at + 46, at + 46 + nameLength), (method === 8 ? inflateRawSync(data) : data).toString('utf8'));
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return files;
}
