// What the tests need besides Node: Debian packages (each found by a file it provides) and servers
// (each found listening on its port). Run directly (the first step of `npm test`), it installs the
// missing packages with apt-get and starts the missing servers when running as root on Debian, and
// otherwise stops with what to do. A package or server that joins the tests joins these lists.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';

export const SYSTEM_PACKAGES = [
  { package: 'chromium', file: '/usr/bin/chromium', for: 'the tracker tests in a real browser' },
  { package: 'nginx-light', file: '/usr/sbin/nginx', for: 'the first-party proxy test' },
  { package: 'openssl', file: '/usr/bin/openssl', for: 'the test certificate authority of the webhook tests' },
  { package: 'postgresql', file: '/usr/bin/pg_ctlcluster', for: 'the PostgreSQL metadata tests' },
  { package: 'redis-server', file: '/usr/bin/redis-server', for: 'the shared sessions and rate limits of the scale-out profile' },
  { package: 'clickhouse-server', file: '/usr/sbin/clickhouse-server', for: 'the ClickHouse event store (the tests start private servers of it)' },
];

// Debian's newest PostgreSQL cluster, created if missing, letting user postgres in from 127.0.0.1
// without a password (the tests' database server), started (or reloaded when already running).
const START_POSTGRESQL = `set -e
v=$(ls /usr/lib/postgresql | sort -n | tail -1)
[ -d /etc/postgresql/$v/main ] || pg_createcluster "$v" main
hba=/etc/postgresql/$v/main/pg_hba.conf
grep -q '^host all postgres 127.0.0.1/32 trust' "$hba" || sed -i '1i host all postgres 127.0.0.1/32 trust' "$hba"
pg_ctlcluster "$v" main start || pg_ctlcluster "$v" main reload`;

// Redis as the tests use it: loopback only, nothing kept on disk.
const START_REDIS = ['redis-server', '--daemonize', 'yes', '--bind', '127.0.0.1', '--port', '6379', '--save', '', '--appendonly', 'no'];

export const TEST_SERVERS = [
  { name: 'PostgreSQL', port: 5432, how: 'user postgres without a password from 127.0.0.1', start: ['bash', '-c', START_POSTGRESQL] },
  { name: 'Redis', port: 6379, how: 'without a password', start: START_REDIS },
];

/** The packages whose file is missing. */
export function missingPackages(exists = existsSync) {
  return SYSTEM_PACKAGES.filter((p) => !exists(p.file));
}

/** Whether something accepts TCP connections on 127.0.0.1:port. */
export function listening(port, timeoutMs = 1000) {
  return new Promise((done) => {
    const socket = connect({ host: '127.0.0.1', port, timeout: timeoutMs });
    const end = (result) => {
      socket.destroy();
      done(result);
    };
    socket.once('connect', () => end(true));
    socket.once('timeout', () => end(false));
    socket.once('error', () => end(false));
  });
}

/** The servers nothing listens for. */
export async function missingServers(isListening = listening) {
  const up = await Promise.all(TEST_SERVERS.map((s) => isListening(s.port)));
  return TEST_SERVERS.filter((_, i) => !up[i]);
}

function run(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (result.status !== 0) {
    console.error(`test setup: \`${command} ${args.join(' ')}\` failed (exit ${result.status ?? result.signal})`);
    process.exit(1);
  }
}

async function main() {
  const packages = missingPackages();
  const servers = await missingServers();
  if (packages.length === 0 && servers.length === 0) return;
  const install = ['install', '-y', '-q', '--no-install-recommends', ...packages.map((p) => p.package)];
  const lines = [
    ...packages.map((p) => `  package ${p.package} (${p.file}): ${p.for}`),
    ...servers.map((s) => `  ${s.name} on 127.0.0.1:${s.port}, ${s.how}`),
  ].join('\n');
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) {
    const steps = packages.length > 0 ? `install the packages (on Debian: sudo apt-get ${install.join(' ')}), ` : '';
    console.error(`the tests need what is missing here:\n${lines}\n${steps}start the servers, and run the tests again (as root on Debian, npm test does both)`);
    process.exit(1);
  }
  console.error(`setting up what the tests need:\n${lines}`);
  if (packages.length > 0) {
    run('apt-get', ['update', '-q']);
    run('apt-get', install);
  }
  for (const server of servers) {
    run(server.start[0], server.start.slice(1));
    let up = await listening(server.port);
    for (let i = 0; i < 30 && !up; i++) {
      await new Promise((wait) => setTimeout(wait, 1000));
      up = await listening(server.port);
    }
    if (!up) {
      console.error(`test setup: ${server.name} does not listen on 127.0.0.1:${server.port} after starting it`);
      process.exit(1);
    }
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
