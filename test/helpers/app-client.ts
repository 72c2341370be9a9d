// A browser-like client of the dashboard's /app/v1: keeps the svc_session cookie and the session's
// CSRF token, and sends the service's own Origin on changes, as the dashboard's pages do.
import assert from 'node:assert/strict';
import type { TestServer } from './server.js';
import { REASON_HEADER } from '../../src/core/answer-headers.js';

export interface AppResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export class AppClient {
  cookie: string | undefined;
  csrfToken: string | undefined;

  constructor(readonly server: TestServer) {}

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<AppResult<T>> {
    const all: Record<string, string> = { ...headers };
    if (this.cookie) all.cookie = `svc_session=${this.cookie}`;
    if (method !== 'GET' && method !== 'HEAD') {
      all.origin ??= this.server.url;
      if (this.csrfToken) all['x-csrf-token'] ??= this.csrfToken;
    }
    if (body !== undefined) all['content-type'] = 'application/json';
    const res = await fetch(this.server.url + path, { method, headers: all, body: body === undefined ? undefined : JSON.stringify(body) });
    const setCookie = /^svc_session=([^;]*)/.exec(res.headers.get('set-cookie') ?? '');
    if (setCookie) this.cookie = setCookie[1] || undefined;
    const text = await res.text();
    const parsed = text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined;
    if (parsed?.csrfToken) this.csrfToken = parsed.csrfToken;
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  signIn(email: string, password: string, headers: Record<string, string> = {}) {
    return this.request('POST', '/app/v1/session', { email, password }, headers);
  }
}

/** A user made through the admin API (the operator's way), signed in. */
export async function signedInUser(server: TestServer, email: string, memberships: Array<{ orgId: number; role: string }> = []) {
  const password = 'correct horse battery';
  const created = await server.admin('POST', '/users', { email, password, name: email.split('@')[0] });
  if (created.status !== 201) throw new Error(`user creation failed: ${JSON.stringify(created.body)}`);
  for (const m of memberships) await server.admin('PUT', `/orgs/${m.orgId}/members/${created.body.id}`, { role: m.role });
  const client = new AppClient(server);
  const res = await client.signIn(email, password);
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.text}`);
  return { client, userId: created.body.id as number, password };
}

/**
 * A read of a site's statistics on both mounts, `/v1` with an API key and `/app/v1` as a member:
 * the same status and bytes (asserted; a refusal's too, /app/v1 adding only its reason's header),
 * and the parsed answer of /v1.
 */
export async function readOnBothMounts(server: TestServer, siteId: string, key: string, member: AppClient, path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.url}/v1/sites/${siteId}${path}`, { headers: { authorization: `Bearer ${key}` } });
  const text = await res.text();
  const app = await member.request('GET', `/app/v1/sites/${siteId}${path}`);
  assert.equal(app.status, res.status, path);
  const body = JSON.parse(text);
  assert.equal(app.text, text, path);
  if (res.status >= 400) {
    assert.deepEqual(Object.keys(body.error), ['code', 'message'], path);
    assert.match(app.headers.get(REASON_HEADER) ?? '', /^[A-Z_]+$/, path);
  }
  return { status: res.status, body };
}
