// deploy/nginx.conf's routing, run in a real nginx as compose.yml's proxy runs it, in front of
// stand-in upstreams that answer with their service's name and the headers they received.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { readCompose, svcServices } from '../helpers/compose.js';
import { renderProxyConfig } from '../helpers/deployment.js';
import { startNginx, type NginxProcess } from '../helpers/nginx.js';
import { freePort } from '../../support/ports.js';
import { postFrom } from '../helpers/post-from.js';

const RELAY_KEY = 'svcrelay_0123456789abcdefghijklmnopqrstuv';

interface Seen {
  service: string;
  path: string;
  headers: IncomingHttpHeaders;
}

describe('deploy/nginx.conf', () => {
  const compose = readCompose({ POSTGRES_PASSWORD: 'p', CLICKHOUSE_PASSWORD: 'c', SVC_ADMIN_TOKEN: 'admin-token-0123456789', SVC_RELAY_KEY: RELAY_KEY });
  const seen: Seen[] = [];
  const upstreams = new Map<string, Server>();
  /** Stand-ins that reset the connection once a request has arrived, instead of answering. */
  const resetting = new Set<string>();
  let nginx: NginxProcess;
  let port: number;

  before(async () => {
    port = await freePort();
    const addresses = new Map<string, string>([['80', `127.0.0.1:${port}`]]);
    for (const service of svcServices(compose)) {
      const server = createServer((req, res) => {
        seen.push({ service: service.name, path: req.url ?? '', headers: req.headers });
        req.resume();
        req.on('end', () => {
          if (resetting.has(service.name)) req.socket.resetAndDestroy();
          else res.writeHead(200, { 'content-type': 'text/plain' }).end(service.name);
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      upstreams.set(service.name, server);
      const { port: upstreamPort } = server.address() as { port: number };
      addresses.set(`${service.name}:${service.environment.PORT}`, `127.0.0.1:${upstreamPort}`);
    }
    nginx = await startNginx(renderProxyConfig(compose.services.get('proxy')!, addresses), [port]);
  });

  after(async () => {
    await nginx?.stop();
    for (const server of upstreams.values()) server.closeAllConnections();
    await Promise.all([...upstreams.values()].map((server) => new Promise((resolve) => server.close(resolve))));
  });

  const get = async (path: string) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`);
    return res.text();
  };

  it('sends /api/e and /js/ to the two collect processes in turn', async () => {
    const served = [];
    for (let i = 0; i < 4; i++) served.push(await get('/js/t.js'));
    for (let i = 0; i < 4; i++) served.push(await (await fetch(`http://127.0.0.1:${port}/api/e`, { method: 'POST', body: '{}' })).text());
    assert.deepEqual([...new Set(served)].sort(), ['collect-1', 'collect-2']);
    assert.equal(served.filter((s) => s === 'collect-1').length, 4, `alternating: ${served.join(' ')}`);
  });

  it('sends everything else to the api process', async () => {
    for (const path of ['/v1/sites', '/admin/v1/orgs', '/app/v1/me', '/healthz', '/', '/sites/abc', '/openapi.json', '/api/e2', '/jsx']) {
      assert.equal(await get(path), 'api', path);
    }
  });

  it("relays the visitor's address with the key to collect, and drops client-sent relay headers", async () => {
    const body = JSON.stringify({ s: 'site', u: '/' });
    const status = await postFrom('127.0.3.7', port, '/api/e', body, {
      'x-svc-relay-key': 'forged',
      'x-svc-client-ip': '203.0.113.9',
      'x-svc-client-country': 'ZZ',
      'x-svc-client-city': 'Spoofville',
      'user-agent': 'Mozilla/5.0 test',
      origin: 'https://shop.example',
    });
    assert.equal(status, 200);
    const collected = seen.filter((s) => s.path === '/api/e').at(-1)!;
    assert.equal(collected.headers['x-svc-relay-key'], RELAY_KEY);
    assert.equal(collected.headers['x-svc-client-ip'], '127.0.3.7');
    for (const name of ['x-svc-client-country', 'x-svc-client-region', 'x-svc-client-city', 'x-svc-client-asn']) assert.equal(collected.headers[name], undefined, name);
    assert.equal(collected.headers.origin, 'https://shop.example');
    assert.equal(collected.headers['user-agent'], 'Mozilla/5.0 test');
  });

  it('appends the client address to X-Forwarded-For for the api, whose last entry svc reads', async () => {
    assert.equal(await postFrom('127.0.4.9', port, '/login', 'x', { 'x-forwarded-for': '198.51.100.1' }), 200);
    const login = seen.filter((s) => s.path === '/login').at(-1)!;
    assert.equal(login.service, 'api');
    assert.equal(login.headers['x-forwarded-for'], '198.51.100.1, 127.0.4.9');
    assert.equal(login.headers.host, `127.0.0.1:${port}`);
  });

  it('never sends an event twice: a POST a collect process received is not retried on the other', async () => {
    resetting.add('collect-1');
    const before = seen.length;
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await fetch(`http://127.0.0.1:${port}/api/e`, { method: 'POST', body: `{"i":${i}}` })).status);
    resetting.delete('collect-1');
    const received = seen.slice(before).map((s) => s.service);
    assert.equal(received.length, 4, `each POST reached one process once: ${received.join(' ')}`);
    assert.ok(received.includes('collect-1'), 'a POST reached the process that resets');
    assert.deepEqual(statuses.filter((s) => s !== 200), received.filter((s) => s === 'collect-1').map(() => 502));
  });

  it('sends to the other collect process while one refuses connections', async () => {
    const stopped = upstreams.get('collect-1')!;
    stopped.closeAllConnections();
    await new Promise((resolve) => stopped.close(resolve));
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`http://127.0.0.1:${port}/api/e`, { method: 'POST', body: '{}' });
      assert.equal(await res.text(), 'collect-2');
    }
  });
});
