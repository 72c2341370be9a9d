// Hostile input: more than 10 000 generated malformed or hostile requests to the collection endpoint
// (most through fastify.inject, a few thousand through the real listening server on raw sockets,
// including bodies over 64 KB) and a few thousand to the admin API. Contract checked:
// - /api/e always answers 202 with an empty body (over 64 KB: 202, then the connection is closed);
// - the admin API answers 4xx with {error:{code,message}}, never 5xx;
// - the process stays up and Object.prototype is not polluted;
// - valid events mixed in are stored, exactly those, and every stored row satisfies the invariants.
// Generators are seeded (a local PRNG and fast-check with a fixed seed): failures are reproducible.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rawRequest } from '../helpers/raw-http.js';
import { createRelayKey, createSite, startTestServer, BROWSER_UA, type TestServer } from '../helpers/server.js';
import { sql } from '../../src/sql/sql.js';
import { adminCase, ANY_VALUES, checkRow, collectCase, type Fixture, headerSafe, pool, prng, SEED } from './hostile-cases.js';

test('hostile input: /api/e always 202, admin API always 4xx envelope, nothing invalid stored', { timeout: 180_000 }, async () => {
  const started = Date.now();
  const protoBefore = Object.getOwnPropertyNames(Object.prototype).sort();
  const arrayProtoBefore = Object.getOwnPropertyNames(Array.prototype).sort();
  const server: TestServer = await startTestServer({ env: { SVC_COLLECT_RATE_LIMIT: '100000000/10s' } });
  try {
    const app = server.service.app;
    const port = Number(new URL(server.url).port);
    const site = await createSite(server, { domain: `hostile-${process.pid}.example` });
    const archived = await createSite(server, { domain: `archived-${process.pid}.example` });
    assert.equal((await server.admin('PATCH', `/sites/${archived.siteId}`, { status: 'archived' })).status, 200);
    const importSite = await createSite(server, { domain: `import-${process.pid}.example` });
    const relayKey = await createRelayKey(server);
    const fx: Fixture = { siteId: site.siteId, domain: site.domain, archivedSiteId: archived.siteId, relayKey };
    const rng = prng(SEED);

    // 1. Collection endpoint through fastify.inject.
    const INJECTED = 10_080;
    const cases = Array.from({ length: INJECTED }, (_, i) => collectCase(rng, fx, i));
    const expected = new Set<number>();
    const kindOf = new Map<number, string>(); // for failure messages
    const failures: string[] = [];
    await pool(cases, 32, async (k, i) => {
      if (k.accept !== null) expected.add(k.accept), kindOf.set(k.accept, `${k.kind} ${String(k.payload).slice(0, 300)} ${JSON.stringify(k.headers).slice(0, 300)}`);
      const res = await app.inject({ method: 'POST', url: rng.chance(0.02) ? '/api/e?%ZZ&__proto__[x]=1&a=%00' : '/api/e', payload: k.payload, headers: k.headers });
      if (res.statusCode !== 202 || res.rawPayload.length !== 0) failures.push(`#${i} ${k.kind}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    });
    assert.deepEqual(failures.slice(0, 10), [], `${failures.length} injected requests did not get an empty 202`);
    console.log(`[hostile] ${INJECTED} injected collection requests in ${Date.now() - started} ms`);

    // 2. Through the real listening server on raw sockets: same generator, plus chunked and >64 KB bodies.
    const t2 = Date.now();
    const REAL = 2_400;
    const realCases = Array.from({ length: REAL }, (_, i) => collectCase(rng, fx, i * 7 + 3));
    let closedAfterOverflow = 0;
    let overflowCases = 0;
    await pool(realCases, 16, async (k, i) => {
      const body = Buffer.isBuffer(k.payload) ? k.payload : Buffer.from(k.payload, 'utf8');
      const headers = Object.entries(k.headers)
        // Header bytes the HTTP parser refuses (and huge UAs over Node's 16 KB header limit) stay on the inject path.
        .filter(([, v]) => !/[\r\n\0]/.test(v))
        .map(([name, v]) => `${name}: ${headerSafe(name === 'user-agent' ? v.slice(0, 8000) : v)}\r\n`)
        .join('');
      const chunked = body.length > 0 && i % 5 === 0;
      const head =
        `POST /api/e HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n${headers}` +
        (chunked ? 'transfer-encoding: chunked\r\n' : `content-length: ${body.length}\r\n`) +
        (body.length > 65_536 ? '' : 'connection: close\r\n') +
        '\r\n';
      if (k.accept !== null) expected.add(k.accept), kindOf.set(k.accept, `real ${k.kind} ${String(k.payload).slice(0, 300)}`);
      let res;
      try {
        res = await rawRequest(port, head, body, chunked);
      } catch (err) {
        failures.push(`real #${i} ${k.kind}: ${(err as Error).message}`);
        return;
      }
      if (res.status !== 202 || res.body.length !== 0) failures.push(`real #${i} ${k.kind}: ${res.status} ${res.body.toString().slice(0, 200)}`);
      if (body.length > 65_536) {
        overflowCases++;
        if (res.closedByServer) closedAfterOverflow++;
        else failures.push(`real #${i} ${k.kind}: connection not closed after a ${body.length}-byte body`);
      }
    });
    // Oversized uploads the server must cut short: a declared 10 MB body and an endless chunked one.
    for (const chunked of [false, true]) {
      const res = await rawRequest(
        port,
        `POST /api/e HTTP/1.1\r\nhost: x\r\ncontent-type: text/plain\r\n${chunked ? 'transfer-encoding: chunked' : 'content-length: 10000000'}\r\n\r\n`,
        Buffer.alloc(200_000, 0x41),
        chunked,
      );
      assert.equal(res.status, 202);
      assert.equal(res.body.length, 0);
      assert.ok(res.closedByServer, 'connection closed after an oversized body');
    }
    assert.deepEqual(failures.slice(0, 10), [], `${failures.length} real-server requests failed`);
    assert.ok(overflowCases > 10 && closedAfterOverflow === overflowCases);
    console.log(`[hostile] ${REAL + 2} raw-socket collection requests in ${Date.now() - t2} ms (${overflowCases} over 64 KB, all closed)`);

    // 3. Admin API: every hostile request gets a 4xx with the envelope.
    const t3 = Date.now();
    const org = site.orgId;
    const goal = await server.admin('POST', `/sites/${site.siteId}/goals`, { name: 'g', kind: 'page', pattern: '/ok/**' });
    const funnel = await server.admin('POST', `/sites/${site.siteId}/funnels`, { name: 'f', windowMinutes: 60, steps: [{ kind: 'page', pattern: '/a' }, { kind: 'event', pattern: 'signup' }] });
    const key = await server.admin('POST', `/orgs/${org}/keys`, { name: 'k' });
    assert.equal(goal.status, 201);
    assert.equal(funnel.status, 201);
    const ids = { orgId: org, siteId: site.siteId, archivedSiteId: archived.siteId, goalId: goal.body.goalId, funnelId: funnel.body.id, keyId: key.body.id };
    const orgsBefore = (await server.admin('GET', '/orgs')).body.orgs.length;
    const sitesBefore = JSON.stringify((await server.admin('GET', `/orgs/${org}/sites`)).body);
    const keysBefore = (await server.admin('GET', `/orgs/${org}/keys`)).body.keys.length;
    const ADMIN = 3_200;
    const adminCases = Array.from({ length: ADMIN }, (_, i) => adminCase(rng, server.adminToken, ids, i));
    const kinds = new Map<string, number>();
    await pool(adminCases, 16, async (k, i) => {
      const res = await app.inject({ method: k.method, url: '/admin/v1' + k.url, payload: k.payload, headers: k.headers });
      kinds.set(k.kind, (kinds.get(k.kind) ?? 0) + 1);
      let body: any;
      try {
        body = JSON.parse(res.body);
      } catch {
        body = undefined;
      }
      const envelopeOk = body && typeof body.error?.code === 'string' && typeof body.error?.message === 'string' && Object.keys(body).length === 1;
      if (res.statusCode < 400 || res.statusCode >= 500 || !envelopeOk) {
        failures.push(`admin #${i} ${k.kind} ${k.method} ${k.url.slice(0, 80)} ${String(k.payload ?? '').slice(0, 80)} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
      if (k.kind === 'unauthorized' && res.statusCode !== 401 && !k.url.includes('%')) failures.push(`admin #${i} unauthorized got ${res.statusCode}`);
    });
    assert.deepEqual(failures.slice(0, 20), [], `${failures.length} admin requests broke the contract`);
    // /metrics is behind the token too.
    for (const authorization of [undefined, 'Bearer nope', `Bearer ${server.adminToken}x`]) {
      const res = await app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
      assert.equal(res.statusCode, 401);
      assert.equal(JSON.parse(res.body).error.code, 'UNAUTHORIZED');
    }
    // Nothing was created or changed by the refused requests.
    assert.equal((await server.admin('GET', '/orgs')).body.orgs.length, orgsBefore);
    assert.equal(JSON.stringify((await server.admin('GET', `/orgs/${org}/sites`)).body), sitesBefore);
    assert.equal((await server.admin('GET', `/orgs/${org}/keys`)).body.keys.length, keysBefore);
    const funnels = await server.ctx.meta.listFunnels((await server.ctx.meta.getSite(site.siteId))!.internalId);
    assert.deepEqual(funnels.map((f) => f.version), [1]);
    console.log(`[hostile] ${ADMIN} admin requests in ${Date.now() - t3} ms across ${kinds.size} kinds`);

    // 4. Import: NDJSON garbage mixed with valid lines; the report counts exactly the valid ones.
    const t4 = Date.now();
    const now = Date.now();
    const importedExpected = new Set<number>();
    let importLines = 0;
    let nextImp = 0;
    for (let call = 0; call < 60; call++) {
      const lines: string[] = [];
      const valid: number[] = [];
      const n = rng.int(1, 150);
      for (let j = 0; j < n; j++) {
        if (rng.chance(0.3)) {
          const id = ++nextImp;
          valid.push(lines.length + 1);
          importedExpected.add(id);
          lines.push(JSON.stringify({ ts: now - rng.int(0, 3_600_000), ua: BROWSER_UA, u: `/imp/${id}`, ip: rng.pick([undefined, '81.2.69.142', '2a01:e0a::1']), p: rng.chance(0.3) ? { __proto__: 1, ok: 'y'.repeat(700) } : undefined }));
          continue;
        }
        lines.push(
          rng.pick<() => string>([
            () => rng.bytes(rng.int(1, 200)).toString('latin1').replace(/\n/g, ' '),
            () => '['.repeat(5000) + ']'.repeat(5000),
            () => JSON.stringify({ ts: now, ua: BROWSER_UA, u: 'no-slash' }),
            () => JSON.stringify({ ts: now + 10 * 86_400_000, ua: BROWSER_UA, u: '/future' }),
            () => JSON.stringify({ ts: 'yesterday', ua: BROWSER_UA, u: '/x' }),
            () => JSON.stringify({ ts: now, ua: 'Googlebot/2.1', u: '/bot' }),
            () => JSON.stringify({ ts: now, ua: BROWSER_UA, u: '/aws', ip: '3.5.140.2' }),
            () => JSON.stringify({ ts: now, ua: BROWSER_UA, u: '/x', ip: 'not-an-ip' }),
            () => JSON.stringify({ ts: now, ua: BROWSER_UA, u: '/x', country: 'FRA' }),
            () => JSON.stringify({ ts: now, ua: BROWSER_UA, u: '/x', e: 'Bad Name' }),
            () => JSON.stringify({ ts: now, ua: BROWSER_UA, u: '/x', e: 'engage', p: {} }),
            () => JSON.stringify({ ts: now, ua: 5, u: '/x' }),
            () => '{"ts":' + now + ',"ua":"x","u":"/x","w":NaN}',
            () => '{"__proto__":{"polluted":"yes"},"ts":"x"}',
            () => 'x'.repeat(70_000),
            () => JSON.stringify(rng.pick(ANY_VALUES)) ?? 'undefined',
          ])(),
        );
      }
      const crlf = rng.chance(0.2);
      const body = lines.join(crlf ? '\r\n' : '\n') + (rng.chance(0.5) ? '\n' : '');
      const res = await app.inject({
        method: 'POST',
        url: `/admin/v1/sites/${importSite.siteId}/events/import`,
        payload: body,
        headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': rng.pick(['application/x-ndjson', 'application/json', 'text/plain']) },
      });
      importLines += n;
      assert.equal(res.statusCode, 200, res.body.slice(0, 300));
      const report = JSON.parse(res.body);
      assert.deepEqual(Object.keys(report).sort(), ['accepted', 'errors', 'rejected']);
      assert.equal(report.accepted, valid.length, `call ${call}: ${res.body.slice(0, 500)}`);
      // Blank lines (a garbage line may be all spaces) are neither accepted nor rejected.
      const nonBlank = lines.filter((l) => l.trim() !== '').length;
      assert.equal(report.accepted + report.rejected, nonBlank);
      assert.ok(report.errors.length <= 100 && report.errors.length === Math.min(100, report.rejected));
      for (const e of report.errors) {
        assert.ok(Number.isInteger(e.line) && e.line >= 1 && e.line <= n && !valid.includes(e.line), JSON.stringify(e));
        assert.equal(typeof e.reason, 'string');
      }
    }
    // Import into a missing site: 404 envelope.
    const missing = await app.inject({ method: 'POST', url: '/admin/v1/sites/nope/events/import', payload: 'garbage\n', headers: { authorization: `Bearer ${server.adminToken}` } });
    assert.equal(missing.statusCode, 404);
    assert.equal(JSON.parse(missing.body).error.code, 'NOT_FOUND');
    console.log(`[hostile] 60 imports with ${importLines} lines in ${Date.now() - t4} ms`);

    // 5. Storage: exactly the valid events, every row within the invariants.
    await server.flush();
    const rows = await server.ctx.events.query<Record<string, any>>(sql`SELECT site_id, name, page, props FROM events`);
    const siteIds = new Set([site.siteId, importSite.siteId]);
    const bad = rows.map((r) => [checkRow(r, siteIds), r] as const).filter(([problem]) => problem !== null);
    assert.deepEqual(bad.slice(0, 5).map(([p, r]) => `${p}: ${JSON.stringify(r).slice(0, 300)}`), [], `${bad.length} stored rows break the invariants`);

    const storedOk = new Map<number, number>();
    const storedImp = new Map<number, number>();
    for (const r of rows) {
      const ok = /^\/ok\/(\d+)(?:\/|$)/.exec(r.page);
      const imp = /^\/imp\/(\d+)$/.exec(r.page);
      if (r.site_id === site.siteId && ok) storedOk.set(Number(ok[1]), (storedOk.get(Number(ok[1])) ?? 0) + 1);
      else if (r.site_id === importSite.siteId && imp) storedImp.set(Number(imp[1]), (storedImp.get(Number(imp[1])) ?? 0) + 1);
      else assert.fail(`unexpected stored row ${JSON.stringify(r).slice(0, 300)}`);
    }
    const missingOk = [...expected].filter((id) => !storedOk.has(id));
    const extraOk = [...storedOk.keys()].filter((id) => !expected.has(id));
    assert.deepEqual(missingOk.slice(0, 10).map((id) => `${id}: ${kindOf.get(id)}`), [], `${missingOk.length} valid events were not stored`);
    assert.deepEqual(extraOk, [], 'events stored that should have been dropped');
    assert.ok([...storedOk.values()].every((n) => n === 1), 'each valid event stored once');
    assert.deepEqual([...storedImp.keys()].sort((a, b) => a - b), [...importedExpected].sort((a, b) => a - b));
    assert.equal(server.ctx.ingest.drops.acceptedFor('collect'), expected.size);
    console.log(`[hostile] stored ${storedOk.size} valid collected and ${storedImp.size} imported events; ${rows.length} rows checked`);

    // 6. Still up, and no pollution.
    assert.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
    assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), protoBefore);
    assert.deepEqual(Object.getOwnPropertyNames(Array.prototype).sort(), arrayProtoBefore);
    const probe: any = {};
    for (const name of ['polluted', 'x', 'a']) assert.equal(probe[name], undefined, `Object.prototype.${name} is set`);
    assert.equal(Object.getPrototypeOf(probe), Object.prototype);
    console.log(`[hostile] total ${INJECTED + REAL + 2} collection and ${ADMIN + 61} admin requests in ${Date.now() - started} ms`);
  } finally {
    await server.stop();
  }
});
