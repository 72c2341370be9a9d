// The shape of deploy/compose.yml and deploy/Dockerfile: the stores, the processes and their roles,
// the variables each process gets, the volumes, health checks and the proxy's trusted address.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { projectRoot } from '../../src/core/paths.js';
import { DEPLOY_DIR, interpolate, readCompose, svcServices, volumeMounts } from '../helpers/compose.js';
import { START_COMMAND } from '../helpers/child.js';
import { ADDRESS_VARIABLES } from '../helpers/deployment.js';

const DOT_ENV = { POSTGRES_PASSWORD: 'pgpass', CLICKHOUSE_PASSWORD: 'chpass', SVC_ADMIN_TOKEN: 'admin-token-0123456789' };
const compose = readCompose(DOT_ENV);
const svc = svcServices(compose);
const configurationDoc = readFileSync(join(projectRoot(), 'docs/configuration.md'), 'utf8');

describe('deploy/compose.yml', () => {
  it('interpolates as Compose does', () => {
    assert.equal(interpolate('a${X}b', { X: '1' }), 'a1b');
    assert.equal(interpolate('${X:-d}', {}), 'd');
    assert.equal(interpolate('${X:-d}', { X: '' }), 'd');
    assert.equal(interpolate('$${X}', { X: '1' }), '${X}');
    assert.throws(() => interpolate('${X:?set X}', {}), /set X/);
    assert.throws(() => readCompose({}), /POSTGRES_PASSWORD/, 'a missing secret stops the start');
  });

  it('runs PostgreSQL 15, ClickHouse, Redis 7, two collect, one api, one worker and nginx', () => {
    assert.deepEqual([...compose.services.keys()].sort(), ['api', 'clickhouse', 'collect-1', 'collect-2', 'postgres', 'proxy', 'redis', 'worker']);
    assert.equal(compose.services.get('postgres')!.image, 'postgres:15');
    assert.match(compose.services.get('clickhouse')!.image ?? '', /^clickhouse\/clickhouse-server:\d+\.\d+$/);
    assert.equal(compose.services.get('redis')!.image, 'redis:7');
    assert.match(compose.services.get('proxy')!.image ?? '', /^nginx:/);
    const roles = svc.map((s) => `${s.name}=${s.environment.SVC_ROLE}`).sort();
    assert.deepEqual(roles, ['api=api', 'collect-1=collect', 'collect-2=collect', 'worker=worker']);
  });

  it('starts every svc process from the Dockerfile: node 20, npm ci, npm run build, node dist/main.js with npm start\'s flags', () => {
    const dockerfile = readFileSync(join(DEPLOY_DIR, 'Dockerfile'), 'utf8');
    assert.match(dockerfile, /^FROM node:20\b/m);
    assert.match(dockerfile, /^RUN npm ci\b/m);
    assert.match(dockerfile, /^RUN npm run build\b/m);
    // The container runs node as `npm start` does, with its flags.
    assert.deepEqual(JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)![1]!), START_COMMAND);
    for (const service of svc) {
      assert.deepEqual(service.build, { context: '..', dockerfile: 'deploy/Dockerfile' });
      assert.equal(service.command[0], 'node', service.name);
      assert.equal(service.command.at(-1), 'dist/main.js', service.name);
    }
  });

  it('gives every svc process the three store URLs, pointing at the stores of the file', () => {
    for (const service of svc) {
      const env = service.environment;
      assert.match(env.SVC_DATABASE_URL ?? '', /^postgres:\/\/svc:pgpass@postgres:5432\/svc$/, service.name);
      assert.match(env.SVC_CLICKHOUSE_URL ?? '', /^http:\/\/svc:chpass@clickhouse:8123\/svc$/, service.name);
      assert.match(env.SVC_REDIS_URL ?? '', /^redis:\/\/redis:6379(\/\d+)?$/, service.name);
      assert.equal(env.SVC_ADMIN_TOKEN, DOT_ENV.SVC_ADMIN_TOKEN);
    }
  });

  it('declares only variables svc documents, and every address among the ones a test replaces', () => {
    for (const service of svc) {
      for (const name of Object.keys(service.environment)) {
        assert.ok(configurationDoc.includes(`\`${name}\``), `${service.name}: ${name} is not in docs/configuration.md`);
        const value = service.environment[name]!;
        const namesAHost = /\b(postgres|clickhouse|redis|proxy):\d+/.test(value) || /^(\d+\.){3}\d+$/.test(value) || value.startsWith('/');
        if (namesAHost) assert.ok((ADDRESS_VARIABLES as readonly string[]).includes(name), `${service.name}: ${name}=${value} is an address the tests do not replace`);
      }
    }
  });

  it('keeps each process its own data dir on a named volume', () => {
    const volumes = svc.map((service) => {
      const mount = service.volumes.find((v) => v.endsWith(`:${service.environment.SVC_DATA_DIR}`));
      assert.ok(mount, `${service.name} mounts no volume at SVC_DATA_DIR`);
      const volume = mount.split(':')[0]!;
      assert.ok(volume in (compose.declared.volumes ?? {}), `${volume} is declared`);
      return volume;
    });
    assert.equal(new Set(volumes).size, svc.length, 'no two processes share a data dir');
  });

  it('shares no volume between processes (imports travel through the metadata database), each data dir made for the image\'s user', () => {
    const mounts = svc.flatMap((service) => volumeMounts(compose, service).map((m) => m.source));
    assert.equal(new Set(mounts).size, mounts.length, `a volume mounted by two processes: ${mounts.join(', ')}`);
    // A new named volume takes the owner of the image's folder it is mounted on: the user svc runs as.
    const dataDir = svc[0]!.environment.SVC_DATA_DIR!;
    const dockerfile = readFileSync(join(DEPLOY_DIR, 'Dockerfile'), 'utf8');
    assert.match(dockerfile, new RegExp(`^RUN mkdir -p ${dataDir} && chown -R node:node ${dataDir}\\b`, 'm'));
    assert.match(dockerfile, /^USER node$/m);
  });

  it('checks health on /healthz, waits for healthy stores, and stops within the grace period', () => {
    for (const service of svc) {
      assert.match(service.healthcheck?.test.join(' ') ?? '', /\/healthz/, service.name);
      const dependsOn = service.declared.depends_on as Record<string, { condition: string }>;
      for (const store of ['postgres', 'clickhouse', 'redis']) assert.equal(dependsOn[store]?.condition, 'service_healthy', `${service.name} waits for ${store}`);
      const grace = /^(\d+)s$/.exec(service.declared.stop_grace_period ?? '');
      assert.ok(grace && Number(grace[1]) > 10, `${service.name}: stop_grace_period exceeds SVC_STOP_TIMEOUT_MS (10 s)`);
    }
    for (const store of ['postgres', 'clickhouse', 'redis', 'proxy']) assert.ok(compose.services.get(store)!.healthcheck, `${store} has a health check`);
  });

  it('gives the proxy and every svc process a fixed address of its network, which nginx resolves once', () => {
    const subnet = compose.declared.networks.svc.ipam.config[0].subnet as string;
    const prefix = subnet.replace(/\.0\/24$/, '.');
    const addresses = [...svc, compose.services.get('proxy')!].map((service) => service.declared.networks?.svc?.ipv4_address as string | undefined);
    for (const address of addresses) assert.ok(address?.startsWith(prefix), `${address} in ${subnet}`);
    assert.equal(new Set(addresses).size, addresses.length);
  });

  it('publishes only the proxy, whose fixed address is the trusted proxy of every svc process', () => {
    for (const service of compose.services.values()) {
      if (service.name !== 'proxy') assert.deepEqual(service.ports, [], `${service.name} publishes no port`);
    }
    const proxy = compose.services.get('proxy')!;
    assert.equal(proxy.ports.length, 1);
    const address = proxy.declared.networks.svc.ipv4_address as string;
    for (const service of svc) assert.equal(service.environment.SVC_TRUSTED_PROXIES, address, service.name);
    assert.ok(proxy.volumes.includes('./nginx.conf:/etc/nginx/templates/default.conf.template:ro'), 'nginx.conf is the proxy\'s template');
    assert.ok('SVC_RELAY_KEY' in proxy.environment, 'the proxy gets the relay key');
  });
});
